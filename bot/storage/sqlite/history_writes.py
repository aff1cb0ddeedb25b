"""A transaction's history (``HistoryRecorder``, a part of ``Transaction``): ``record`` (the
entry of a change, with each character's whole before and what changed after) and
``undo_latest`` (every character back exactly as it was)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from bot.storage.details import Details, UndoDetails, details_of
from bot.storage.errors import (
    AlreadyApplied,
    CharacterNotFound,
    StorageError,
    TransactionStateError,
)
from bot.storage.interface import HistoryCharacter, HistoryEntry, NewEntry, UndoResult
from bot.storage.models import TURN_EVERY, StoredCharacter
from bot.storage.shared_sql import INSERT_ENTRY_NEW_ID, NEXT_HISTORY_ID
from bot.storage.snapshot import (
    Snapshot,
    character_from_snapshot,
    dump_after,
    dump_json,
)
from bot.storage.sqlite.known import KnownCharacters
from bot.storage.sqlite.pipeline import Pipeline
from bot.storage.sqlite.reader import Reader
from bot.storage.sqlite.rows import StoredRow, is_unique_violation

__all__ = ["CharacterRestore", "HistoryRecorder"]


class CharacterRestore(Protocol):
    """What ``HistoryRecorder`` needs of the transaction's character writes
    (``CharacterWriter``, ``character_writes.py``): seal them once the entry is written, and
    put an undone change's characters back. Their shape alone, so that the history does not
    stand on every character write."""

    def seal(self) -> None: ...

    async def current(self, guild_id: int, character_id: int) -> StoredRow | None: ...

    async def load(self, guild_id: int, character_ids: Iterable[int]) -> None: ...

    async def delete(self, guild_id: int, character_id: int) -> StoredCharacter | None: ...

    async def restore(self, guild_id: int, snapshot: Snapshot) -> StoredRow: ...


_INSERT_ENTRY = (
    "INSERT INTO history (id, number, guild_id, interaction_id, actor_id, command, details,"
    " created_at, undo_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_CHARACTER = (
    "INSERT INTO history_characters (history_id, character_id, name, before, after)"
    " VALUES (?, ?, ?, ?, ?)"
)


class HistoryRecorder:
    """Writes the one history entry of a transaction (``record``), or reverts the server's
    latest change (``undo_latest``) through the transaction's character writes."""

    def __init__(
        self,
        pipe: Pipeline,
        known: KnownCharacters,
        reads: Reader,
        characters: CharacterRestore,
        *,
        probed_guild: int | None = None,
    ) -> None:
        self._pipe = pipe
        self._probed_guild = probed_guild  # whose next number the BEGIN probe asks
        self._known = known
        self._reads = reads
        self._characters = characters
        self._unseen: set[int] = set()  # interaction ids checked here and not yet recorded
        #: The interaction of the history entry written (None: none yet).
        self.recorded_interaction: int | None = None

    @property
    def recorded(self) -> bool:
        return self.recorded_interaction is not None

    async def interaction_seen(self, interaction_id: int) -> bool:
        """Whether this interaction already produced a history entry (applied once)."""
        self._reads.check_open()
        if interaction_id in self._unseen:  # asked again (``/undo``): nothing recorded since
            return False
        seen = await self._reads.interaction_seen(interaction_id)
        if not seen:
            self._unseen.add(interaction_id)
        return seen

    async def has_unrecorded_changes(self) -> bool:
        """Whether a character's stored value changed while nothing was recorded."""
        return not self.recorded and bool(await self._known.changes(self._reads.snapshot))

    async def record(
        self, entry: NewEntry, *, undo_of: int | None = None, force: bool = False
    ) -> HistoryEntry | None:
        """Write the history entry of this transaction's change, once, after the writes.

        ``details``: the command's (``bot.storage.details``), of that command's class.
        Returns None (and writes nothing) when no character's stored value changed, unless
        ``force`` (an undo: its characters are recorded as they are). Raises
        ``AlreadyApplied`` when the interaction already has an entry (the transaction then
        rolls back), ``TypeError`` when ``details`` are not a command's details.
        """
        guild_id, command = entry["guild_id"], entry["command"]
        interaction_id, actor_id = entry["interaction_id"], entry["actor_id"]
        details = entry.get("details")
        self._reads.check_open()
        if self.recorded:
            raise TransactionStateError("record() called twice in one transaction")
        if self._known.guild_id is not None and self._known.guild_id != guild_id:
            raise TransactionStateError("record() for another guild than the one written")
        if details is None:
            details = details_of(command, {})
        elif not isinstance(details, Details) or details.command not in ("", command):
            raise TypeError(f"the details of /{command} must be its Details, not {details!r}")
        details_json = dump_json(details.stored())
        changes = await self._known.changes(self._reads.snapshot)
        if force and not changes:
            changes = self._known.unchanged()
        if not changes:
            return None
        created_at = self._reads.now()
        self._unseen.discard(interaction_id)
        values = (guild_id, interaction_id, actor_id, command, details_json, created_at, undo_of)
        probed = self._pipe.probed.get(NEXT_HISTORY_ID)
        if probed is not None and self._probed_guild == guild_id:
            # Its id and number are known (probed with BEGIN): written with the COMMIT, where
            # a repeated interaction fails as AlreadyApplied (``Transaction.finish``).
            # One entry a transaction; the id as probed (``held.HELD_ID`` when held).
            entry_id, number = probed[0], int(probed[1])
            self._pipe.queue(_INSERT_ENTRY, (entry_id, number, *values))
        else:  # not probed (nothing sent yet, or another server): sent now, for both
            try:
                inserted = await self._pipe.fetchall(INSERT_ENTRY_NEW_ID, (guild_id, *values))
            except sqlite3.IntegrityError as error:
                if is_unique_violation(error, "history.interaction_id"):
                    raise AlreadyApplied(interaction_id) from error
                raise
            if not inserted:  # pragma: no cover - RETURNING always gives the row
                raise StorageError("INSERT gave no row")
            entry_id, number = int(inserted[0]["id"]), int(inserted[0]["number"])
        rows = []
        characters = []
        for count, change in enumerate(changes, start=1):
            if count % TURN_EVERY == 0:
                await asyncio.sleep(0)  # a whole server's change: the loop turns between batches
            before, after = change.before, change.after
            shown = after if after is not None else before
            name = "" if shown is None else str(shown["name"])
            rows.append((entry_id, change.id, name, change.before_json, dump_after(before, after)))
            characters.append(
                HistoryCharacter(
                    character_id=change.id,
                    name=name,
                    before=None if before is None else character_from_snapshot(before),
                    after=None if after is None else character_from_snapshot(after),
                )
            )
        self._pipe.queue_many(_INSERT_CHARACTER, rows)
        self.recorded_interaction = interaction_id
        self._characters.seal()
        return HistoryEntry(
            id=entry_id,
            guild_id=guild_id,
            number=number,
            interaction_id=interaction_id,
            created_at=datetime.fromisoformat(created_at),
            actor_id=actor_id,
            command=command,
            details=details,
            undo_of=undo_of,
            undone_by=None,
            characters=tuple(characters),
        )

    async def undo_latest(
        self, guild_id: int, interaction_id: int, actor_id: int
    ) -> UndoResult | None:
        """Revert the guild's latest entry that is neither an undo nor undone.

        Every touched character gets its ``before`` snapshot back exactly (deleted ones are
        re-created with the same id and abilities, created ones are deleted); the entry is
        marked undone and an entry with command ``"undo"`` and ``undo_of`` is recorded.
        None when there is nothing to undo. Raises ``AlreadyApplied`` for a repeated
        interaction, ``DuplicateName`` if a restored name is taken meanwhile.
        """
        if self._known.written_ids or self.recorded:
            raise TransactionStateError("undo_latest() must be the only change of a transaction")
        befores: dict[int, Snapshot | None] = {}
        target = await self._reads.latest_undoable(guild_id, befores)
        if target is None:
            return None
        if await self.interaction_seen(interaction_id):
            raise AlreadyApplied(interaction_id)
        ordered = sorted(befores.items())
        await self._characters.load(guild_id, befores)
        removed: list[int] = []
        for character_id, before in ordered:  # removals first: they may free a name
            if before is None:
                await self._characters.delete(guild_id, character_id)
                removed.append(character_id)
        for _character_id, before in ordered:
            if before is not None:
                await self._characters.restore(guild_id, before)
        undo_entry = await self.record(
            NewEntry(
                guild_id=guild_id,
                interaction_id=interaction_id,
                actor_id=actor_id,
                command="undo",
                details=UndoDetails(undo_of=target.id, reverted_command=target.command),
            ),
            undo_of=target.id,
            force=True,
        )
        if undo_entry is None:  # pragma: no cover - force=True always records
            raise StorageError("undo entry not recorded")
        undo_entry = replace(undo_entry, undo_of_number=target.number)
        self._pipe.queue(
            "UPDATE history SET undone_by = ? WHERE id = ? AND guild_id = ?",
            (undo_entry.id, target.id, guild_id),
        )
        restored = []
        for character_id, before in ordered:
            if before is not None:
                current = await self._characters.current(guild_id, character_id)
                if current is None:  # pragma: no cover - written in this very transaction
                    raise CharacterNotFound(guild_id, character_id)
                restored.append(current.character())
        return UndoResult(
            reverted=replace(target, undone_by=undo_entry.id),
            undo_entry=undo_entry,
            restored=tuple(restored),
            removed=tuple(removed),
        )
