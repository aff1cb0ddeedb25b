"""The one SQLite connection: pragmas and numbered migrations tracked with ``user_version``."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from bot.names import look_key
from bot.storage.errors import MigrationError

__all__ = [
    "BUSY_TIMEOUT_MS",
    "Migration",
    "apply_migrations",
    "connect",
    "latest_version",
    "load_migrations",
    "schema_version",
]

BUSY_TIMEOUT_MS = 5000

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    """One schema step: ``version`` is its number, applied once when ``user_version`` is lower."""

    version: int
    name: str
    sql: str


def load_migrations(package: str = "bot.storage", folder: str = "migrations") -> list[Migration]:
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


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: list[Migration] | None = None
) -> int:
    """Apply every migration newer than ``user_version``, each in its own transaction.

    ``user_version`` is written inside the same transaction, so a failed migration leaves the
    file at the previous version. Returns the final version.
    """
    chosen = load_migrations() if migrations is None else migrations
    current = await schema_version(conn)
    target = latest_version(chosen)
    if current > target:
        raise MigrationError(f"database schema {current} is newer than this code ({target})")
    for migration in chosen:
        if migration.version <= current:
            continue
        # executescript runs the whole file; BEGIN/COMMIT inside it make it one transaction
        # (sqlite3's executescript would otherwise commit between our own statements).
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{migration.sql}\n;\n"
            f"PRAGMA user_version = {migration.version};\n"
            "COMMIT;\n"
        )
        try:
            await conn.executescript(script)
        except BaseException:
            await conn.rollback()
            raise
        current = migration.version
    return current


async def connect(path: str | Path) -> aiosqlite.Connection:
    """Open the database file (creating its folder) with the pragmas the bot relies on."""
    target = Path(path)
    await asyncio.to_thread(target.parent.mkdir, parents=True, exist_ok=True)
    # isolation_level=None: no implicit transactions; Storage issues BEGIN/COMMIT itself.
    conn = await aiosqlite.connect(target, isolation_level=None)
    conn.row_factory = aiosqlite.Row
    try:
        # Used by migration 0002 (names); deterministic, so SQLite may use it in indexes.
        await conn.create_function("salud_look_key", 1, look_key, deterministic=True)
        async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        if row is None or str(row[0]).lower() != "wal":
            raise MigrationError(f"could not switch {target} to WAL mode (got {row!r})")
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        await conn.close()
        raise
    return conn
