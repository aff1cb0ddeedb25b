"""A transaction's history: ``record`` (the entry of a change, with each character's whole
before and what changed after) and ``undo_latest`` (every character back exactly as it was)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.storage.character_writes import CharacterWrites
from bot.storage.errors import (
    AlreadyApplied,
    CharacterNotFound,
    DuplicateName,
    StorageError,
    TransactionStateError,
)
from bot.storage.models import (
    HistoryCharacter,
    HistoryEntry,
    UndoResult,
)
from bot.storage.rows import (
    NEXT_HISTORY_ID,
    StoredRow,
    abilities_by_key,
    character_columns,
    is_unique_violation,
)
from bot.storage.snapshot import (
    HEALTH_COLUMNS,
    Snapshot,
    ability_from_row,
    character_from_snapshot,
    dump_after,
    dump_json,
)
from bot.storage.transaction import CharacterChange

__all__ = ["Transaction"]


class Transaction(CharacterWrites):
    """Reads and writes inside ``BEGIN IMMEDIATE`` … ``COMMIT``, recorded in the history
    (``TransactionCore`` tells how its statements are sent)."""

    async def _restore(self, guild_id: int, snapshot: Snapshot) -> None:
        """Write ``snapshot`` back exactly: row (same id), every field and the abilities."""
        if int(snapshot["guild_id"]) != guild_id:
            raise StorageError("snapshot of another guild")  # pragma: no cover - corrupt data
        character_id = int(snapshot["id"])
        abilities = abilities_by_key(ability_from_row(item) for item in snapshot["abilities"])
        current = await self._touch(guild_id, character_id, will_create=True)
        self.names_written.add(guild_id)  # the name, owner or gender may come back
        health = snapshot["health"]
        fields = {
            "id": character_id,
            "guild_id": guild_id,
            "name": str(snapshot["name"]),
            "owner_id": int(snapshot["owner_id"]),
            "created_at": str(snapshot["created_at"]),
            "gender": snapshot.get("gender"),
            **{column: health[column] for column in HEALTH_COLUMNS},
        }
        if current is None:
            await self._insert_character(
                character_id=character_id,
                guild_id=guild_id,
                name=fields["name"],
                owner_id=fields["owner_id"],
                created_at=fields["created_at"],
                health=health,
                gender=fields["gender"],
            )
        else:
            columns, values = character_columns(
                name=fields["name"],
                owner_id=fields["owner_id"],
                created_at=fields["created_at"],
                gender=fields["gender"],
                health=health,
            )
            try:
                await self._execute(
                    f"UPDATE characters SET {', '.join(f'{c} = ?' for c in columns)}"
                    " WHERE id = ? AND guild_id = ?",
                    (*values, character_id, guild_id),
                )
            except sqlite3.IntegrityError as error:
                if is_unique_violation(error, "characters.name_key"):
                    raise DuplicateName(guild_id, fields["name"]) from error
                raise
        row = StoredRow.new(fields)
        if current is not None:  # its ability rows are still there: only changes are written
            row = StoredRow(
                {**row.snapshot, "abilities": current.snapshot["abilities"]}, current.keys
            )
        self._known[character_id] = row
        await self._store_abilities(row, abilities)

    # --- history -----------------------------------------------------------------------------

    async def record(
        self,
        *,
        guild_id: int,
        interaction_id: int,
        actor_id: int,
        command: str,
        details: Mapping[str, Any] | None = None,
    ) -> HistoryEntry | None:
        """Write the history entry of this transaction's change, once, after the writes.

        Returns None (and writes nothing) when no character's stored value changed. Raises
        ``AlreadyApplied`` when the interaction already has an entry (the transaction then
        rolls back), ``TypeError`` when ``details`` is not JSON-able.
        """
        return await self._record(
            guild_id=guild_id,
            interaction_id=interaction_id,
            actor_id=actor_id,
            command=command,
            details=details,
            undo_of=None,
            force=False,
        )

    async def _record(
        self,
        *,
        guild_id: int,
        interaction_id: int,
        actor_id: int,
        command: str,
        details: Mapping[str, Any] | None,
        undo_of: int | None,
        force: bool,
    ) -> HistoryEntry | None:
        if self._recorded:
            raise TransactionStateError("record() called twice in one transaction")
        if self._guild_id is not None and self._guild_id != guild_id:
            raise TransactionStateError("record() for another guild than the one written")
        details_json = dump_json(dict(details or {}))
        changes = await self._changes()
        if force and not changes:
            changes = [
                CharacterChange.of(character_id, touched.before, touched.before)
                for character_id, touched in sorted(self._touched.items())
            ]
        if not changes:
            return None
        created_at = self.now()
        self._unseen.discard(interaction_id)
        values = (guild_id, interaction_id, actor_id, command, details_json, created_at, undo_of)
        next_id = self._pipe.probed.get(NEXT_HISTORY_ID)
        if next_id is not None:
            # Its id is known (probed with BEGIN): written with the COMMIT, where a repeated
            # interaction fails as AlreadyApplied (``_commit``).
            entry_id = int(next_id)
            self._pipe.probed[NEXT_HISTORY_ID] = entry_id + 1
            self._pipe.queue(
                "INSERT INTO history (id, guild_id, interaction_id, actor_id, command, details,"
                " created_at, undo_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (entry_id, *values),
            )
        else:  # nothing was sent yet in this transaction: sent now, for its id
            try:
                entry_id = await self._insert(
                    "INSERT INTO history (guild_id, interaction_id, actor_id, command, details,"
                    " created_at, undo_of) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    values,
                )
            except sqlite3.IntegrityError as error:
                if is_unique_violation(error, "history.interaction_id"):
                    raise AlreadyApplied(interaction_id) from error
                raise
        rows = []
        characters = []
        for change in changes:
            before, after = change.before, change.after
            shown = after if after is not None else before
            name = "" if shown is None else str(shown["name"])
            stored_after = dump_after(before, after)
            rows.append((entry_id, change.id, name, change.before_json, stored_after))
            characters.append(
                HistoryCharacter(
                    character_id=change.id,
                    name=name,
                    before=None if before is None else character_from_snapshot(before),
                    after=None if after is None else character_from_snapshot(after),
                )
            )
        self._pipe.queue_many(
            "INSERT INTO history_characters (history_id, character_id, name, before, after)"
            " VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        self.recorded_interaction = interaction_id
        return HistoryEntry(
            id=entry_id,
            guild_id=guild_id,
            interaction_id=interaction_id,
            created_at=datetime.fromisoformat(created_at),
            actor_id=actor_id,
            command=command,
            details=json.loads(details_json),
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
        if self._touched or self._recorded:
            raise TransactionStateError("undo_latest() must be the only change of a transaction")
        befores: dict[int, Snapshot | None] = {}
        target = await self._latest_undoable(guild_id, befores)
        if target is None:
            return None
        if await self.interaction_seen(interaction_id):
            raise AlreadyApplied(interaction_id)
        ordered = sorted(befores.items())
        await self._load(guild_id, befores)
        removed: list[int] = []
        for character_id, before in ordered:  # removals first: they may free a name
            if before is None:
                await self.delete_character(guild_id, character_id)
                removed.append(character_id)
        for _character_id, before in ordered:
            if before is not None:
                await self._restore(guild_id, before)
        undo_entry = await self._record(
            guild_id=guild_id,
            interaction_id=interaction_id,
            actor_id=actor_id,
            command="undo",
            details={"undo_of": target.id, "command": target.command},
            undo_of=target.id,
            force=True,
        )
        if undo_entry is None:  # pragma: no cover - force=True always records
            raise StorageError("undo entry not recorded")
        self._pipe.queue(
            "UPDATE history SET undone_by = ? WHERE id = ? AND guild_id = ?",
            (undo_entry.id, target.id, guild_id),
        )
        restored = []
        for character_id, before in ordered:
            if before is not None:
                current = await self._current(guild_id, character_id)
                if current is None:  # pragma: no cover - written in this very transaction
                    raise CharacterNotFound(guild_id, character_id)
                restored.append(current.character())
        return UndoResult(
            reverted=replace(target, undone_by=undo_entry.id),
            undo_entry=undo_entry,
            restored=tuple(restored),
            removed=tuple(removed),
        )
