"""What a cog does inside ``storage.read()``: the ``Reader``, read-only queries. A
``Transaction`` reads through one of its own (its statements go with the reads).

Every method takes the guild id and filters on it: no call can see or change another guild's
rows. Each statement is a round trip to aiosqlite's thread (a queue put, a thread switch and
a wake-up of the loop), which the benchmark measured as the main cost of a command (issue 6);
``tests/storage/test_round_trips.py`` pins the number of trips of the usual commands.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

import aiosqlite

from bot.storage.details import details_of
from bot.storage.errors import (
    CharacterNotFound,
    TransactionStateError,
)
from bot.storage.forwarded import forwarded
from bot.storage.interface import LATEST_ENTRIES, HistoryCharacter, HistoryEntry, HistoryQuery
from bot.storage.memory import ServerNames, SettingsCache
from bot.storage.models import (
    BATCH_SIZE,
    EVERY_CHARACTER,
    Among,
    CharacterQuery,
    CharacterRef,
    GuildSettings,
    LightCharacter,
    StoredCharacter,
    numbers_from_value,
)
from bot.storage.names import look_key, typed_look_key
from bot.storage.shared_sql import ABILITIES_JSON, OUT_OF_PLAY
from bot.storage.snapshot import (
    Snapshot,
    ability_from_row,
    character_from_snapshot,
    gender_from_value,
    load_after,
    load_snapshot,
)
from bot.storage.sqlite.rows import (
    AMONG,
    COUNT_OUT_OF_PLAY,
    IDS_PER_QUERY,
    LOOKALIKE_IDS,
    LOOKALIKE_WHERE,
    SELECT_CHARACTER,
    SELECT_HISTORY,
    SELECT_NAMES,
    Clock,
    StoredRow,
    abilities_of,
    character_of_row,
    settings_of_row,
)
from bot.storage.sqlite.side_tables import SideReads
from rules.state import DEATH_THRESHOLD

__all__ = ["CharacterSource", "OneTripEach", "Queries", "Reader", "character_named"]


class Queries(Protocol):
    """Where a ``Reader``'s statements go: ``OneTripEach`` for ``storage.read()``, a
    transaction's ``Pipeline`` inside one."""

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]: ...


class CharacterSource(Protocol):
    """Where a character is read by id: a ``Reader`` (as stored), a ``Transaction`` (as
    stored now, its own writes included)."""

    async def get_character(self, guild_id: int, character_id: int) -> StoredCharacter | None: ...


async def character_named(source: CharacterSource, ref: CharacterRef) -> StoredCharacter:
    """The whole character ``ref`` names, as ``source`` has it; ``CharacterNotFound`` when it
    was deleted since the option or button named it."""
    found = await source.get_character(ref.guild_id, ref.id)
    if found is None:
        raise CharacterNotFound(ref.guild_id, ref.id)
    return found


class OneTripEach:
    """Each statement in a trip of its own (``execute_fetchall`` does in one trip what a
    cursor does in three: execute, fetch, close)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._conn.execute_fetchall(sql, params))


class Reader:
    """Read-only queries; valid only inside the ``async with`` that produced it.

    ``keep`` is told every character row read (whole, as ``StoredRow``): a transaction keeps
    them as known (``KnownCharacters``)."""

    def __init__(
        self,
        queries: Queries,
        clock: Clock,
        settings: SettingsCache,
        *,
        keep: Callable[[StoredRow], None] | None = None,
    ) -> None:
        self._queries: Queries | None = queries
        self._clock = clock
        self._settings_cache = settings
        self._keep = keep
        self._side = SideReads(self.fetch_one, self.fetch_all)

    # --- plumbing ----------------------------------------------------------------------------

    def _open(self) -> Queries:
        if self._queries is None:
            raise TransactionStateError("used after its 'async with' block ended")
        return self._queries

    def check_open(self) -> None:
        """For answers given without a query: the block must still be running."""
        self._open()

    def end(self) -> None:
        self._queries = None

    def now(self) -> str:
        moment = self._clock()
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC).isoformat(timespec="microseconds")

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """The first row (every caller selects at most one)."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return await self._open().fetchall(sql, params)

    async def _characters(
        self, where: str, params: Sequence[Any], tail: str = "", *, index: str | None = None
    ) -> list[StoredCharacter]:
        """Characters matching ``where`` (which must filter on c.guild_id), with abilities
        (read with their character: one query, see ``ABILITIES_JSON``); ``index``: the one
        SQLite must read them by (a page or a batch of a big server, whatever its statistics
        say)."""
        table = "characters AS c" if index is None else f"characters AS c INDEXED BY {index}"
        rows = await self.fetch_all(
            f"{SELECT_CHARACTER}, {ABILITIES_JSON} FROM {table} WHERE {where} {tail}", params
        )
        return [self._loaded(row) for row in rows]

    def _loaded(self, row: sqlite3.Row) -> StoredCharacter:
        """A character row read with ``ABILITIES_JSON`` (told to ``keep``, if any)."""
        if self._keep is None:
            return character_of_row(
                row, tuple(ability_from_row(item) for item in abilities_of(row))
            )
        stored, character = StoredRow.read(row)
        self._keep(stored)
        return character

    async def snapshot(self, guild_id: int, character_id: int) -> Snapshot | None:
        """The whole stored character as the history keeps it, or None when it is not in
        this guild."""
        row = await self.fetch_one(
            f"{SELECT_CHARACTER}, {ABILITIES_JSON} FROM characters AS c"
            " WHERE c.guild_id = ? AND c.id = ?",
            (guild_id, character_id),
        )
        return None if row is None else StoredRow.from_row(row).snapshot

    # --- settings and meta -------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's ``/config`` (all None when never set), from the cache when there."""
        cached = self._settings_cache.get(guild_id)
        if cached is not None:
            self.check_open()
            return cached
        found = await self.stored_settings(guild_id)
        self._settings_cache.put(guild_id, found)
        return found

    async def stored_settings(self, guild_id: int) -> GuildSettings:
        """The guild's ``/config`` as stored now (never from the cache)."""
        row = await self.fetch_one(
            "SELECT gm_role_id, channel_id, language FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return settings_of_row(guild_id, row)

    async def get_meta(self, key: str) -> str | None:
        """A bot-wide value (not per guild), e.g. the hash of the last command sync."""
        row = await self.fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    # --- characters --------------------------------------------------------------------------

    async def get_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        found = await self._characters("c.guild_id = ? AND c.id = ?", (guild_id, character_id))
        return found[0] if found else None

    async def get_characters(
        self, guild_id: int, character_ids: Iterable[int]
    ) -> dict[int, StoredCharacter]:
        """The characters of this guild among ``character_ids``, by id, read many per query;
        a missing one is simply absent."""
        wanted = sorted(set(character_ids))
        found: dict[int, StoredCharacter] = {}
        for start in range(0, len(wanted), IDS_PER_QUERY):
            chunk = wanted[start : start + IDS_PER_QUERY]
            marks = ", ".join("?" * len(chunk))
            for character in await self._characters(
                f"c.guild_id = ? AND c.id IN ({marks})", (guild_id, *chunk)
            ):
                found[character.id] = character
        return found

    async def character(self, ref: CharacterRef) -> StoredCharacter:
        """The whole character ``ref`` names, as stored (``character_named``)."""
        return await character_named(self, ref)

    async def server_names(self, guild_id: int) -> ServerNames:
        """Every character of the guild as the options resolve them (``NameIndex``): one
        query, by stored name key then id."""
        rows = await self.fetch_all(SELECT_NAMES, (guild_id,))
        return ServerNames.of(
            guild_id,
            [
                (
                    LightCharacter(
                        id=int(row["id"]),
                        guild_id=guild_id,
                        name=str(row["name"]),
                        owner_id=int(row["owner_id"]),
                        gender=gender_from_value(row["gender"]),
                        has_stability=bool(row["stable"]),
                        numbers=numbers_from_value(row["numbers"]),
                    ),
                    str(row["name_key"]),
                )
                for row in rows
            ],
        )

    async def find_lookalike(
        self, guild_id: int, name: str, *, other_than: int | None = None
    ) -> StoredCharacter | None:
        """The first character of the guild (other than ``other_than``) whose name is the same
        as, or looks like, ``name``: either of its keys equal (``bot.storage.names``); create
        and rename refuse it. One query, on the two keys' indexes."""
        found = await self._characters(
            LOOKALIKE_WHERE,
            (
                guild_id,
                look_key(name),
                guild_id,
                typed_look_key(name),
                -1 if other_than is None else other_than,
            ),
            "ORDER BY c.id LIMIT 1",
        )
        return found[0] if found else None

    async def list_characters(
        self, guild_id: int, query: CharacterQuery = EVERY_CHARACTER
    ) -> list[StoredCharacter]:
        """The guild's characters that ``query`` asks for (``CharacterQuery``), by name on
        the index of its language (the out of play's own when only they are asked for)."""
        where = "c.guild_id = ?"
        params: list[Any] = [guild_id]
        if query.living_only:
            where += " AND c.health > ?"
            params.append(DEATH_THRESHOLD)
        if query.dead_only:
            where += " AND c.health <= ?"
            params.append(DEATH_THRESHOLD)
        if query.out_of_play is not None:
            out = OUT_OF_PLAY if query.out_of_play else f"NOT coalesce({OUT_OF_PLAY}, 0)"
            where += f" AND {out}"
            params.append(DEATH_THRESHOLD)
        key, index = ("reading_key_es", "characters_reading_es")
        if query.language != "es":
            key, index = ("reading_key_en", "characters_reading_en")
        index = "characters_out_of_play" if query.out_of_play else index  # the few, sorted
        tail = f"ORDER BY c.{key}, c.id LIMIT ? OFFSET ?"
        params += [-1 if query.limit is None else query.limit, query.offset]
        return await self._characters(where, params, tail, index=index)

    async def lookalike_ids(self, guild_id: int) -> set[int]:
        """The characters whose name looks like another's of the server (possible only in
        databases older than the rules): one query on the keys' indexes (``LOOKALIKE_IDS``)."""
        rows = await self.fetch_all(LOOKALIKE_IDS, (guild_id, guild_id, guild_id))
        return {int(row["id"]) for row in rows}

    async def count_characters(
        self, guild_id: int, *, living_only: bool = False, out_of_play: bool | None = None
    ) -> int:
        """How many characters (``out_of_play`` False: but the insane, on their own index)."""
        sql = "SELECT count(*) FROM characters WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if living_only:
            sql += " AND health > ?"
            params.append(DEATH_THRESHOLD)
        if out_of_play is False:
            sql = f"SELECT ({sql}) - {COUNT_OUT_OF_PLAY}"
            params += [guild_id, DEATH_THRESHOLD]
        row = await self.fetch_one(sql, params)
        return 0 if row is None else int(row[0])

    async def batch_of_characters(
        self, guild_id: int, among: Among, *, after_id: int = 0, limit: int = BATCH_SIZE
    ) -> list[StoredCharacter]:
        """Up to ``limit`` characters of the guild ``among`` some, by id after ``after_id``:
        work over a whole server (``/time``, ``/scene new``, ``/refresh``) reads it a batch
        at a time, so that no single read builds a whole big server at once."""
        return await self._characters(
            f"c.guild_id = ? AND c.id > ? AND {AMONG[among].where}",
            (guild_id, after_id, max(1, limit)),
            "ORDER BY c.id LIMIT ?",
            index=AMONG[among].index,
        )

    async def count_among(self, guild_id: int, among: Among) -> int:
        """How many characters of the guild are ``among`` some (an index range, not a read
        of every row)."""
        row = await self.fetch_one(
            f"SELECT count(*) FROM characters AS c INDEXED BY characters_health"
            f" WHERE c.guild_id = ? AND {AMONG[among].where}",
            (guild_id,),
        )
        return 0 if row is None else int(row[0])

    async def head_count(self, guild_id: int) -> tuple[int, int, int]:
        """Characters, the living, the out of play (insane, M4) among those: one query on the
        ``(guild_id, health)`` index and the out of play's own, whatever their number."""
        row = await self.fetch_one(
            f"SELECT count(*), count(*) FILTER (WHERE health > ?), {COUNT_OUT_OF_PLAY}"
            " FROM characters INDEXED BY characters_health WHERE guild_id = ?",
            (DEATH_THRESHOLD, guild_id, DEATH_THRESHOLD, guild_id),
        )
        return (0, 0, 0) if row is None else (int(row[0]), int(row[1]), int(row[2]))

    async def interaction_seen(self, interaction_id: int) -> bool:
        """Whether this interaction already produced a history entry (applied once)."""
        row = await self.fetch_one(
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
        for item in await self.fetch_all(
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
                number=int(row["number"]),
                interaction_id=int(row["interaction_id"]),
                created_at=datetime.fromisoformat(row["created_at"]),
                actor_id=int(row["actor_id"]),
                command=str(row["command"]),
                details=details_of(str(row["command"]), json.loads(row["details"])),
                undo_of=row["undo_of"],
                undone_by=row["undone_by"],
                characters=tuple(touched[int(row["id"])]),
                undo_of_number=row["undo_of_number"],
            )
            for row in rows
        ]

    async def history(
        self, guild_id: int, query: HistoryQuery = LATEST_ENTRIES
    ) -> list[HistoryEntry]:
        """The guild's entries that ``query`` asks for (``HistoryQuery``), newest first."""
        before_id = query.before_id
        page = "" if before_id is None else " AND h.id < ?"
        paging: tuple[int, ...] = () if before_id is None else (before_id,)
        rest = (*paging, query.limit, max(0, query.offset))
        if query.character_id is None:
            rows = await self.fetch_all(
                f"{SELECT_HISTORY} WHERE h.guild_id = ?{page} ORDER BY h.id DESC LIMIT ? OFFSET ?",
                (guild_id, *rest),
            )
        else:
            rows = await self.fetch_all(
                f"{SELECT_HISTORY} JOIN history_characters AS hc ON hc.history_id = h.id"
                f" WHERE hc.character_id = ? AND h.guild_id = ?{page}"
                " ORDER BY hc.history_id DESC LIMIT ? OFFSET ?",
                (query.character_id, guild_id, *rest),
            )
        return await self._entries(rows)

    async def get_history_entry(self, guild_id: int, entry_id: int) -> HistoryEntry | None:
        rows = await self.fetch_all(
            f"{SELECT_HISTORY} WHERE h.guild_id = ? AND h.id = ?", (guild_id, entry_id)
        )
        found = await self._entries(rows)
        return found[0] if found else None

    async def latest_undoable(
        self, guild_id: int, befores: dict[int, Snapshot | None] | None = None
    ) -> HistoryEntry | None:
        """The entry ``undo_latest`` would revert now (neither an undo nor undone), if any;
        ``befores`` also gets each of its characters' ``before`` snapshot, as stored."""
        rows = await self.fetch_all(
            f"{SELECT_HISTORY} WHERE h.guild_id = ? AND h.undo_of IS NULL"
            " AND h.undone_by IS NULL ORDER BY h.id DESC LIMIT 1",
            (guild_id,),
        )
        found = await self._entries(rows, befores)
        return found[0] if found else None

    # --- beside the history (``SideReads``) --------------------------------------------------

    roll_number = forwarded("_side", SideReads.roll_number)
    roll_numbers = forwarded("_side", SideReads.roll_numbers)
    has_roll_messages = forwarded("_side", SideReads.has_roll_messages)
    newest_roll_message = forwarded("_side", SideReads.newest_roll_message)
    stale_roll_messages = forwarded("_side", SideReads.stale_roll_messages)
    messages_to_sweep = forwarded("_side", SideReads.messages_to_sweep)
    unkept_replies = forwarded("_side", SideReads.unkept_replies)
    tracker = forwarded("_side", SideReads.tracker)
    lost_channels = forwarded("_side", SideReads.lost_channels)
