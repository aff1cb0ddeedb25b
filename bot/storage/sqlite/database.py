"""The one SQLite connection: pragmas and numbered migrations tracked with ``user_version``."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from bot.storage.errors import MigrationError
from bot.storage.key_versions import SQL_FUNCTIONS

__all__ = [
    "BUSY_TIMEOUT_MS",
    "Migration",
    "apply_migrations",
    "connect",
    "latest_version",
    "load_migrations",
    "schema_version",
    "split_statements",
]

BUSY_TIMEOUT_MS = 5000
#: Tries of ``journal_mode = WAL`` when another process holds the lock it needs.
WAL_ATTEMPTS = 10
WAL_RETRY_SECONDS = 0.05

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    """One schema step: ``version`` is its number, applied once when ``user_version`` is lower."""

    version: int
    name: str
    sql: str


def load_migrations(
    package: str = "bot.storage.sqlite", folder: str = "migrations"
) -> list[Migration]:
    """The migrations shipped as package data, in order; numbering must run 1, 2, 3 … gap-free."""
    root = resources.files(package).joinpath(folder)
    found: list[Migration] = []
    for entry in root.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migration {migration.name} out of sequence (expected {expected})"
            )
    return found


def latest_version(migrations: list[Migration] | None = None) -> int:
    """The schema version this code expects."""
    chosen = load_migrations() if migrations is None else migrations
    return chosen[-1].version if chosen else 0


async def schema_version(conn: aiosqlite.Connection) -> int:
    """``PRAGMA user_version`` of the open database."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


def split_statements(sql: str) -> list[str]:
    """The statements of a migration file, one by one (``sqlite3.complete_statement`` knows
    where a trigger's ``BEGIN … END`` ends), so that they can run inside a transaction that
    the caller opened: ``executescript`` would commit it first."""
    statements: list[str] = []
    pending = ""
    for piece in sql.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \t\r\n;"):
                statements.append(pending.strip())
            pending = ""
    if pending.strip(" \t\r\n;"):
        raise MigrationError(f"incomplete SQL statement at the end: {pending.strip()[:80]!r}")
    return statements


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: list[Migration] | None = None
) -> int:
    """Apply every migration newer than ``user_version``, all in one ``BEGIN IMMEDIATE``.

    The version is read inside that transaction, so two processes starting together on one
    file cannot both apply a migration (the second waits for the write lock, then reads the
    version the first committed). ``user_version`` is written in the same transaction: a failed
    migration leaves the file at the previous version. Returns the final version.
    """
    chosen = load_migrations() if migrations is None else migrations
    target = latest_version(chosen)
    await conn.execute("BEGIN IMMEDIATE")
    try:
        current = await schema_version(conn)
        if current > target:
            raise MigrationError(f"database schema {current} is newer than this code ({target})")
        for migration in chosen:
            if migration.version <= current:
                continue
            for statement in split_statements(migration.sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {migration.version}")
            current = migration.version
        await conn.commit()
    except BaseException:
        await conn.rollback()
        raise
    return current


async def _switch_to_wal(conn: aiosqlite.Connection, target: Path) -> None:
    """``journal_mode = WAL``, retried: changing the mode needs a lock that the busy handler
    does not always wait for when processes start together (SQLITE-NOTES.md)."""
    for attempt in range(WAL_ATTEMPTS):
        try:
            async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
                row = await cursor.fetchone()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == WAL_ATTEMPTS - 1:
                raise
            await asyncio.sleep(WAL_RETRY_SECONDS * (attempt + 1))
            continue
        if row is not None and str(row[0]).lower() == "wal":
            return
        raise MigrationError(f"could not switch {target} to WAL mode (got {row!r})")


async def connect(path: str | Path) -> aiosqlite.Connection:
    """Open the database file (creating its folder) with the pragmas the bot relies on."""
    target = Path(path)
    await asyncio.to_thread(target.parent.mkdir, parents=True, exist_ok=True)
    # isolation_level=None: no implicit transactions; Storage issues BEGIN/COMMIT itself.
    conn = await aiosqlite.connect(target, isolation_level=None)
    conn.row_factory = aiosqlite.Row
    try:
        # busy_timeout first: every later statement may meet another process's lock.
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # The frozen key versions the migrations compute keys with (key_versions.py).
        for sql_name, function in SQL_FUNCTIONS.items():
            await conn.create_function(sql_name, 1, function, deterministic=True)
        await _switch_to_wal(conn, target)
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        await conn.close()
        raise
    return conn
