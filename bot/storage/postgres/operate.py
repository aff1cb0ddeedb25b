"""What ``salud backup PATH`` and ``salud check`` do with ``DATABASE_URL`` (the command line is
``bot/config/operate.py``; SQLite's are ``bot/storage/sqlite/operate.py``).

- ``backup`` is ``salud copy`` of the PostgreSQL database (one ``REPEATABLE READ READ ONLY``
  snapshot) into a new SQLite file beside the target, whose integrity is then checked as
  ``salud check`` checks a file, renamed into place once sound: a self-contained file (no
  ``-wal``) on which any Salud of this schema or newer starts.
- ``check`` reads the database in one read-only snapshot: its schema version, then the
  soundness of its rows, what a file's ``integrity_check`` and foreign keys would catch and
  the rules' own invariants: every reference resolves (abilities, history's undo links and
  characters, places; a roll message may outlive its character until swept, or until the
  deletion is undone), numbers are in range (history numbers from 1, ability
  ratings and pools from 0), every character's Health is one the rules can reach
  (``rules.character.inconsistencies``). The first problem found is the line.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from bot.storage.copy import copy_database
from bot.storage.postgres.copy_end import not_connected
from bot.storage.postgres.schema import hidden, latest_version
from bot.storage.reports import DatabaseReport, OperateError
from bot.storage.snapshot import HEALTH_COLUMNS, health_from_row
from bot.storage.sqlite import operate as sqlite_operate
from bot.storage.sqlite.operate import COUNT_SERVERS
from rules.character import inconsistencies

__all__ = ["backup", "check"]

#: Rows that break the schema's meaning: what each is, the tables it reads (a schema older
#: than this code's may lack some), and the query that counts them.
_BROKEN_ROWS = (
    (
        "abilities of a missing character",
        ("abilities", "characters"),
        "SELECT count(*) FROM abilities AS a"
        " WHERE NOT EXISTS (SELECT 1 FROM characters AS c WHERE c.id = a.character_id)",
    ),
    (
        "history entries undoing a missing entry",
        ("history",),
        "SELECT count(*) FROM history AS h WHERE h.undo_of IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM history AS o WHERE o.id = h.undo_of)",
    ),
    (
        "history entries undone by a missing entry",
        ("history",),
        "SELECT count(*) FROM history AS h WHERE h.undone_by IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM history AS o WHERE o.id = h.undone_by)",
    ),
    (
        "history characters of a missing entry",
        ("history_characters", "history"),
        "SELECT count(*) FROM history_characters AS hc"
        " WHERE NOT EXISTS (SELECT 1 FROM history AS h WHERE h.id = hc.history_id)",
    ),
    (
        "places bound to a missing table",
        ("table_places", "game_tables"),
        "SELECT count(*) FROM table_places AS p"
        " WHERE NOT EXISTS (SELECT 1 FROM game_tables AS t WHERE t.id = p.table_id)",
    ),
    (
        "history entries numbered below 1",
        ("history",),
        "SELECT count(*) FROM history WHERE number < 1",
    ),
    (
        "abilities with a rating or pool below 0",
        ("abilities",),
        "SELECT count(*) FROM abilities WHERE rating < 0 OR pool < 0",
    ),
)


@contextlib.contextmanager
def _snapshot(url: str) -> Any:
    """A read-only connection inside one ``REPEATABLE READ`` snapshot."""
    try:
        conn = psycopg.connect(url, connect_timeout=10, autocommit=True, row_factory=dict_row)
    except psycopg.Error as error:
        raise not_connected(error, url) from None
    try:
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield conn
    finally:
        conn.close()


def _one(conn: psycopg.Connection[Any], query: str) -> Any:
    row = conn.execute(query.encode()).fetchone()
    return None if row is None else next(iter(row.values()))


def _version(conn: psycopg.Connection[Any], url: str, expected: int) -> int:
    found = _one(conn, "SELECT to_regclass('schema_version') IS NOT NULL")
    if not found:
        raise OperateError(
            f"{hidden(url)} holds no Salud database (no schema_version table). "
            "Check DATABASE_URL; the bot creates the schema on its first start."
        )
    version = int(_one(conn, "SELECT coalesce(max(version), 0) FROM schema_version"))
    if version > expected:
        raise OperateError(
            f"{hidden(url)} has schema version {version}, newer than this Salud's {expected}: "
            "it was written by a newer version. Update Salud."
        )
    return version


def _broken(conn: psycopg.Connection[Any]) -> str | None:
    """The first unsound thing the rows hold, in words; None when they are sound. A schema
    older than this code's lacks some tables: their rows are checked once the bot made them."""
    held = {
        str(row["table_name"])
        for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    }
    for what, tables, query in _BROKEN_ROWS:
        if not set(tables) <= held:
            continue
        count = int(_one(conn, query))
        if count:
            return f"{count} {what}"
    columns = ", ".join(HEALTH_COLUMNS)
    for row in conn.execute(f"SELECT id, name, {columns} FROM characters ORDER BY id".encode()):
        problems = inconsistencies(health_from_row(row))
        if problems:
            return f"character {row['id']} ({row['name']}): {problems[0]}"
    return None


def check(url: str) -> DatabaseReport:
    """Check the PostgreSQL database read-only; raise OperateError when it is not sound."""
    expected = latest_version()
    try:
        with _snapshot(url) as conn:
            version = _version(conn, url, expected)
            problem = _broken(conn)
            if problem is not None:
                raise OperateError(
                    f"{hidden(url)} holds unsound rows: {problem}. "
                    "Restore it from a backup (salud backup) or repair those rows."
                )
            characters = int(_one(conn, "SELECT count(*) FROM characters"))
            servers = int(_one(conn, COUNT_SERVERS))
            size = int(_one(conn, "SELECT pg_database_size(current_database())"))
    except psycopg.OperationalError as error:
        raise not_connected(error, url) from None
    except psycopg.Error as error:
        said = (str(error).strip().splitlines() or [repr(error)])[0]
        raise OperateError(f"{hidden(url)} cannot be checked ({said}).") from None
    return DatabaseReport(Path(hidden(url)), size, version, expected, characters, servers)


def backup(url: str, destination: Path, *, now: datetime | None = None) -> DatabaseReport:
    """Copy the PostgreSQL database into the SQLite file ``destination`` (or a dated file in
    that folder), check the copy, and return what it holds."""
    target = sqlite_operate.backup_target(destination, now or datetime.now(UTC))
    sqlite_operate.writable_target(target)
    partial = sqlite_operate.partial_beside(target)
    try:
        asyncio.run(copy_database(url, str(partial), target_name=str(target)))
        report = sqlite_operate.sound_copy(partial, target)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return replace(report, path=target)
