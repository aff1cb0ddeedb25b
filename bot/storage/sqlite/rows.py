"""The storage's rows and SQL: the statements the reader and the transaction share, and how a
stored row becomes a value (``StoredCharacter``, ``GuildSettings``) or a snapshot."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.storage.models import (
    UNSET,
    Among,
    Clock,
    GuildSettings,
    StoredCharacter,
    Unset,
    numbers_from_value,
    utc_now,
)
from bot.storage.names import (
    look_key,
    reading_key_en,
    reading_key_es,
    typed_look_key,
)
from bot.storage.shared_sql import OUT_OF_PLAY
from bot.storage.snapshot import (
    HEALTH_COLUMNS,
    STABILITY_COLUMNS,
    RowLike,
    Snapshot,
    ability_from_row,
    ability_to_row,
    character_from_snapshot,
    gender_from_value,
    health_from_row,
    make_snapshot,
    stability_from_row,
)
from rules.abilities import Ability
from rules.names import name_key
from rules.state import DEATH_THRESHOLD, SERIOUSLY_WOUNDED_AT

__all__ = [
    "AMONG",
    "CHARACTER_COLUMNS",
    "COUNT_OUT_OF_PLAY",
    "DELETE_ABILITY",
    "IDS_PER_QUERY",
    "LOOKALIKE_IDS",
    "LOOKALIKE_WHERE",
    "NAME_KEY_COLUMNS",
    "SELECT_CHARACTER",
    "SELECT_HISTORY",
    "SELECT_NAMES",
    "UNSET",
    "UPDATE_HEALTH",
    "UPDATE_STABILITY",
    "UPSERT_ABILITY",
    "Clock",
    "StoredRow",
    "Unset",
    "abilities_by_key",
    "abilities_of",
    "character_columns",
    "character_of_row",
    "is_unique_violation",
    "name_keys",
    "settings_of_row",
    "utc_now",
]


@dataclass(frozen=True)
class AmongSql:
    """An ``Among`` said to SQLite: the condition on the characters' table (as ``c``) and the
    index that finds those rows only."""

    where: str
    index: str


AMONG: Final[Mapping[Among, AmongSql]] = {
    # The server's rows, by id.
    Among.LIVING: AmongSql(f"c.health > {DEATH_THRESHOLD}", "characters_guild"),
    # A range of Health.
    Among.BLEEDING: AmongSql(
        f"c.health > {DEATH_THRESHOLD} AND c.health <= {SERIOUSLY_WOUNDED_AT}"
        " AND c.stabilized = 0 AND c.hospital_length_days IS NULL",
        "characters_health",
    ),
}


CHARACTER_COLUMNS = (
    "id",
    "guild_id",
    "name",
    "owner_id",
    "created_at",
    "gender",
    "numbers",
    *HEALTH_COLUMNS,
    *STABILITY_COLUMNS,
)
SELECT_CHARACTER = "SELECT " + ", ".join(f"c.{column}" for column in CHARACTER_COLUMNS)
#: An entry's row, with the server's number of the entry an undo reverted.
SELECT_HISTORY = (
    "SELECT h.id, h.guild_id, h.number, h.interaction_id, h.actor_id, h.command, h.details,"
    " h.created_at, h.undo_of, h.undone_by,"
    " (SELECT o.number FROM history AS o WHERE o.id = h.undo_of) AS undo_of_number"
    " FROM history AS h"
)
UPDATE_HEALTH = (
    f"UPDATE characters SET {', '.join(f'{column} = ?' for column in HEALTH_COLUMNS)}"
    " WHERE id = ? AND guild_id = ?"
)
UPDATE_STABILITY = (
    f"UPDATE characters SET {', '.join(f'{column} = ?' for column in STABILITY_COLUMNS)}"
    " WHERE id = ? AND guild_id = ?"
)
UPSERT_ABILITY = (
    "INSERT INTO abilities (character_id, name, name_key, kind, rating, pool)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (character_id, name_key) DO UPDATE SET"
    " name = excluded.name, kind = excluded.kind, rating = excluded.rating,"
    " pool = excluded.pool"
)
DELETE_ABILITY = "DELETE FROM abilities WHERE character_id = ? AND name_key = ?"
#: Ids per ``IN (…)`` list: under SQLite's oldest limit of 999 parameters.
IDS_PER_QUERY = 900


def abilities_of(row: sqlite3.Row) -> list[dict[str, Any]]:
    """The abilities of a row read with ``ABILITIES_JSON``, in name_key order."""
    items: list[dict[str, Any]] = json.loads(row["abilities_json"])
    items.sort(key=lambda item: str(item["key"]))
    return items


def is_unique_violation(error: sqlite3.IntegrityError, column: str) -> bool:
    message = str(error)
    return "UNIQUE constraint failed" in message and column in message


def character_of_row(row: sqlite3.Row, abilities: tuple[Ability, ...]) -> StoredCharacter:
    return StoredCharacter(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        owner_id=int(row["owner_id"]),
        health=health_from_row(row),
        abilities=abilities,
        gender=gender_from_value(row["gender"]),
        stability=None if row["stability_rating"] is None else stability_from_row(row),
        numbers=numbers_from_value(row["numbers"]),
    )


def settings_of_row(guild_id: int, row: RowLike | None) -> GuildSettings:
    if row is None:
        return GuildSettings(guild_id=guild_id)
    return GuildSettings(
        guild_id=guild_id,
        gm_role_id=row["gm_role_id"],
        channel_id=row["channel_id"],
        language=row["language"],
    )


@dataclass(frozen=True)
class StoredRow:
    """A character exactly as stored: its snapshot, and the stored ``name_key`` of each of
    its abilities (in the order of ``snapshot["abilities"]``, which is sorted by it).

    Never changed in place: a write makes a new one (a ``before`` may share its parts).
    """

    snapshot: Snapshot
    keys: tuple[str, ...]

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> StoredRow:
        """From a row read with ``ABILITIES_JSON``."""
        return cls.read(row)[0]

    @classmethod
    def read(cls, row: sqlite3.Row) -> tuple[StoredRow, StoredCharacter]:
        """From a row read with ``ABILITIES_JSON``, with the character it holds."""
        items = abilities_of(row)
        abilities = tuple(ability_from_row(item) for item in items)
        snapshot = make_snapshot(row, [ability_to_row(ability) for ability in abilities])
        stored = cls(snapshot, tuple(str(item["key"]) for item in items))
        return stored, character_of_row(row, abilities)

    @classmethod
    def new(cls, fields: Mapping[str, Any]) -> StoredRow:
        """A row without abilities from its column values (``CHARACTER_COLUMNS``)."""
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

    def with_health(self, health: dict[str, Any]) -> StoredRow:
        return StoredRow({**self.snapshot, "health": health}, self.keys)

    def with_stability(self, stability: Mapping[str, Any]) -> StoredRow:
        """With these Stability columns (``stability_rating`` None: without Stability)."""
        snapshot = {key: value for key, value in self.snapshot.items() if key != "stability"}
        if stability["stability_rating"] is not None:
            snapshot["stability"] = dict(stability)
        return StoredRow(snapshot, self.keys)

    def with_abilities(self, abilities: Mapping[str, dict[str, Any]]) -> StoredRow:
        """With these ability rows (by name_key), in name_key order as a read gives them."""
        keys = sorted(abilities)
        return StoredRow({**self.snapshot, "abilities": [abilities[k] for k in keys]}, tuple(keys))


def abilities_by_key(abilities: Iterable[Ability]) -> dict[str, dict[str, Any]]:
    """Ability rows by name_key; two names equal ignoring case are a ``ValueError``."""
    rows: dict[str, dict[str, Any]] = {}
    for ability in abilities:
        key = name_key(ability.name)
        if key in rows:
            raise ValueError("two abilities with the same name (ignoring case)")
        rows[key] = ability_to_row(ability)
    return rows


#: A character (``c``) of a guild, other than one, whose name shares a key with a name's
#: (parameters: guild, look key, guild, typed look key, the id left out): SQLite answers it
#: with both keys' indexes (a MULTI-INDEX OR), never a scan.
#: Every character of a server as the options resolve them (``NameIndex``).
SELECT_NAMES = (
    "SELECT id, name, name_key, owner_id, gender, stability_rating IS NOT NULL AS stable,"
    " numbers"
    " FROM characters WHERE guild_id = ? ORDER BY name_key, id"
)

#: The characters whose name is the same as, or looks like, another's of the server (the
#: guild's id thrice); an empty key (a row written without it) is no key.
LOOKALIKE_IDS = (
    "SELECT id FROM characters WHERE guild_id = ? AND (look_key IN"
    " (SELECT look_key FROM characters WHERE guild_id = ? AND look_key != ''"
    " GROUP BY look_key HAVING count(*) > 1) OR typed_look_key IN"
    " (SELECT typed_look_key FROM characters WHERE guild_id = ? AND typed_look_key != ''"
    " GROUP BY typed_look_key HAVING count(*) > 1))"
)

LOOKALIKE_WHERE = (
    "((c.guild_id = ? AND c.look_key = ?) OR (c.guild_id = ? AND c.typed_look_key = ?))"
    " AND c.id != ?"
)
#: The columns a character's name is stored under, besides the name (``bot.storage.names``).
NAME_KEY_COLUMNS = ("name_key", "look_key", "typed_look_key", "reading_key_es", "reading_key_en")


def name_keys(name: str) -> tuple[str, str, str, str, str]:
    """The values of ``NAME_KEY_COLUMNS`` for ``name``."""
    return (
        name_key(name),
        look_key(name),
        typed_look_key(name),
        reading_key_es(name),
        reading_key_en(name),
    )


def character_columns(
    fields: Mapping[str, Any], health: Mapping[str, Any], stability: Mapping[str, Any]
) -> tuple[list[str], list[Any]]:
    """The columns of a character row beside its ids, and their values: ``fields``' name,
    owner, creation time, gender and numbers (those two may be left out: NULL), the name's
    keys worked out from the name, then Health's and Stability's columns."""
    name = str(fields["name"])
    columns = ["name", *NAME_KEY_COLUMNS, "owner_id", "created_at", "gender", "numbers"]
    values: list[Any] = [name, *name_keys(name), fields["owner_id"], fields["created_at"]]
    values += [fields.get("gender"), fields.get("numbers")]
    return [*columns, *HEALTH_COLUMNS, *STABILITY_COLUMNS], [
        *values,
        *(health[c] for c in HEALTH_COLUMNS),
        *(stability[c] for c in STABILITY_COLUMNS),
    ]


#: How many of a guild (its one parameter, then the death threshold) are out of play: read
#: from that index alone.
COUNT_OUT_OF_PLAY = (
    "(SELECT count(*) FROM characters AS c INDEXED BY characters_out_of_play"
    f" WHERE c.guild_id = ? AND {OUT_OF_PLAY})"
)
