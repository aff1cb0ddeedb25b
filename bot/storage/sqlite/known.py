"""The characters a transaction knows: each as it is stored now, and the first state of each
one it wrote (``KnownCharacters``, a part of ``Transaction``).

While a transaction holds the storage's lock and SQLite's write lock nothing else can change
a character, so a character read or written in it is known as stored without reading it
again: the values the writes return, the ``after`` of the history entry and the reads that
follow need no query. The first write to a character keeps its state from before (None when
the transaction creates it), so that ``record`` can store whole before/after snapshots (what
``/history`` shows and ``/undo`` restores) without the cogs collecting them.

A trip that fails forgets what is known (a queued write may have failed with it): those
characters are read again when needed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.storage.errors import TransactionStateError
from bot.storage.models import TURN_EVERY
from bot.storage.snapshot import Snapshot, dump_json
from bot.storage.sqlite.rows import StoredRow

__all__ = ["CharacterChange", "FirstState", "KnownCharacters"]

#: Reads a character's stored snapshot: ``read(guild_id, character_id)`` (None: not there).
SnapshotReader = Callable[[int, int], Awaitable[Snapshot | None]]


@dataclass(frozen=True)
class FirstState:
    """A written character's guild and its state before the transaction's first write."""

    guild_id: int
    before: Snapshot | None


@dataclass(frozen=True)
class CharacterChange:
    """One character's change, with its snapshots as history stores them (None: absent)."""

    id: int
    before: Snapshot | None
    after: Snapshot | None
    before_json: str | None
    after_json: str | None

    @classmethod
    def of(
        cls, character_id: int, before: Snapshot | None, after: Snapshot | None
    ) -> CharacterChange:
        return cls(
            character_id,
            before,
            after,
            None if before is None else dump_json(before),
            None if after is None else dump_json(after),
        )


class KnownCharacters:
    """The characters known as stored now (None: deleted here), and the first state of each
    written one; the one guild whose characters the transaction writes."""

    def __init__(self) -> None:
        self._now: dict[int, StoredRow | None] = {}
        self._first: dict[int, FirstState] = {}
        self._guild_id: int | None = None

    # --- as stored now -------------------------------------------------------------------

    def keep(self, stored: StoredRow) -> None:
        """``stored`` is the character as stored now (read, or just written)."""
        self._now[stored.id] = stored

    def deleted(self, character_id: int) -> None:
        self._now[character_id] = None

    def knows(self, character_id: int) -> bool:
        return character_id in self._now

    def state(self, guild_id: int, character_id: int) -> StoredRow | None:
        """A known character as stored now; None when deleted here or of another guild."""
        stored = self._now[character_id]
        return stored if stored is not None and stored.guild_id == guild_id else None

    def unknown(self, character_ids: Iterable[int]) -> list[int]:
        """Those of ``character_ids`` not known yet, sorted, each once."""
        return sorted({i for i in character_ids if i not in self._now})

    def forget(self) -> None:
        """A trip failed: what is stored is no longer known."""
        self._now.clear()

    # --- what the transaction wrote ------------------------------------------------------

    @property
    def guild_id(self) -> int | None:
        """The guild whose characters the transaction wrote (None: none written)."""
        return self._guild_id

    @property
    def written_ids(self) -> tuple[int, ...]:
        """The ids of the characters written (created and deleted included), sorted."""
        return tuple(sorted(self._first))

    def claim_guild(self, guild_id: int) -> None:
        """One transaction writes the characters of one guild."""
        if self._guild_id is None:
            self._guild_id = guild_id
        elif self._guild_id != guild_id:
            raise TransactionStateError("one transaction wrote characters of two guilds")

    def first_write(self, guild_id: int, character_id: int, current: StoredRow | None) -> None:
        """Before a write: keep the character's state (``current``; None when the write
        creates it) unless an earlier write of this transaction kept one."""
        if character_id not in self._first:
            self.claim_guild(guild_id)
            before = None if current is None else current.snapshot
            self._first[character_id] = FirstState(guild_id, before)

    def unchanged(self) -> list[CharacterChange]:
        """Every written character, before and after alike (an undo that restored them as
        they were still records them)."""
        return [
            CharacterChange.of(character_id, first.before, first.before)
            for character_id, first in sorted(self._first.items())
        ]

    async def changes(self, read: SnapshotReader) -> list[CharacterChange]:
        """Every written character whose state really changed, by id (one that is no longer
        known after a failed trip is read with ``read``)."""
        changes = []
        for count, (character_id, first) in enumerate(sorted(self._first.items()), start=1):
            if count % TURN_EVERY == 0:
                # A whole server's change (issue 24): the loop turns between batches.
                await asyncio.sleep(0)
            if character_id in self._now:
                stored = self._now[character_id]
                after = None if stored is None else stored.snapshot
            else:  # a write failed midway and the caller went on: read what is stored
                after = await read(first.guild_id, character_id)
            change = CharacterChange.of(character_id, first.before, after)
            if change.before_json != change.after_json:
                changes.append(change)
        return changes
