"""What a cog does inside ``storage.read()`` (a ``Reader``) or ``storage.transaction()``.

Every method takes the guild id and filters on it: no call can see or change another guild's
rows. A ``Transaction`` remembers the first state of every character it writes, so that
``record`` can store whole before/after snapshots (what ``/history`` shows and ``/undo``
restores) without the cogs collecting them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, Final

import aiosqlite

from bot.storage.errors import (
    AlreadyApplied,
    CharacterNotFound,
    DuplicateName,
    StorageError,
    TransactionStateError,
)
from bot.storage.models import (
    CharacterSuggestion,
    GuildSettings,
    HistoryCharacter,
    HistoryEntry,
    StoredCharacter,
    UndoResult,
    name_key,
)
from bot.storage.snapshot import (
    HEALTH_COLUMNS,
    Snapshot,
    ability_from_row,
    ability_to_row,
    character_from_snapshot,
    dump_json,
    health_from_row,
    health_to_row,
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

_CHARACTER_COLUMNS = ("id", "guild_id", "name", "owner_id", "created_at", *HEALTH_COLUMNS)
_SELECT_CHARACTER = "SELECT " + ", ".join(f"c.{column}" for column in _CHARACTER_COLUMNS)
_SELECT_HISTORY = (
    "SELECT h.id, h.guild_id, h.interaction_id, h.actor_id, h.command, h.details,"
    " h.created_at, h.undo_of, h.undone_by FROM history AS h"
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


class Reader:
    """Read-only queries; valid only inside the ``async with`` that produced it."""

    def __init__(self, conn: aiosqlite.Connection, clock: Clock) -> None:
        self._connection: aiosqlite.Connection | None = conn
        self._clock = clock

    # --- plumbing ----------------------------------------------------------------------------

    @property
    def _conn(self) -> aiosqlite.Connection:
        if self._connection is None:
            raise TransactionStateError("used after its 'async with' block ended")
        return self._connection

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
        rows = list(await self._conn.execute_fetchall(sql, params))
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
        return [
            StoredCharacter(
                id=int(row["id"]),
                guild_id=int(row["guild_id"]),
                name=str(row["name"]),
                owner_id=int(row["owner_id"]),
                health=health_from_row(row),
                abilities=tuple(ability_from_row(item) for item in _abilities_of(row)),
            )
            for row in rows
        ]

    async def _snapshot(self, guild_id: int, character_id: int) -> Snapshot | None:
        """The whole stored character as a snapshot, or None when it is not in this guild."""
        row = await self._fetchone(
            f"{_SELECT_CHARACTER}, {_ABILITIES_JSON} FROM characters AS c"
            " WHERE c.guild_id = ? AND c.id = ?",
            (guild_id, character_id),
        )
        if row is None:
            return None
        abilities = [ability_to_row(ability_from_row(item)) for item in _abilities_of(row)]
        return make_snapshot(row, abilities)

    # --- settings and meta -------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's ``/config`` (all None when never set)."""
        row = await self._fetchone(
            "SELECT gm_role_id, channel_id, language FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id=guild_id)
        return GuildSettings(
            guild_id=guild_id,
            gm_role_id=row["gm_role_id"],
            channel_id=row["channel_id"],
            language=row["language"],
        )

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

    async def _entries(self, rows: list[sqlite3.Row]) -> list[HistoryEntry]:
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
            after = load_snapshot(item["after"])
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
    ) -> list[HistoryEntry]:
        """The guild's entries (or those touching one character), newest first.

        ``before_id`` pages further back: only entries with a smaller id.
        """
        page = "" if before_id is None else " AND h.id < ?"
        paging: tuple[int, ...] = () if before_id is None else (before_id,)
        if character_id is None:
            rows = await self._fetchall(
                f"{_SELECT_HISTORY} WHERE h.guild_id = ?{page} ORDER BY h.id DESC LIMIT ?",
                (guild_id, *paging, limit),
            )
        else:
            rows = await self._fetchall(
                f"{_SELECT_HISTORY} JOIN history_characters AS hc ON hc.history_id = h.id"
                f" WHERE hc.character_id = ? AND h.guild_id = ?{page}"
                " ORDER BY hc.history_id DESC LIMIT ?",
                (character_id, guild_id, *paging, limit),
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
        rows = await self._fetchall(
            f"{_SELECT_HISTORY} WHERE h.guild_id = ? AND h.undo_of IS NULL"
            " AND h.undone_by IS NULL ORDER BY h.id DESC LIMIT 1",
            (guild_id,),
        )
        found = await self._entries(rows)
        return found[0] if found else None


@dataclass
class _Touched:
    guild_id: int
    before: Snapshot | None


class Transaction(Reader):
    """Reads and writes inside ``BEGIN IMMEDIATE`` … ``COMMIT``.

    Character writes are tracked: the first write to a character keeps its state as loaded
    then (None if created here); ``record`` compares it with the state at that moment.
    """

    def __init__(self, conn: aiosqlite.Connection, clock: Clock) -> None:
        super().__init__(conn, clock)
        self._touched: dict[int, _Touched] = {}
        self._guild_id: int | None = None  # the one guild whose characters this tx writes
        self._recorded = False
        self._commit_guards: list[Callable[[], Awaitable[None]]] = []

    def guard_commit(self, guard: Callable[[], Awaitable[None]]) -> None:
        """Run ``guard`` just before committing a recorded change; if it raises, the change
        is rolled back. (The bot makes sure it can still answer the interaction: a change
        must not be stored when its reply can no longer reach the player.)"""
        self._commit_guards.append(guard)

    # --- tracking ----------------------------------------------------------------------------

    def _check_writable(self) -> None:
        if self._recorded:
            raise TransactionStateError("character written after record() in one transaction")

    def _claim_guild(self, guild_id: int) -> None:
        if self._guild_id is None:
            self._guild_id = guild_id
        elif self._guild_id != guild_id:
            raise TransactionStateError("one transaction wrote characters of two guilds")

    async def _touch(
        self, guild_id: int, character_id: int, *, will_create: bool = False
    ) -> Snapshot | None:
        """Keep the character's state before its first write here; return its current state.

        A character missing from this guild is only remembered (as "did not exist") when the
        caller is about to create it.
        """
        self._check_writable()
        current = await self._snapshot(guild_id, character_id)
        if character_id not in self._touched and (current is not None or will_create):
            self._claim_guild(guild_id)
            self._touched[character_id] = _Touched(guild_id, current)
        return current

    async def _require(self, guild_id: int, character_id: int) -> Snapshot:
        current = await self._touch(guild_id, character_id)
        if current is None:
            raise CharacterNotFound(guild_id, character_id)
        return current

    async def _changes(self) -> list[tuple[int, Snapshot | None, Snapshot | None]]:
        """(id, before, after) of every touched character whose state really changed."""
        changes = []
        for character_id, touched in sorted(self._touched.items()):
            after = await self._snapshot(touched.guild_id, character_id)
            if dump_json(after) != dump_json(touched.before):
                changes.append((character_id, touched.before, after))
        return changes

    async def has_changes(self) -> bool:
        """Whether the characters written so far differ from their state at first touch."""
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
        now = self._now()
        await self._conn.execute(
            "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, now),
        )
        if given:
            assignments = ", ".join(f"{key} = ?" for key in given)
            await self._conn.execute(
                f"UPDATE guild_settings SET {assignments}, updated_at = ? WHERE guild_id = ?",
                (*given.values(), now, guild_id),
            )
        return await self.get_settings(guild_id)

    async def set_meta(self, key: str, value: str) -> None:
        await self._conn.execute(
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
    ) -> int:
        columns = ["guild_id", "name", "name_key", "owner_id", "created_at", *HEALTH_COLUMNS]
        values: list[Any] = [guild_id, name, name_key(name), owner_id, created_at]
        values += [health[column] for column in HEALTH_COLUMNS]
        if character_id is not None:
            columns.insert(0, "id")
            values.insert(0, character_id)
        marks = ", ".join("?" * len(values))
        try:
            inserted = await self._conn.execute_insert(
                f"INSERT INTO characters ({', '.join(columns)}) VALUES ({marks})", values
            )
        except sqlite3.IntegrityError as error:
            if _is_unique_violation(error, "characters.name_key"):
                raise DuplicateName(guild_id, name) from error
            raise
        if inserted is None:  # pragma: no cover - sqlite always gives one for a rowid table
            raise StorageError("INSERT gave no row id")
        return int(inserted[0])

    async def _write_abilities(self, character_id: int, abilities: Iterable[Ability]) -> None:
        await self._conn.execute("DELETE FROM abilities WHERE character_id = ?", (character_id,))
        rows = [
            (character_id, a.name, name_key(a.name), a.kind.value, a.rating, a.pool)
            for a in abilities
        ]
        try:
            await self._conn.executemany(
                "INSERT INTO abilities (character_id, name, name_key, kind, rating, pool)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
        except sqlite3.IntegrityError as error:
            if _is_unique_violation(error, "abilities"):
                raise ValueError("two abilities with the same name (ignoring case)") from error
            raise

    async def _reload(self, guild_id: int, character_id: int) -> StoredCharacter:
        found = await self.get_character(guild_id, character_id)
        if found is None:  # pragma: no cover - written in this very transaction
            raise CharacterNotFound(guild_id, character_id)
        return found

    async def create_character(
        self,
        guild_id: int,
        name: str,
        owner_id: int,
        health: CharacterHealth,
        abilities: Iterable[Ability] = (),
    ) -> StoredCharacter:
        """A new character (name stored trimmed). Raises ``DuplicateName``."""
        self._check_writable()
        self._claim_guild(guild_id)
        clean = name.strip()
        new_id = await self._insert_character(
            character_id=None,
            guild_id=guild_id,
            name=clean,
            owner_id=owner_id,
            created_at=self._now(),
            health=health_to_row(health),
        )
        self._touched.setdefault(new_id, _Touched(guild_id, None))
        await self._write_abilities(new_id, abilities)
        return await self._reload(guild_id, new_id)

    async def save_health(
        self, character: StoredCharacter, health: CharacterHealth
    ) -> StoredCharacter:
        """Write every ``CharacterHealth`` field. Raises ``CharacterNotFound``."""
        await self._require(character.guild_id, character.id)
        row = health_to_row(health)
        await self._conn.execute(
            f"UPDATE characters SET {', '.join(f'{column} = ?' for column in HEALTH_COLUMNS)}"
            " WHERE id = ? AND guild_id = ?",
            (*row.values(), character.id, character.guild_id),
        )
        return await self._reload(character.guild_id, character.id)

    async def set_ability(self, character: StoredCharacter, ability: Ability) -> StoredCharacter:
        """Add the ability, or replace the one with the same name ignoring case (its stored
        name becomes ``ability.name``). Raises ``CharacterNotFound``."""
        await self._require(character.guild_id, character.id)
        await self._conn.execute(
            "INSERT INTO abilities (character_id, name, name_key, kind, rating, pool)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (character_id, name_key) DO UPDATE SET"
            " name = excluded.name, kind = excluded.kind, rating = excluded.rating,"
            " pool = excluded.pool",
            (
                character.id,
                ability.name,
                name_key(ability.name),
                ability.kind.value,
                ability.rating,
                ability.pool,
            ),
        )
        return await self._reload(character.guild_id, character.id)

    async def remove_ability(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Remove the ability called ``name`` (ignoring case); absent: nothing changes."""
        await self._require(character.guild_id, character.id)
        await self._conn.execute(
            "DELETE FROM abilities WHERE character_id = ? AND name_key = ?",
            (character.id, name_key(name)),
        )
        return await self._reload(character.guild_id, character.id)

    async def save_abilities(
        self, character: StoredCharacter, abilities: Iterable[Ability]
    ) -> StoredCharacter:
        """Replace the whole set of abilities (e.g. ``/refresh``). Names must differ
        ignoring case (``ValueError``)."""
        await self._require(character.guild_id, character.id)
        await self._write_abilities(character.id, abilities)
        return await self._reload(character.guild_id, character.id)

    async def delete_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        """Delete it with its abilities; returns what was deleted, None if not in this guild."""
        current = await self._touch(guild_id, character_id)
        if current is None:
            return None
        await self._conn.execute(
            "DELETE FROM characters WHERE id = ? AND guild_id = ?", (character_id, guild_id)
        )
        return character_from_snapshot(current)

    async def _restore(self, guild_id: int, snapshot: Snapshot) -> None:
        """Write ``snapshot`` back exactly: row (same id), every field and the abilities."""
        if int(snapshot["guild_id"]) != guild_id:
            raise StorageError("snapshot of another guild")  # pragma: no cover - corrupt data
        character_id = int(snapshot["id"])
        current = await self._touch(guild_id, character_id, will_create=True)
        health = snapshot["health"]
        if current is None:
            await self._insert_character(
                character_id=character_id,
                guild_id=guild_id,
                name=str(snapshot["name"]),
                owner_id=int(snapshot["owner_id"]),
                created_at=str(snapshot["created_at"]),
                health=health,
            )
        else:
            columns = ("name", "name_key", "owner_id", "created_at", *HEALTH_COLUMNS)
            values = [
                snapshot["name"],
                name_key(str(snapshot["name"])),
                snapshot["owner_id"],
                snapshot["created_at"],
                *(health[column] for column in HEALTH_COLUMNS),
            ]
            try:
                await self._conn.execute(
                    f"UPDATE characters SET {', '.join(f'{c} = ?' for c in columns)}"
                    " WHERE id = ? AND guild_id = ?",
                    (*values, character_id, guild_id),
                )
            except sqlite3.IntegrityError as error:
                if _is_unique_violation(error, "characters.name_key"):
                    raise DuplicateName(guild_id, str(snapshot["name"])) from error
                raise
        await self._write_abilities(
            character_id, (ability_from_row(item) for item in snapshot["abilities"])
        )

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
                (character_id, touched.before, touched.before)
                for character_id, touched in sorted(self._touched.items())
            ]
        if not changes:
            return None
        created_at = self._now()
        try:
            inserted = await self._conn.execute_insert(
                "INSERT INTO history (guild_id, interaction_id, actor_id, command, details,"
                " created_at, undo_of) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, interaction_id, actor_id, command, details_json, created_at, undo_of),
            )
        except sqlite3.IntegrityError as error:
            if _is_unique_violation(error, "history.interaction_id"):
                raise AlreadyApplied(interaction_id) from error
            raise
        if inserted is None:  # pragma: no cover
            raise StorageError("INSERT gave no row id")
        entry_id = int(inserted[0])
        rows = []
        characters = []
        for character_id, before, after in changes:
            shown = after if after is not None else before
            name = "" if shown is None else str(shown["name"])
            rows.append(
                (
                    entry_id,
                    character_id,
                    name,
                    None if before is None else dump_json(before),
                    None if after is None else dump_json(after),
                )
            )
            characters.append(
                HistoryCharacter(
                    character_id=character_id,
                    name=name,
                    before=None if before is None else character_from_snapshot(before),
                    after=None if after is None else character_from_snapshot(after),
                )
            )
        await self._conn.executemany(
            "INSERT INTO history_characters (history_id, character_id, name, before, after)"
            " VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        self._recorded = True
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
        target = await self.latest_undoable(guild_id)
        if target is None:
            return None
        if await self.interaction_seen(interaction_id):
            raise AlreadyApplied(interaction_id)
        rows = await self._fetchall(
            "SELECT hc.character_id, hc.before FROM history_characters AS hc"
            " JOIN history AS h ON h.id = hc.history_id"
            " WHERE h.guild_id = ? AND hc.history_id = ? ORDER BY hc.character_id",
            (guild_id, target.id),
        )
        befores = [(int(row["character_id"]), load_snapshot(row["before"])) for row in rows]
        removed: list[int] = []
        for character_id, before in befores:  # removals first: they may free a name
            if before is None:
                await self.delete_character(guild_id, character_id)
                removed.append(character_id)
        for _character_id, before in befores:
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
        await self._conn.execute(
            "UPDATE history SET undone_by = ? WHERE id = ? AND guild_id = ?",
            (undo_entry.id, target.id, guild_id),
        )
        reverted = await self.get_history_entry(guild_id, target.id)
        if reverted is None:  # pragma: no cover
            raise StorageError("reverted entry vanished")
        restored = []
        for character_id, before in befores:
            if before is not None:
                restored.append(await self._reload(guild_id, character_id))
        return UndoResult(
            reverted=reverted,
            undo_entry=undo_entry,
            restored=tuple(restored),
            removed=tuple(removed),
        )
