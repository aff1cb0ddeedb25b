"""The SQLite engine's statements said to PostgreSQL, and PostgreSQL's answers said as the
SQLite engine's writers and readers expect them.

The PostgreSQL engine reuses the SQLite engine's parts (``Reader``, ``CharacterWriter``,
``HistoryRecorder``, ``SideWriter``): their SQL is standard but for a few words, which
``translate`` rewrites once per statement text (cached: no cost on the hot path after the
first time). What differs in meaning is said here too: the next history id comes from the
table's sequence, a row id from ``RETURNING id``, and a unique violation is raised as the
``sqlite3.IntegrityError`` whose message the writers recognise (``is_unique_violation``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Container, Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from bot.storage.schema_guard import with_schema_version
from bot.storage.shared_sql import (
    ABILITIES_JSON,
    INSERT_ENTRY_NEW_ID,
    OUT_OF_PLAY,
    SELECT_NEXT_HISTORY_ID,
)

__all__ = [
    "PgRow",
    "as_sqlite_error",
    "locked_server",
    "server_locks",
    "translate",
    "with_returning_id",
]

#: Whole fragments said another way in PostgreSQL.
_FRAGMENTS: tuple[tuple[str, str], ...] = (
    (
        ABILITIES_JSON,
        "(SELECT coalesce(json_agg(json_build_object('key', a.name_key, 'name', a.name,"
        " 'kind', a.kind, 'rating', a.rating, 'pool', a.pool)), '[]')::text"
        " FROM abilities AS a WHERE a.character_id = c.id) AS abilities_json",
    ),
    (
        SELECT_NEXT_HISTORY_ID,
        "SELECT nextval(pg_get_serial_sequence('history', 'id')),"
        " coalesce((SELECT max(number) FROM history WHERE guild_id = ?), 0) + 1",
    ),
    ("BEGIN IMMEDIATE", "BEGIN"),
    # The schema's version (``schema_guard``): a table here, not a pragma.
    ("(SELECT user_version FROM pragma_user_version)", "(SELECT max(version) FROM schema_version)"),
    ("SET value = CAST(CAST(value AS INTEGER)", "SET value = CAST(CAST(meta.value AS BIGINT)"),
    (
        "INSERT OR REPLACE INTO roll_messages"
        " (guild_id, character_id, kind, roll_seq, channel_id, message_id, components)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        "INSERT INTO roll_messages"
        " (guild_id, character_id, kind, roll_seq, channel_id, message_id, components)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (character_id, message_id, kind) DO UPDATE"
        " SET guild_id = EXCLUDED.guild_id, roll_seq = EXCLUDED.roll_seq,"
        " channel_id = EXCLUDED.channel_id, components = EXCLUDED.components",
    ),
    (
        "INSERT OR IGNORE INTO unkept_roll_replies"
        " (interaction_id, guild_id, channel_id, made_at) VALUES (?, ?, ?, ?)",
        "INSERT INTO unkept_roll_replies"
        " (interaction_id, guild_id, channel_id, made_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (interaction_id) DO NOTHING",
    ),
    ("AS INTEGER)", "AS BIGINT)"),
    # SQLite's "IN a_table" is "IN (SELECT … FROM a_table)" in PostgreSQL.
    (" IN touched ", " IN (SELECT message_id FROM touched) "),
    (f"NOT coalesce({OUT_OF_PLAY}, 0)", f"NOT coalesce({OUT_OF_PLAY}, FALSE)"),
    (" ELSE 1 END)", " ELSE TRUE END)"),
    # SQLite's "no limit" is LIMIT -1; PostgreSQL's is LIMIT NULL.
    ("LIMIT ?", "LIMIT nullif(?::bigint, -1)"),
)
_INDEXED_BY = re.compile(r" INDEXED BY \w+")
#: The constraints whose violation a writer answers, as SQLite names them.
_UNIQUE_AS_SQLITE = {
    "characters_name_key_unique": "characters.name_key",
    "history_interaction_id_unique": "history.interaction_id",
    "history_number": "history.guild_id, history.number",
}
#: Statements before which the server's row must be locked, and the index of its id.
_LOCKING = {
    SELECT_NEXT_HISTORY_ID: 0,
    with_schema_version(SELECT_NEXT_HISTORY_ID): 0,
    INSERT_ENTRY_NEW_ID: 0,
}
_ENSURE_SERVER = "INSERT INTO servers (guild_id) VALUES (%s) ON CONFLICT (guild_id) DO NOTHING"
_LOCK_SERVER = "SELECT guild_id FROM servers WHERE guild_id = %s FOR UPDATE"


@lru_cache(maxsize=4096)
def translate(sql: str) -> str:
    """``sql`` (the SQLite engine's) in PostgreSQL's dialect, with ``%s`` placeholders."""
    for sqlite_words, postgres_words in _FRAGMENTS:
        if sqlite_words in sql:
            sql = sql.replace(sqlite_words, postgres_words)
    sql = _INDEXED_BY.sub("", sql)
    return sql.replace("%", "%%").replace("?", "%s")


@lru_cache(maxsize=256)
def with_returning_id(sql: str) -> str:
    """An INSERT that tells the id of its row (SQLite's ``lastrowid``)."""
    return f"{sql} RETURNING id"


def server_locks(
    sql: str, params: Sequence[Any], stored: Container[Any] = ()
) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements to send before ``sql``: the lock of the server's row (``SELECT … FOR
    UPDATE``, created first unless ``stored`` says a committed transaction made sure of it:
    rows of ``servers`` are never deleted), which serialises a server's changes across
    processes, before its next history number is taken. None when no server is named."""
    where = _LOCKING.get(sql)
    if where is None or len(params) <= where or params[where] is None:
        return []
    guild = (params[where],)
    if params[where] in stored:
        return [(_LOCK_SERVER, guild)]
    return [(_ENSURE_SERVER, guild), (_LOCK_SERVER, guild)]


def locked_server(sql: str, params: Sequence[Any]) -> Any:
    """The server whose row ``server_locks`` locks before ``sql`` (None: none)."""
    where = _LOCKING.get(sql)
    return None if where is None or len(params) <= where else params[where]


def as_sqlite_error(error: psycopg.Error) -> Exception | None:
    """The ``sqlite3.IntegrityError`` a writer recognises for a unique violation it answers
    (a name taken, an interaction already recorded); None for any other error."""
    if isinstance(error, pg_errors.UniqueViolation):
        constraint = error.diag.constraint_name or ""
        column = _UNIQUE_AS_SQLITE.get(constraint, constraint)
        return sqlite3.IntegrityError(f"UNIQUE constraint failed: {column}")
    return None


class PgRow(tuple[Any, ...]):
    """A row read by column name or by position, as ``sqlite3.Row``."""

    _names: dict[str, int]

    def __new__(cls, values: Sequence[Any], names: dict[str, int]) -> PgRow:
        self = super().__new__(cls, values)
        self._names = names
        return self

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)
