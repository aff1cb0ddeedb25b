"""The PostgreSQL engine at start-up (COMMANDS.md, *PostgreSQL at start-up*), against a real
server: the schema created once by processes starting together, with SQLite's schema
version; refused, the database left exactly as it was, when it holds another program's
tables or a newer Salud's schema; a server that cannot be reached told apart from one that
refuses; and ``python -m bot``'s exit codes and one line for each."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from bot.config.settings import SettingsError, load_settings
from bot.storage import DatabaseOpenFailed, DatabaseUnusable, open_storage
from bot.storage.errors import DatabaseUnreachable
from bot.storage.postgres.schema import latest_version as postgres_version
from bot.storage.sqlite.database import latest_version as sqlite_version
from devkit.postgres import PostgresServer

from .conftest import fresh_postgres_database

ROOT = Path(__file__).resolve().parents[2]
UNUSED = Path("unused.sqlite3")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _tables(url: str) -> dict[str, int]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        cursor = await conn.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() ORDER BY table_name"
        )
        names = [str(row[0]) for row in await cursor.fetchall()]
        counts = {}
        for name in names:
            counted = await (await conn.execute(f'SELECT count(*) FROM "{name}"')).fetchone()
            counts[name] = int(counted[0]) if counted else 0
        return counts


def test_postgresql_knows_every_sqlite_migration() -> None:
    """A migration added to SQLite needs its PostgreSQL twin with the same number."""
    assert postgres_version() == sqlite_version()


async def test_processes_starting_together_create_the_schema_once(
    postgres_server: PostgresServer,
) -> None:
    url = await fresh_postgres_database(postgres_server)
    opened = await asyncio.gather(*(open_storage(UNUSED, url) for _ in range(3)))
    for storage in opened:
        await storage.close()
    async with await psycopg.AsyncConnection.connect(url) as conn:
        rows = await (await conn.execute("SELECT version FROM schema_version")).fetchall()
    assert rows == [(sqlite_version(),)]


async def test_another_programs_tables_are_refused_and_left_as_they_were(
    postgres_server: PostgresServer,
) -> None:
    url = await fresh_postgres_database(postgres_server)
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("CREATE TABLE invoices (id INTEGER); INSERT INTO invoices VALUES (7)")
    before = await _tables(url)
    with pytest.raises(DatabaseUnusable, match="another program"):
        await open_storage(UNUSED, url)
    assert await _tables(url) == before == {"invoices": 1}


async def test_a_newer_salud_schema_is_refused_and_left_as_it_was(
    postgres_server: PostgresServer,
) -> None:
    url = await fresh_postgres_database(postgres_server)
    await (await open_storage(UNUSED, url)).close()
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("UPDATE schema_version SET version = 999")
    before = await _tables(url)
    with pytest.raises(DatabaseUnusable, match="newer Salud"):
        await open_storage(UNUSED, url)
    assert await _tables(url) == before


async def test_a_missing_database_is_refused_and_an_unreachable_server_is_unreachable(
    postgres_server: PostgresServer,
) -> None:
    missing = postgres_server.url.rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(DatabaseOpenFailed, match="refused"):
        await open_storage(UNUSED, missing)
    with pytest.raises(DatabaseUnreachable, match="cannot reach"):
        await open_storage(UNUSED, f"postgresql://salud:secret@127.0.0.1:{_closed_port()}/x")


def test_database_url_beside_database_path_or_not_postgresql_is_a_setting_error() -> None:
    token = {"DISCORD_TOKEN": "a.b.c"}
    with pytest.raises(SettingsError, match="DATABASE_URL and DATABASE_PATH"):
        load_settings({**token, "DATABASE_URL": "postgresql://h/d", "DATABASE_PATH": "x.db"})
    with pytest.raises(SettingsError, match="must be a PostgreSQL URL"):
        load_settings({**token, "DATABASE_URL": "mysql://h/d"})
    settings = load_settings({**token, "DATABASE_URL": "postgres://u:pw@h/d"})
    assert settings.database_url == "postgres://u:pw@h/d"
    assert "pw" not in repr(settings)


def _bot(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    base = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env={**base, "DISCORD_TOKEN": "a.b.c", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_bot_exits_4_for_an_unreachable_server_and_2_for_a_refusal(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    unreachable = _bot(
        {"DATABASE_URL": f"postgresql://salud:secret@127.0.0.1:{_closed_port()}/x"}, tmp_path
    )
    assert unreachable.returncode == 4, unreachable.stderr
    missing = postgres_server.url.rsplit("/", 1)[0] + "/no_such_database"
    refused = _bot({"DATABASE_URL": missing}, tmp_path)
    assert refused.returncode == 2, refused.stderr
    for result in (unreachable, refused):
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr and "secret" not in result.stderr
        assert "DATABASE_URL" in result.stderr
    assert not list(tmp_path.iterdir()), "no SQLite file made beside a PostgreSQL URL"
