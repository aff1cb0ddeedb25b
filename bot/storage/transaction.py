"""The frame of ``storage.transaction()``: statements queued and sent in as few trips as
possible, the characters it keeps as they are stored now, the first state of every character
it writes, and ``finish`` / ``abort`` for ``Storage``.

A transaction remembers the first state of every character it writes, so that ``record``
(``bot.storage.history_writes``) can store whole before/after snapshots (what ``/history``
shows and ``/undo`` restores) without the cogs collecting them. It keeps every character it
reads or writes as it is stored now (nothing else can write while it holds the lock and
SQLite's write lock) and works out the result of its own writes in memory instead of reading
them back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.storage.errors import (
    AlreadyApplied,
    CharacterNotFound,
    StorageError,
    TransactionStateError,
)
from bot.storage.memory import SettingsCache
from bot.storage.models import (
    CharacterRef,
    StoredCharacter,
)
from bot.storage.pipeline import Pipeline
from bot.storage.reader import Reader
from bot.storage.rows import (
    IDS_PER_QUERY,
    NEXT_HISTORY_ID,
    SELECT_NEXT_HISTORY_ID,
    Clock,
    StoredRow,
    is_unique_violation,
)
from bot.storage.snapshot import (
    Snapshot,
    dump_json,
)

__all__ = ["CharacterChange", "FirstState", "TransactionCore"]


@dataclass
class FirstState:
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


class TransactionCore(Reader):
    """Reads and writes inside ``BEGIN IMMEDIATE`` … ``COMMIT``.

    Character writes are tracked: the first write to a character keeps its state as stored
    then (None if created here); ``record`` compares it with the state at that moment.

    Every character read or written here is kept as it is stored now (``_known``): while the
    transaction holds the lock and SQLite's write lock nothing else can change it, so its
    before and after states and the values the writes return need no query. A trip that
    fails forgets them all (a queued write may have failed with it); they are then read
    again when needed.

    Statements nobody waits for are queued and sent with the next one that is waited for, or
    with the ``COMMIT`` (``Pipeline``), ``BEGIN IMMEDIATE`` included. With ``BEGIN`` goes a
    probe of the next history id (SQLite's write lock is held from then on, so no other
    connection can take it): the history entry and its characters' rows are then written
    with the ``COMMIT`` instead of in a trip of their own. A /hurt is two trips: ``BEGIN``
    with the read of the character, the writes with ``COMMIT``.
    """

    def __init__(self, conn: aiosqlite.Connection, clock: Clock, settings: SettingsCache) -> None:
        super().__init__(conn, clock, settings)
        self._pipe = Pipeline(conn)
        self._pipe.queue("BEGIN IMMEDIATE")  # sent with the first statement that is
        self._pipe.probe(NEXT_HISTORY_ID, SELECT_NEXT_HISTORY_ID)
        self.settings_written: set[int] = set()  # guilds whose cached settings end with this
        self.names_written: set[int] = set()  # guilds whose name index ends with this
        self.recorded_interaction: int | None = None  # the interaction of the history entry
        self._touched: dict[int, FirstState] = {}
        self._known: dict[int, StoredRow | None] = {}  # None: deleted here
        self._unseen: set[int] = set()  # interaction ids checked here and not yet recorded
        self._guild_id: int | None = None  # the one guild whose characters this tx writes
        self._commit_guards: list[Callable[[], Awaitable[None]]] = []

    def guard_commit(self, guard: Callable[[], Awaitable[None]]) -> None:
        """Run ``guard`` just before committing a recorded change; if it raises, the change
        is rolled back. (The bot makes sure it can still answer the interaction: a change
        must not be stored when its reply can no longer reach the player.)"""
        self._commit_guards.append(guard)

    @property
    def _recorded(self) -> bool:
        return self.recorded_interaction is not None

    @property
    def changed_guild(self) -> int | None:
        """The guild whose characters this transaction wrote (None: none written)."""
        return self._guild_id

    @property
    def touched_ids(self) -> tuple[int, ...]:
        """The ids of the characters this transaction wrote (created and deleted included)."""
        return tuple(sorted(self._touched))

    # --- statements: queued when nothing waits for their result (``Pipeline``) --------------

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._sending():
            return await self._pipe.fetchall(sql, params)

    async def _insert(self, sql: str, params: Sequence[Any]) -> int:
        """An INSERT sent now (its errors are the caller's); its row id."""
        with self._sending():
            inserted = await self._pipe.insert(sql, params)
        if inserted is None:  # pragma: no cover - sqlite always gives one for a rowid table
            raise StorageError("INSERT gave no row id")
        return inserted

    async def _execute(self, sql: str, params: Sequence[Any]) -> None:
        """A statement sent now (its errors are the caller's)."""
        with self._sending():
            await self._pipe.execute(sql, params)

    @contextmanager
    def _sending(self) -> Iterator[None]:
        """Around a trip (only while the block runs): if it fails, a queued write may have
        failed with it, so what is stored is no longer known (characters are read again when
        needed)."""
        self.check_open()
        try:
            yield
        except BaseException:
            self._known.clear()
            raise

    async def _commit(self) -> None:
        """The queued statements and ``COMMIT``: one trip. The history entry may be among
        them: a repeated interaction fails here (the unique index), as ``AlreadyApplied``."""
        try:
            await self._execute("COMMIT", ())
        except sqlite3.IntegrityError as error:
            recorded = self.recorded_interaction
            if recorded is not None and is_unique_violation(error, "history.interaction_id"):
                raise AlreadyApplied(recorded) from error
            raise

    async def finish(self, *, require_record: bool = True) -> None:
        """Commit, when the block ended without an error (``Storage.transaction``): refuse a
        change that was not recorded, run the commit guards, then send what is queued with
        ``COMMIT`` (one trip)."""
        await self._before_commit(require_record)
        await self._commit()

    def abort(self) -> None:
        """Before a rollback: what was not sent is forgotten."""
        self._pipe.discard()

    def queue(self, sql: str, params: Sequence[Any] = (), *, after_record: bool = False) -> None:
        """A write nobody waits for, sent with the next trip (or with ``COMMIT``). Refused
        after ``record`` unless ``after_record``: only what the history does not hold (roll
        numbers) may be written then."""
        if after_record:
            self.check_open()
        else:
            self._check_writable()
        self._pipe.queue(sql, params)

    def queue_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """``queue`` for many rows of one statement."""
        self._check_writable()
        self._pipe.queue_many(sql, rows)

    # --- what is stored now ------------------------------------------------------------------

    def _loaded(self, row: sqlite3.Row) -> StoredCharacter:
        stored, character = StoredRow.read(row)
        self._known[character.id] = stored
        return character

    def _known_in(self, guild_id: int, character_id: int) -> StoredRow | None:
        """The kept state of a character in ``_known``; None if deleted here or of another
        guild."""
        stored = self._known[character_id]
        return stored if stored is not None and stored.guild_id == guild_id else None

    async def _current(self, guild_id: int, character_id: int) -> StoredRow | None:
        """The character as stored now, or None when it is not in this guild."""
        if character_id not in self._known:
            await super().get_character(guild_id, character_id)  # keeps it when found
            if character_id not in self._known:
                return None
        return self._known_in(guild_id, character_id)

    async def _load(self, guild_id: int, character_ids: Iterable[int]) -> None:
        """Read the characters not known yet, many per query (found ones are kept)."""
        wanted = sorted({i for i in character_ids if i not in self._known})
        for start in range(0, len(wanted), IDS_PER_QUERY):
            chunk = wanted[start : start + IDS_PER_QUERY]
            marks = ", ".join("?" * len(chunk))
            await self._characters(f"c.guild_id = ? AND c.id IN ({marks})", (guild_id, *chunk))

    async def get_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        self.check_open()
        if character_id in self._known:
            stored = self._known_in(guild_id, character_id)
            return None if stored is None else stored.character()
        return await super().get_character(guild_id, character_id)

    async def get_characters(
        self, guild_id: int, character_ids: Iterable[int]
    ) -> dict[int, StoredCharacter]:
        """The characters of this guild among ``character_ids``, by id, read in one query
        (those already known here: none); a missing one is simply absent."""
        self.check_open()
        wanted = list(character_ids)
        await self._load(guild_id, wanted)
        found: dict[int, StoredCharacter] = {}
        for character_id in wanted:
            stored = self._known_in(guild_id, character_id) if character_id in self._known else None
            if stored is not None:
                found[character_id] = stored.character()
        return found

    async def characters(self, *refs: CharacterRef) -> tuple[StoredCharacter, ...]:
        """``character`` for several of one guild, read together (one query)."""
        guild_id = refs[0].guild_id
        found = await self.get_characters(guild_id, [ref.id for ref in refs])
        missing = next((ref for ref in refs if ref.id not in found), None)
        if missing is not None:
            raise CharacterNotFound(guild_id, missing.id)
        return tuple(found[ref.id] for ref in refs)

    async def interaction_seen(self, interaction_id: int) -> bool:
        self.check_open()
        if interaction_id in self._unseen:  # asked again (``/undo``): nothing recorded since
            return False
        seen = await super().interaction_seen(interaction_id)
        if not seen:
            self._unseen.add(interaction_id)
        return seen

    # --- tracking ----------------------------------------------------------------------------

    def _check_writable(self) -> None:
        self.check_open()
        if self._recorded:
            raise TransactionStateError("character written after record() in one transaction")

    def _claim_guild(self, guild_id: int) -> None:
        if self._guild_id is None:
            self._guild_id = guild_id
        elif self._guild_id != guild_id:
            raise TransactionStateError("one transaction wrote characters of two guilds")

    async def _touch(
        self, guild_id: int, character_id: int, *, will_create: bool = False
    ) -> StoredRow | None:
        """Keep the character's state before its first write here; return its current state.

        A character missing from this guild is only remembered (as "did not exist") when the
        caller is about to create it.
        """
        self._check_writable()
        current = await self._current(guild_id, character_id)
        if character_id not in self._touched and (current is not None or will_create):
            self._claim_guild(guild_id)
            before = None if current is None else current.snapshot
            self._touched[character_id] = FirstState(guild_id, before)
        return current

    async def _require(self, guild_id: int, character_id: int) -> StoredRow:
        current = await self._touch(guild_id, character_id)
        if current is None:
            raise CharacterNotFound(guild_id, character_id)
        return current

    async def _changes(self) -> list[CharacterChange]:
        """Every touched character whose state really changed, by id."""
        changes = []
        for character_id, touched in sorted(self._touched.items()):
            if character_id in self._known:
                stored = self._known[character_id]
                after = None if stored is None else stored.snapshot
            else:  # a write failed midway and the caller went on: read what is stored
                after = await self._snapshot(touched.guild_id, character_id)
            change = CharacterChange.of(character_id, touched.before, after)
            if change.before_json != change.after_json:
                changes.append(change)
        return changes

    async def _before_commit(self, require_record: bool) -> None:
        if require_record and not self._recorded and await self._changes():
            raise TransactionStateError(
                "a transaction changed characters without record(); rolled back"
            )
        if self._recorded:
            for guard in self._commit_guards:
                await guard()

    # --- settings and meta (never history) ---------------------------------------------------
