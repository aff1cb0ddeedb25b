"""Connecting to PostgreSQL and keeping its schema: numbered migrations in PostgreSQL's dialect
(``migrations/``), their version in the ``schema_version`` table, the same numbers as SQLite's.

PostgreSQL's migrations start at 12 (``0012_schema.sql`` is SQLite's schema after its
migration 12: no PostgreSQL database of Salud is older); each later SQLite migration has its
twin here with its number (``tests/storage/test_postgres_schema.py`` checks that the last
numbers agree). Processes starting together migrate once: the migration runs in one
transaction under a transaction-scoped advisory lock, and the version is read under it.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

import psycopg

from bot.storage.errors import (
    DatabaseOpenFailed,
    DatabaseUnreachable,
    DatabaseUnusable,
    MigrationError,
)

log = logging.getLogger(__name__)

__all__ = [
    "CONNECT_SECONDS",
    "PgMigration",
    "apply_migrations",
    "connect",
    "hidden",
    "latest_version",
    "load_migrations",
    "migrate",
    "server_said",
]

#: How long a connection may take before the server counts as unreachable.
CONNECT_SECONDS = 10
#: The advisory lock's key while migrating (any constant of Salud's own).
_MIGRATION_LOCK = 0x5A1D
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
#: What PostgreSQL says (SQLSTATE classes) when the server was reached but refused.
_REFUSED_BY_SERVER = ("28", "3D", "42")


@dataclass(frozen=True)
class PgMigration:
    version: int
    name: str
    sql: str


def load_migrations() -> list[PgMigration]:
    """The migrations in order, gap-free from the first."""
    root = resources.files("bot.storage.postgres").joinpath("migrations")
    found = [
        PgMigration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8"))
        for entry in root.iterdir()
        if (match := _NAME.match(entry.name)) is not None
    ]
    found.sort(key=lambda migration: migration.version)
    for expected, migration in enumerate(found, start=found[0].version if found else 1):
        if migration.version != expected:
            raise MigrationError(f"migration {migration.name} out of sequence")
    return found


def latest_version() -> int:
    return load_migrations()[-1].version


def server_said(error: BaseException) -> str:
    """What the server or libpq said, in a few words: the end of the first line of a
    connection's error (``Connection refused``, ``password authentication failed for user
    "salud"``, ``database "x" does not exist``)."""
    lines = str(error).strip().splitlines()
    return lines[0].rsplit(": ", 1)[-1].strip() if lines else type(error).__name__


def hidden(url: str) -> str:
    """The URL without its password (it goes to a log line or stderr)."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


async def connect(url: str) -> psycopg.AsyncConnection[Any]:
    """An autocommit connection (``BEGIN``/``COMMIT`` are the transaction's own statements).
    Raises ``DatabaseUnreachable`` when no server answered, ``DatabaseOpenFailed`` when one
    refused (credentials, no such database) or the URL is wrong."""
    try:
        return await psycopg.AsyncConnection.connect(
            url, autocommit=True, connect_timeout=CONNECT_SECONDS
        )
    except psycopg.ProgrammingError as error:  # a URL libpq cannot read
        raise DatabaseOpenFailed(f"DATABASE_URL is not a PostgreSQL URL ({error})") from error
    except psycopg.OperationalError as error:
        said = str(error).strip().splitlines()[-1] if str(error).strip() else repr(error)
        state = getattr(error, "sqlstate", None) or ""
        text = str(error)
        if state[:2] in _REFUSED_BY_SERVER or "authentication" in text or "does not exist" in text:
            raise DatabaseOpenFailed(f"{hidden(url)} refused the connection: {said}") from error
        raise DatabaseUnreachable(f"cannot reach {hidden(url)}: {said}") from error


async def _tables(conn: psycopg.AsyncConnection[Any]) -> set[str]:
    cursor = await conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    )
    return {str(row[0]) for row in await cursor.fetchall()}


async def apply_migrations(conn: psycopg.AsyncConnection[Any]) -> int:
    """Create or migrate the schema in one transaction; refuse (``DatabaseUnusable``, the
    database untouched) another program's tables or a schema newer than this code."""
    await conn.execute("BEGIN")
    try:
        current = await migrate(conn)
        await conn.execute("COMMIT")
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
    return current


async def migrate(conn: psycopg.AsyncConnection[Any]) -> int:
    """``apply_migrations`` inside the caller's transaction (``salud copy`` writes the schema
    and the rows it copies in one): the version this leaves."""
    migrations = load_migrations()
    target = migrations[-1].version
    await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
    tables = await _tables(conn)
    if tables and "schema_version" not in tables:
        raise DatabaseUnusable(
            "holds tables of another program (" + ", ".join(sorted(tables)[:3]) + "): "
            "give Salud an empty database of its own"
        )
    current = 0
    if tables:
        cursor = await conn.execute("SELECT max(version) FROM schema_version")
        row = await cursor.fetchone()
        current = int(row[0]) if row is not None and row[0] is not None else 0
    if current > target:
        raise DatabaseUnusable(
            f"was written by a newer Salud (schema {current}, this one knows {target}): "
            "upgrade Salud"
        )
    if not tables:
        await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    found = current
    for migration in migrations:
        if migration.version <= current:
            continue
        await conn.execute(migration.sql.encode())
        await conn.execute("DELETE FROM schema_version")
        await conn.execute("INSERT INTO schema_version VALUES (%s)", (migration.version,))
        current = migration.version
    if current != found:  # one line, from the one process that migrated
        log.info("Migrated the database's schema from version %d to %d", found, current)
    return current
