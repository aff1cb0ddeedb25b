"""What a cog does inside ``storage.read()`` (a ``Reader``) or ``storage.transaction()``.

Every method takes the guild id and filters on it: no call can see or change another guild's
rows. A ``Transaction`` remembers the first state of every character it writes, so that
``record`` can store whole before/after snapshots (what ``/history`` shows and ``/undo``
restores) without the cogs collecting them.

Each statement is a round trip to aiosqlite's thread (a queue put, a thread switch and a
wake-up of the loop), which the benchmark measured as the main cost of a command (issue 6).
So a ``Transaction`` keeps every character it reads or writes as it is stored now (nothing
else can write while it holds the lock and SQLite's write lock) and works out the result of
its own writes in memory instead of reading them back; ``tests/storage/test_round_trips.py``
pins the number of trips of the usual commands.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import Enum
from typing import Any, Final

import aiosqlite

from bot.names import NameEntry, look_key
from bot.storage.errors import (
    AlreadyApplied,
    CharacterNotFound,
    DuplicateName,
    StorageError,
    TransactionStateError,
)
from bot.storage.memory import SettingsCache
from bot.storage.models import (
    CharacterSuggestion,
    Gender,
    GuildSettings,
    HistoryCharacter,
    HistoryEntry,
    StoredCharacter,
    UndoResult,
    name_key,
)
from bot.storage.pipeline import Pipeline
from bot.storage.snapshot import (
    HEALTH_COLUMNS,
    RowLike,
    Snapshot,
    ability_from_row,
    ability_to_row,
    character_from_snapshot,
    dump_after,
    dump_json,
    gender_from_value,
    health_from_row,
    health_to_row,
    load_after,
    load_snapshot,
    make_snapshot,
)
from rules.abilities import Ability
from rules.character import CharacterHealth
from rules.state import DEATH_THRESHOLD

__all__ = ["UNSET", "Clock", "Reader", "Transaction", "Unset", "utc_now"]

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class Unset(Enum):
    """Marks a keyword argument that was not given (``None`` means "clear it")."""

    UNSET = "unset"


UNSET: Final = Unset.UNSET

_CHARACTER_COLUMNS = (
    "id",
    "guild_id",
    "name",
    "owner_id",
    "created_at",
    "gender",
    *HEALTH_COLUMNS,
)
_SELECT_CHARACTER = "SELECT " + ", ".join(f"c.{column}" for column in _CHARACTER_COLUMNS)
_SELECT_HISTORY = (
    "SELECT h.id, h.guild_id, h.interaction_id, h.actor_id, h.command, h.details,"
    " h.created_at, h.undo_of, h.undone_by FROM history AS h"
)
_UPDATE_HEALTH = (
    f"UPDATE characters SET {', '.join(f'{column} = ?' for column in HEALTH_COLUMNS)}"
    " WHERE id = ? AND guild_id = ?"
)
_UPSERT_ABILITY = (
    "INSERT INTO abilities (character_id, name, name_key, kind, rating, pool)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (character_id, name_key) DO UPDATE SET"
    " name = excluded.name, kind = excluded.kind, rating = excluded.rating,"
    " pool = excluded.pool"
)
_DELETE_ABILITY = "DELETE FROM abilities WHERE character_id = ? AND name_key = ?"
#: Ids per ``IN (…)`` list: under SQLite's oldest limit of 999 parameters.
_IDS_PER_QUERY = 900
#: The id the next history entry gets (AUTOINCREMENT: above every id ever given), asked
#: with ``BEGIN IMMEDIATE``, after which no other connection can write until the COMMIT.
_NEXT_HISTORY_ID = "next_history_id"
_SELECT_NEXT_HISTORY_ID = (
    "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'history'), 0),"
    " coalesce((SELECT max(id) FROM history), 0)) + 1"
)


#: A character's abilities as one JSON column of its row, so that a character is read in one
#: query (each query is a round trip to aiosqlite's thread; issue 6 measured them as the main
#: cost of a command). Sorted by name_key in Python (``_abilities_of``): json_group_array
#: promises no order.
_ABILITIES_JSON = (
    "(SELECT json_group_array(json_object('key', a.name_key, 'name', a.name, 'kind', a.kind,"
    " 'rating', a.rating, 'pool', a.pool)) FROM abilities AS a WHERE a.character_id = c.id)"
    " AS abilities_json"
)


def _abilities_of(row: sqlite3.Row) -> list[dict[str, Any]]:
    """The abilities of a row read with ``_ABILITIES_JSON``, in name_key order."""
    items: list[dict[str, Any]] = json.loads(row["abilities_json"])
    items.sort(key=lambda item: str(item["key"]))
    return items


def _is_unique_violation(error: sqlite3.IntegrityError, column: str) -> bool:
    message = str(error)
    return "UNIQUE constraint failed" in message and column in message


def _character(row: sqlite3.Row, abilities: tuple[Ability, ...]) -> StoredCharacter:
    return StoredCharacter(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        owner_id=int(row["owner_id"]),
        health=health_from_row(row),
        abilities=abilities,
        gender=gender_from_value(row["gender"]),
    )


def _settings(guild_id: int, row: RowLike | None) -> GuildSettings:
    if row is None:
        return GuildSettings(guild_id=guild_id)
    return GuildSettings(
        guild_id=guild_id,
        gm_role_id=row["gm_role_id"],
        channel_id=row["channel_id"],
        language=row["language"],
    )


class Reader:
    """Read-only queries; valid only inside the ``async with`` that produced it."""

    def __init__(self, conn: aiosqlite.Connection, clock: Clock, settings: SettingsCache) -> None:
        self._connection: aiosqlite.Connection | None = conn
        self._clock = clock
        self._settings_cache = settings

    # --- plumbing ----------------------------------------------------------------------------

    @property
    def _conn(self) -> aiosqlite.Connection:
        if self._connection is None:
            raise TransactionStateError("used after its 'async with' block ended")
        return self._connection

    def _check_open(self) -> None:
        """For answers given without a query: the block must still be running."""
        _ = self._conn

    def _close(self) -> None:
        self._connection = None

    def _now(self) -> str:
        moment = self._clock()
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC).isoformat(timespec="microseconds")

    # Each aiosqlite call is a round trip to its thread (a queue put, a thread switch and a
    # wake-up of the loop): execute_fetchall/execute_insert do in one trip what a cursor does
    # in three (execute, fetch, close). The benchmark measured the trips as the main cost of
    # a command (issue 6).

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """The first row (every caller selects at most one)."""
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def _characters(
        self, where: str, params: Sequence[Any], tail: str = ""
    ) -> list[StoredCharacter]:
        """Characters matching ``where`` (which must filter on c.guild_id), with abilities
        (read with their character: one query, see ``_ABILITIES_JSON``)."""
        rows = await self._fetchall(
            f"{_SELECT_CHARACTER}, {_ABILITIES_JSON} FROM characters AS c WHERE {where} {tail}",
            params,
        )
        return [self._loaded(row) for row in rows]

    def _loaded(self, row: sqlite3.Row) -> StoredCharacter:
        """A character row read with ``_ABILITIES_JSON`` (a transaction also keeps it)."""
        return _character(row, tuple(ability_from_row(item) for item in _abilities_of(row)))

    async def _snapshot(self, guild_id: int, character_id: int) -> Snapshot | None:
        """The whole stored character as a snapshot, or None when it is not in this guild."""
        row = await self._fetchone(
            f"{_SELECT_CHARACTER}, {_ABILITIES_JSON} FROM characters AS c"
            " WHERE c.guild_id = ? AND c.id = ?",
            (guild_id, character_id),
        )
        return None if row is None else _Stored.from_row(row).snapshot

    # --- settings and meta -------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's ``/config`` (all None when never set), from the cache when there."""
        cached = self._settings_cache.get(guild_id)
        if cached is not None:
            self._check_open()
            return cached
        found = await self._read_settings(guild_id)
        self._settings_cache.put(guild_id, found)
        return found

    async def _read_settings(self, guild_id: int) -> GuildSettings:
        row = await self._fetchone(
            "SELECT gm_role_id, channel_id, language FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return _settings(guild_id, row)

    async def get_meta(self, key: str) -> str | None:
        """A bot-wide value (not per guild), e.g. the hash of the last command sync."""
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    # --- characters --------------------------------------------------------------------------

    async def get_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        found = await self._characters("c.guild_id = ? AND c.id = ?", (guild_id, character_id))
        return found[0] if found else None

    async def find_character(self, guild_id: int, name: str) -> StoredCharacter | None:
        """By name, compared as ``name.strip().casefold()``."""
        found = await self._characters(
            "c.guild_id = ? AND c.name_key = ?", (guild_id, name_key(name))
        )
        return found[0] if found else None

    async def name_entries(self, guild_id: int) -> list[NameEntry]:
        """Every character of the guild as name matching needs it (id, name, owner): read
        only when a typed name is not a stored one (``bot.names.resolve_name``)."""
        rows = await self._fetchall(
            "SELECT id, name, owner_id FROM characters WHERE guild_id = ? ORDER BY name_key, id",
            (guild_id,),
        )
        return [
            NameEntry(id=int(row["id"]), name=str(row["name"]), owner_id=int(row["owner_id"]))
            for row in rows
        ]

    async def find_lookalike(
        self, guild_id: int, name: str, *, other_than: int | None = None
    ) -> StoredCharacter | None:
        """A character of the guild (other than ``other_than``) whose name is the same as, or
        looks like, ``name`` (``bot.names.look_key``): create and rename refuse it."""
        found = await self._characters(
            "c.guild_id = ? AND c.look_key = ? AND c.id != ?",
            (guild_id, look_key(name), -1 if other_than is None else other_than),
            "ORDER BY c.id LIMIT 1",
        )
        return found[0] if found else None

    async def characters_of_owner(self, guild_id: int, owner_id: int) -> list[StoredCharacter]:
        """The owner's characters in this guild, by name."""
        return await self._characters(
            "c.guild_id = ? AND c.owner_id = ?", (guild_id, owner_id), "ORDER BY c.name_key, c.id"
        )

    async def list_characters(
        self,
        guild_id: int,
        *,
        living_only: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[StoredCharacter]:
        """The guild's characters by name (living: Health above the death threshold)."""
        where = "c.guild_id = ?"
        params: list[Any] = [guild_id]
        if living_only:
            where += " AND c.health > ?"
            params.append(DEATH_THRESHOLD)
        tail = "ORDER BY c.name_key, c.id LIMIT ? OFFSET ?"
        params += [-1 if limit is None else limit, offset]
        return await self._characters(where, params, tail)

    async def lookalike_ids(self, guild_id: int) -> set[int]:
        """The characters whose name is the same as, or looks like, another's of the server
        (by ``look_key``; possible only in databases older than that rule): one query on the
        ``(guild_id, look_key)`` index, whatever page of ``/character list`` is shown."""
        rows = await self._fetchall(
            "SELECT id FROM characters WHERE guild_id = ? AND look_key IN"
            " (SELECT look_key FROM characters WHERE guild_id = ?"
            " GROUP BY look_key HAVING count(*) > 1)",
            (guild_id, guild_id),
        )
        return {int(row["id"]) for row in rows}

    async def count_characters(self, guild_id: int, *, living_only: bool = False) -> int:
        sql = "SELECT count(*) FROM characters WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if living_only:
            sql += " AND health > ?"
            params.append(DEATH_THRESHOLD)
        row = await self._fetchone(sql, params)
        return 0 if row is None else int(row[0])

    async def suggest_characters(
        self, guild_id: int, text: str, user_id: int, limit: int = 25
    ) -> list[CharacterSuggestion]:
        """Autocomplete: names containing ``text`` (ignoring case); the user's own first,
        then names starting with ``text``, then by name."""
        key = name_key(text)
        rows = await self._fetchall(
            "SELECT id, name, owner_id FROM characters"
            " WHERE guild_id = ? AND instr(name_key, ?) > 0"
            " ORDER BY owner_id != ?, instr(name_key, ?) != 1, name_key, id LIMIT ?",
            (guild_id, key, user_id, key, limit),
        )
        return [
            CharacterSuggestion(id=int(row["id"]), name=str(row["name"]), owner_id=row["owner_id"])
            for row in rows
        ]

    # --- history -----------------------------------------------------------------------------

    async def interaction_seen(self, interaction_id: int) -> bool:
        """Whether this interaction already produced a history entry (applied once)."""
        row = await self._fetchone(
            "SELECT 1 FROM history WHERE interaction_id = ?", (interaction_id,)
        )
        return row is not None

    async def _entries(
        self, rows: list[sqlite3.Row], befores: dict[int, Snapshot | None] | None = None
    ) -> list[HistoryEntry]:
        """The entries of ``rows`` with their characters; ``befores`` (for one entry) also
        gets each character's ``before`` snapshot, as stored (``/undo`` writes it back)."""
        if not rows:
            return []
        ids = [int(row["id"]) for row in rows]
        marks = ", ".join("?" * len(ids))
        touched: dict[int, list[HistoryCharacter]] = {entry_id: [] for entry_id in ids}
        for item in await self._fetchall(
            "SELECT history_id, character_id, name, before, after FROM history_characters"
            f" WHERE history_id IN ({marks}) ORDER BY history_id, character_id",
            ids,
        ):
            before = load_snapshot(item["before"])
            after = load_after(before, item["after"])
            if befores is not None:
                befores[int(item["character_id"])] = before
            touched[int(item["history_id"])].append(
                HistoryCharacter(
                    character_id=int(item["character_id"]),
                    name=str(item["name"]),
                    before=None if before is None else character_from_snapshot(before),
                    after=None if after is None else character_from_snapshot(after),
                )
            )
        return [
            HistoryEntry(
                id=int(row["id"]),
                guild_id=int(row["guild_id"]),
                interaction_id=int(row["interaction_id"]),
                created_at=datetime.fromisoformat(row["created_at"]),
                actor_id=int(row["actor_id"]),
                command=str(row["command"]),
                details=json.loads(row["details"]),
                undo_of=row["undo_of"],
                undone_by=row["undone_by"],
                characters=tuple(touched[int(row["id"])]),
            )
            for row in rows
        ]

    async def history(
        self,
        guild_id: int,
        character_id: int | None = None,
        limit: int = 15,
        *,
        before_id: int | None = None,
        offset: int = 0,
    ) -> list[HistoryEntry]:
        """The guild's entries (or those touching one character), newest first.

        ``before_id`` pages further back: only entries with a smaller id; ``offset`` skips
        that many of the newest (a page of ``/history``).
        """
        page = "" if before_id is None else " AND h.id < ?"
        paging: tuple[int, ...] = () if before_id is None else (before_id,)
        if character_id is None:
            rows = await self._fetchall(
                f"{_SELECT_HISTORY} WHERE h.guild_id = ?{page} ORDER BY h.id DESC LIMIT ? OFFSET ?",
                (guild_id, *paging, limit, max(0, offset)),
            )
        else:
            rows = await self._fetchall(
                f"{_SELECT_HISTORY} JOIN history_characters AS hc ON hc.history_id = h.id"
                f" WHERE hc.character_id = ? AND h.guild_id = ?{page}"
                " ORDER BY hc.history_id DESC LIMIT ? OFFSET ?",
                (character_id, guild_id, *paging, limit, max(0, offset)),
            )
        return await self._entries(rows)

    async def get_history_entry(self, guild_id: int, entry_id: int) -> HistoryEntry | None:
        rows = await self._fetchall(
            f"{_SELECT_HISTORY} WHERE h.guild_id = ? AND h.id = ?", (guild_id, entry_id)
        )
        found = await self._entries(rows)
        return found[0] if found else None

    async def latest_undoable(self, guild_id: int) -> HistoryEntry | None:
        """The entry ``undo_latest`` would revert now (neither an undo nor undone), if any."""
        return await self._latest_undoable(guild_id)

    async def _latest_undoable(
        self, guild_id: int, befores: dict[int, Snapshot | None] | None = None
    ) -> HistoryEntry | None:
        rows = await self._fetchall(
            f"{_SELECT_HISTORY} WHERE h.guild_id = ? AND h.undo_of IS NULL"
            " AND h.undone_by IS NULL ORDER BY h.id DESC LIMIT 1",
            (guild_id,),
        )
        found = await self._entries(rows, befores)
        return found[0] if found else None


@dataclass(frozen=True)
class _Stored:
    """A character exactly as stored: its snapshot, and the stored ``name_key`` of each of
    its abilities (in the order of ``snapshot["abilities"]``, which is sorted by it).

    Never changed in place: a write makes a new one (a ``before`` may share its parts).
    """

    snapshot: Snapshot
    keys: tuple[str, ...]

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> _Stored:
        """From a row read with ``_ABILITIES_JSON``."""
        return cls.read(row)[0]

    @classmethod
    def read(cls, row: sqlite3.Row) -> tuple[_Stored, StoredCharacter]:
        """From a row read with ``_ABILITIES_JSON``, with the character it holds."""
        items = _abilities_of(row)
        abilities = tuple(ability_from_row(item) for item in items)
        snapshot = make_snapshot(row, [ability_to_row(ability) for ability in abilities])
        stored = cls(snapshot, tuple(str(item["key"]) for item in items))
        return stored, _character(row, abilities)

    @classmethod
    def new(cls, fields: Mapping[str, Any]) -> _Stored:
        """A row without abilities from its column values (``_CHARACTER_COLUMNS``)."""
        return cls(make_snapshot(fields, []), ())

    @property
    def id(self) -> int:
        return int(self.snapshot["id"])

    @property
    def guild_id(self) -> int:
        return int(self.snapshot["guild_id"])

    def character(self) -> StoredCharacter:
        return character_from_snapshot(self.snapshot)

    def abilities(self) -> dict[str, dict[str, Any]]:
        """The ability rows by stored name_key."""
        return dict(zip(self.keys, self.snapshot["abilities"], strict=True))

    def with_health(self, health: dict[str, Any]) -> _Stored:
        return _Stored({**self.snapshot, "health": health}, self.keys)

    def with_abilities(self, abilities: Mapping[str, dict[str, Any]]) -> _Stored:
        """With these ability rows (by name_key), in name_key order as a read gives them."""
        keys = sorted(abilities)
        return _Stored({**self.snapshot, "abilities": [abilities[k] for k in keys]}, tuple(keys))


def _abilities_by_key(abilities: Iterable[Ability]) -> dict[str, dict[str, Any]]:
    """Ability rows by name_key; two names equal ignoring case are a ``ValueError``."""
    rows: dict[str, dict[str, Any]] = {}
    for ability in abilities:
        key = name_key(ability.name)
        if key in rows:
            raise ValueError("two abilities with the same name (ignoring case)")
        rows[key] = ability_to_row(ability)
    return rows


@dataclass
class _Touched:
    guild_id: int
    before: Snapshot | None


@dataclass(frozen=True)
class _Change:
    """One character's change, with its snapshots as history stores them (None: absent)."""

    id: int
    before: Snapshot | None
    after: Snapshot | None
    before_json: str | None
    after_json: str | None

    @classmethod
    def of(cls, character_id: int, before: Snapshot | None, after: Snapshot | None) -> _Change:
        return cls(
            character_id,
            before,
            after,
            None if before is None else dump_json(before),
            None if after is None else dump_json(after),
        )


class Transaction(Reader):
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
        self._pipe.probe(_NEXT_HISTORY_ID, _SELECT_NEXT_HISTORY_ID)
        self.settings_written: set[int] = set()  # guilds whose cached settings end with this
        self.recorded_interaction: int | None = None  # the interaction of the history entry
        self._touched: dict[int, _Touched] = {}
        self._known: dict[int, _Stored | None] = {}  # None: deleted here
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

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
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
        self._check_open()
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
            if recorded is not None and _is_unique_violation(error, "history.interaction_id"):
                raise AlreadyApplied(recorded) from error
            raise

    def _discard(self) -> None:
        """Before a rollback: what was not sent is forgotten."""
        self._pipe.discard()

    # --- what is stored now ------------------------------------------------------------------

    def _loaded(self, row: sqlite3.Row) -> StoredCharacter:
        stored, character = _Stored.read(row)
        self._known[character.id] = stored
        return character

    def _known_in(self, guild_id: int, character_id: int) -> _Stored | None:
        """The kept state of a character in ``_known``; None if deleted here or of another
        guild."""
        stored = self._known[character_id]
        return stored if stored is not None and stored.guild_id == guild_id else None

    async def _current(self, guild_id: int, character_id: int) -> _Stored | None:
        """The character as stored now, or None when it is not in this guild."""
        if character_id not in self._known:
            await super().get_character(guild_id, character_id)  # keeps it when found
            if character_id not in self._known:
                return None
        return self._known_in(guild_id, character_id)

    async def _load(self, guild_id: int, character_ids: Iterable[int]) -> None:
        """Read the characters not known yet, many per query (found ones are kept)."""
        wanted = sorted({i for i in character_ids if i not in self._known})
        for start in range(0, len(wanted), _IDS_PER_QUERY):
            chunk = wanted[start : start + _IDS_PER_QUERY]
            marks = ", ".join("?" * len(chunk))
            await self._characters(f"c.guild_id = ? AND c.id IN ({marks})", (guild_id, *chunk))

    async def get_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        self._check_open()
        if character_id in self._known:
            stored = self._known_in(guild_id, character_id)
            return None if stored is None else stored.character()
        return await super().get_character(guild_id, character_id)

    async def get_characters(
        self, guild_id: int, character_ids: Iterable[int]
    ) -> dict[int, StoredCharacter]:
        """The characters of this guild among ``character_ids``, by id, read in one query
        (those already known here: none); a missing one is simply absent."""
        self._check_open()
        wanted = list(character_ids)
        await self._load(guild_id, wanted)
        found: dict[int, StoredCharacter] = {}
        for character_id in wanted:
            stored = self._known_in(guild_id, character_id) if character_id in self._known else None
            if stored is not None:
                found[character_id] = stored.character()
        return found

    async def interaction_seen(self, interaction_id: int) -> bool:
        self._check_open()
        if interaction_id in self._unseen:  # asked again (``/undo``): nothing recorded since
            return False
        seen = await super().interaction_seen(interaction_id)
        if not seen:
            self._unseen.add(interaction_id)
        return seen

    # --- tracking ----------------------------------------------------------------------------

    def _check_writable(self) -> None:
        self._check_open()
        if self._recorded:
            raise TransactionStateError("character written after record() in one transaction")

    def _claim_guild(self, guild_id: int) -> None:
        if self._guild_id is None:
            self._guild_id = guild_id
        elif self._guild_id != guild_id:
            raise TransactionStateError("one transaction wrote characters of two guilds")

    async def _touch(
        self, guild_id: int, character_id: int, *, will_create: bool = False
    ) -> _Stored | None:
        """Keep the character's state before its first write here; return its current state.

        A character missing from this guild is only remembered (as "did not exist") when the
        caller is about to create it.
        """
        self._check_writable()
        current = await self._current(guild_id, character_id)
        if character_id not in self._touched and (current is not None or will_create):
            self._claim_guild(guild_id)
            before = None if current is None else current.snapshot
            self._touched[character_id] = _Touched(guild_id, before)
        return current

    async def _require(self, guild_id: int, character_id: int) -> _Stored:
        current = await self._touch(guild_id, character_id)
        if current is None:
            raise CharacterNotFound(guild_id, character_id)
        return current

    async def _changes(self) -> list[_Change]:
        """Every touched character whose state really changed, by id."""
        changes = []
        for character_id, touched in sorted(self._touched.items()):
            if character_id in self._known:
                stored = self._known[character_id]
                after = None if stored is None else stored.snapshot
            else:  # a write failed midway and the caller went on: read what is stored
                after = await self._snapshot(touched.guild_id, character_id)
            change = _Change.of(character_id, touched.before, after)
            if change.before_json != change.after_json:
                changes.append(change)
        return changes

    async def has_changes(self) -> bool:
        """Whether the characters written so far differ from their state at first touch."""
        self._check_open()
        return bool(await self._changes())

    async def _before_commit(self, require_record: bool) -> None:
        if require_record and not self._recorded and await self._changes():
            raise TransactionStateError(
                "a transaction changed characters without record(); rolled back"
            )
        if self._recorded:
            for guard in self._commit_guards:
                await guard()

    # --- settings and meta (never history) ---------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        if guild_id in self.settings_written:  # not committed yet: never into the cache
            self._check_open()
            return await self._read_settings(guild_id)
        return await super().get_settings(guild_id)

    async def update_settings(
        self,
        guild_id: int,
        *,
        gm_role_id: int | Unset | None = UNSET,
        channel_id: int | Unset | None = UNSET,
        language: str | Unset | None = UNSET,
    ) -> GuildSettings:
        """Set the given fields (``None`` clears one); others keep their value."""
        given: dict[str, Any] = {
            key: value
            for key, value in (
                ("gm_role_id", gm_role_id),
                ("channel_id", channel_id),
                ("language", language),
            )
            if value is not UNSET
        }
        self._check_open()
        self.settings_written.add(guild_id)
        now = self._now()
        if not given:
            self._pipe.queue(
                "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, now),
            )
            return await self.get_settings(guild_id)
        columns = ", ".join(given)
        marks = ", ".join("?" * len(given))
        assignments = ", ".join(f"{key} = excluded.{key}" for key in given)
        row = await self._fetchone(
            f"INSERT INTO guild_settings (guild_id, updated_at, {columns})"
            f" VALUES (?, ?, {marks}) ON CONFLICT (guild_id) DO UPDATE SET {assignments},"
            " updated_at = excluded.updated_at RETURNING gm_role_id, channel_id, language",
            (guild_id, now, *given.values()),
        )
        return _settings(guild_id, row)

    async def set_meta(self, key: str, value: str) -> None:
        self._check_open()
        self._pipe.queue(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # --- characters --------------------------------------------------------------------------

    async def _insert_character(
        self,
        *,
        character_id: int | None,
        guild_id: int,
        name: str,
        owner_id: int,
        created_at: str,
        health: Mapping[str, Any],
        gender: str | None = None,
    ) -> int:
        columns = [
            "guild_id",
            "name",
            "name_key",
            "look_key",
            "owner_id",
            "created_at",
            "gender",
            *HEALTH_COLUMNS,
        ]
        values: list[Any] = [
            guild_id,
            name,
            name_key(name),
            look_key(name),
            owner_id,
            created_at,
            gender,
        ]
        values += [health[column] for column in HEALTH_COLUMNS]
        if character_id is not None:
            columns.insert(0, "id")
            values.insert(0, character_id)
        marks = ", ".join("?" * len(values))
        try:
            return await self._insert(
                f"INSERT INTO characters ({', '.join(columns)}) VALUES ({marks})", values
            )
        except sqlite3.IntegrityError as error:
            if _is_unique_violation(error, "characters.name_key"):
                raise DuplicateName(guild_id, name) from error
            raise

    async def _store_abilities(
        self, current: _Stored, abilities: Mapping[str, dict[str, Any]]
    ) -> _Stored:
        """Make the character's stored abilities exactly ``abilities`` (rows by name_key),
        writing only the rows that differ; returns (and keeps) the new state."""
        character_id = current.id
        old = current.abilities()
        gone = [(character_id, key) for key in old if key not in abilities]
        changed = [
            (character_id, row["name"], key, row["kind"], row["rating"], row["pool"])
            for key, row in abilities.items()
            if old.get(key) != row
        ]
        self._pipe.queue_many(_DELETE_ABILITY, gone)
        self._pipe.queue_many(_UPSERT_ABILITY, changed)
        stored = current.with_abilities(abilities)
        self._known[character_id] = stored
        return stored

    async def create_character(
        self,
        guild_id: int,
        name: str,
        owner_id: int,
        health: CharacterHealth,
        abilities: Iterable[Ability] = (),
        gender: Gender | None = None,
    ) -> StoredCharacter:
        """A new character (name stored trimmed). Raises ``DuplicateName``, and
        ``ValueError`` for two abilities whose names are equal ignoring case."""
        self._check_writable()
        self._claim_guild(guild_id)
        rows = _abilities_by_key(abilities)
        clean = name.strip()
        created_at = self._now()
        health_row = health_to_row(health)
        new_id = await self._insert_character(
            character_id=None,
            guild_id=guild_id,
            name=clean,
            owner_id=owner_id,
            created_at=created_at,
            health=health_row,
            gender=None if gender is None else gender.value,
        )
        self._touched.setdefault(new_id, _Touched(guild_id, None))
        fields = {
            "id": new_id,
            "guild_id": guild_id,
            "name": clean,
            "owner_id": owner_id,
            "gender": None if gender is None else gender.value,
        }
        created = _Stored.new({**fields, "created_at": created_at, **health_row})
        self._known[new_id] = created  # a new id: no ability row can exist for it yet
        return (await self._store_abilities(created, rows)).character()

    async def save_healths(
        self, changes: Iterable[tuple[StoredCharacter, CharacterHealth]]
    ) -> list[StoredCharacter]:
        """``save_health`` for many characters in one statement (``/scene new``, ``/time``).

        The same as saving each in turn, except that a character missing from its guild
        raises ``CharacterNotFound`` before anything is written. Returns the saved characters
        in the order given.
        """
        pairs = list(changes)
        self._check_writable()
        for guild_id in sorted({character.guild_id for character, _ in pairs}):
            await self._load(guild_id, (c.id for c, _ in pairs if c.guild_id == guild_id))
        states: dict[int, _Stored] = {}
        params: list[tuple[Any, ...]] = []
        saved: list[StoredCharacter] = []
        for character, health in pairs:
            current = await self._require(character.guild_id, character.id)
            current = states.get(character.id, current)
            row: dict[str, Any] = health_to_row(health)
            if row != current.snapshot["health"]:
                params.append((*row.values(), character.id, character.guild_id))
            stored = current.with_health(row)
            states[character.id] = stored
            saved.append(stored.character())
        self._pipe.queue_many(_UPDATE_HEALTH, params)
        self._known.update(states)
        return saved

    async def save_health(
        self, character: StoredCharacter, health: CharacterHealth
    ) -> StoredCharacter:
        """Write every ``CharacterHealth`` field. Raises ``CharacterNotFound``."""
        (saved,) = await self.save_healths([(character, health)])
        return saved

    async def set_gender(
        self, character: StoredCharacter, gender: Gender | None
    ) -> StoredCharacter:
        """Give the character a grammatical gender (None: none). Raises ``CharacterNotFound``."""
        current = await self._require(character.guild_id, character.id)
        value = None if gender is None else gender.value
        if current.snapshot.get("gender") != value:
            self._pipe.queue(
                "UPDATE characters SET gender = ? WHERE id = ? AND guild_id = ?",
                (value, character.id, character.guild_id),
            )
        stored = _Stored({**current.snapshot, "gender": value}, current.keys)
        self._known[character.id] = stored
        return stored.character()

    async def set_ability(self, character: StoredCharacter, ability: Ability) -> StoredCharacter:
        """Add the ability, or replace the one with the same name ignoring case (its stored
        name becomes ``ability.name``). Raises ``CharacterNotFound``."""
        current = await self._require(character.guild_id, character.id)
        rows = current.abilities()
        rows[name_key(ability.name)] = ability_to_row(ability)
        return (await self._store_abilities(current, rows)).character()

    async def remove_ability(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Remove the ability called ``name`` (ignoring case); absent: nothing changes."""
        current = await self._require(character.guild_id, character.id)
        rows = current.abilities()
        rows.pop(name_key(name), None)
        return (await self._store_abilities(current, rows)).character()

    async def save_abilities(
        self, character: StoredCharacter, abilities: Iterable[Ability]
    ) -> StoredCharacter:
        """Replace the whole set of abilities (e.g. ``/refresh``). Names must differ
        ignoring case (``ValueError``)."""
        current = await self._require(character.guild_id, character.id)
        rows = _abilities_by_key(abilities)
        return (await self._store_abilities(current, rows)).character()

    async def rename_character(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Give the character a new name (stored as given: clean it first). Raises
        ``CharacterNotFound``, and ``DuplicateName`` when the exact name is taken."""
        current = await self._require(character.guild_id, character.id)
        try:
            await self._execute(
                "UPDATE characters SET name = ?, name_key = ?, look_key = ?"
                " WHERE id = ? AND guild_id = ?",
                (name, name_key(name), look_key(name), character.id, character.guild_id),
            )
        except sqlite3.IntegrityError as error:
            if _is_unique_violation(error, "characters.name_key"):
                raise DuplicateName(character.guild_id, name) from error
            raise
        renamed = _Stored({**current.snapshot, "name": name}, current.keys)
        self._known[character.id] = renamed
        return renamed.character()

    async def delete_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        """Delete it with its abilities; returns what was deleted, None if not in this guild."""
        current = await self._touch(guild_id, character_id)
        if current is None:
            return None
        self._pipe.queue(
            "DELETE FROM characters WHERE id = ? AND guild_id = ?", (character_id, guild_id)
        )
        self._known[character_id] = None
        return current.character()

    async def _restore(self, guild_id: int, snapshot: Snapshot) -> None:
        """Write ``snapshot`` back exactly: row (same id), every field and the abilities."""
        if int(snapshot["guild_id"]) != guild_id:
            raise StorageError("snapshot of another guild")  # pragma: no cover - corrupt data
        character_id = int(snapshot["id"])
        abilities = _abilities_by_key(ability_from_row(item) for item in snapshot["abilities"])
        current = await self._touch(guild_id, character_id, will_create=True)
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
            columns = (
                "name",
                "name_key",
                "look_key",
                "owner_id",
                "created_at",
                "gender",
                *HEALTH_COLUMNS,
            )
            values = [
                fields["name"],
                name_key(fields["name"]),
                look_key(fields["name"]),
                fields["owner_id"],
                fields["created_at"],
                fields["gender"],
                *(health[column] for column in HEALTH_COLUMNS),
            ]
            try:
                await self._execute(
                    f"UPDATE characters SET {', '.join(f'{c} = ?' for c in columns)}"
                    " WHERE id = ? AND guild_id = ?",
                    (*values, character_id, guild_id),
                )
            except sqlite3.IntegrityError as error:
                if _is_unique_violation(error, "characters.name_key"):
                    raise DuplicateName(guild_id, fields["name"]) from error
                raise
        row = _Stored.new(fields)
        if current is not None:  # its ability rows are still there: only changes are written
            row = _Stored(
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
                _Change.of(character_id, touched.before, touched.before)
                for character_id, touched in sorted(self._touched.items())
            ]
        if not changes:
            return None
        created_at = self._now()
        self._unseen.discard(interaction_id)
        values = (guild_id, interaction_id, actor_id, command, details_json, created_at, undo_of)
        next_id = self._pipe.probed.get(_NEXT_HISTORY_ID)
        if next_id is not None:
            # Its id is known (probed with BEGIN): written with the COMMIT, where a repeated
            # interaction fails as AlreadyApplied (``_commit``).
            entry_id = int(next_id)
            self._pipe.probed[_NEXT_HISTORY_ID] = entry_id + 1
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
                if _is_unique_violation(error, "history.interaction_id"):
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
