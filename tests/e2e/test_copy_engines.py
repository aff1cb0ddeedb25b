"""``salud copy`` and ``salud backup`` on databases the real bot played (COMMANDS.md,
Operating): a table's evening played on SQLite (``test_postgres_engine.session``: every
command, buttons, a tracker, tables, a move and a private NPC), copied SQLite → PostgreSQL →
SQLite by the command line, keeps every row of every table, ids and counters included; a PostgreSQL
database backed up to an SQLite file starts a bot that shows the same characters."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.storage.sqlite.database import latest_version
from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.postgres import PostgresServer, running_postgres
from tests.e2e.kit.commands import gm_of
from tests.e2e.kit.processes import fake_with_bot, running_bot, running_fake
from tests.e2e.test_postgres_engine import said, session
from tests.storage.conftest import fresh_postgres_database
from tests.storage.test_operate import run_cli

#: What a played session does not reach (a lost channel, a reply under way): one row each.
UNPLAYED_ROWS = (
    "INSERT INTO announcement_channel_lost (guild_id, channel_id, status, lost_at)"
    " VALUES (1, 2, 403, '2026-01-01T00:00:00.000Z')",
    "INSERT INTO unkept_roll_replies (interaction_id, guild_id, channel_id, made_at)"
    " VALUES (3, 1, 2, '2026-01-01T00:00:00.000Z')",
)


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[PostgresServer]:
    with running_postgres() as server:
        yield server


def salud(*args: str, cwd: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as an operator runs it: no token, the given database settings."""
    return run_cli(*args, cwd=cwd, **environ)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.count("\n") == 1, done.stdout
    return done.stdout.strip()


def sqlite_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (``sqlite_sequence``'s counters too), sorted."""
    with sqlite3.connect(path) as conn:
        tables = [
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        return {t: sorted(conn.execute(f"SELECT * FROM {t}"), key=repr) for t in tables}


def sqlite_columns(path: Path, tables: list[str]) -> dict[str, list[str]]:
    with sqlite3.connect(path) as conn:
        return {t: [row[1] for row in conn.execute(f"PRAGMA table_info({t})")] for t in tables}


async def postgres_rows(
    url: str, columns: dict[str, list[str]]
) -> dict[str, list[tuple[Any, ...]]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        found: dict[str, list[tuple[Any, ...]]] = {}
        for table, names in columns.items():
            # In SQLite's column order (the engines' migrations add columns in other places).
            listed = ", ".join(names)
            cursor = await conn.execute(f"SELECT {listed} FROM {table}".encode())
            found[table] = sorted((tuple(row) for row in await cursor.fetchall()), key=repr)
        cursor = await conn.execute(
            "SELECT 'characters', last_value FROM characters_id_seq"
            " UNION ALL SELECT 'history', last_value FROM history_id_seq"
        )
        found["sqlite_sequence"] = sorted(await cursor.fetchall(), key=repr)
    return found


async def test_a_played_database_goes_to_postgresql_and_back_row_for_row(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    async with fake_with_bot(tmp_path) as (fake, bot):
        await session(fake, bot)
    played = tmp_path / "bot.sqlite3"
    with sqlite3.connect(played) as conn:
        for statement in UNPLAYED_ROWS:
            conn.execute(statement)
    before = sqlite_rows(played)
    # Every table of the schema holds rows, so a table the copy forgot would be seen missing.
    assert [table for table, rows in before.items() if not rows] == []
    url = await fresh_postgres_database(postgres_server)
    line = one_line(await asyncio.to_thread(salud, "copy", str(played), url, cwd=tmp_path))
    print("COPY LINE:", line)
    # 79 rows: meta holds the command sync's hash and its turn (processes starting together
    # take turns on that row to sync once); the private NPC is a character, two history
    # entries (two rows each) and a roll message.
    assert line == (
        "salud copy: copied 1 server, 3 characters, 28 history entries, 2 roll messages, "
        f"1 tracker, 2 tables, 79 rows in 12 tables from {played} to {url}"
    )
    tables = sorted(set(before) - {"sqlite_sequence"})
    assert await postgres_rows(url, sqlite_columns(played, tables)) == before
    back = tmp_path / "back.sqlite3"
    line = one_line(await asyncio.to_thread(salud, "copy", url, str(back), cwd=tmp_path))
    assert line.endswith(f" from {url} to {back}"), line
    assert sqlite_rows(back) == before
    # The copy is a Salud database as any other: sound, and written whole.
    checked = one_line(await asyncio.to_thread(salud, "check", cwd=tmp_path, DATABASE_URL=url))
    version = latest_version()
    assert checked.startswith(f"salud check: {url} is sound: rows sound, schema version {version}")
    refused = await asyncio.to_thread(salud, "copy", str(played), url, cwd=tmp_path)
    assert refused.returncode == 1 and refused.stdout == "", refused
    assert refused.stderr.count("\n") == 1 and "already holds Salud's data" in refused.stderr


async def character_shown(fake: FakeDiscord, guild: FakeGuild, name: str) -> dict[str, Any]:
    return said(await fake.slash(guild, gm_of(guild), "character show", {"character": name}))


async def test_a_backup_of_postgresql_starts_a_bot_that_shows_the_same(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url = await fresh_postgres_database(postgres_server)
    async with running_fake() as fake:
        on_postgres = {"DATABASE_PATH": "", "DATABASE_URL": url}
        async with running_bot(fake, tmp_path, name="pg", env=on_postgres):
            guild = await fake.create_guild(locale="es-ES")
            gm = gm_of(guild)
            await fake.slash(guild, gm, "config language", {"language": "es"})
            await fake.slash(guild, gm, "character create", {"name": "Amelia Ríos", "health": 9})
            await fake.slash(guild, gm, "hurt", {"character": "Amelia Ríos", "amount": "11"})
            shown = await character_shown(fake, guild, "Amelia Ríos")
        done = await asyncio.to_thread(
            salud, "backup", "backup.sqlite3", cwd=tmp_path, DATABASE_URL=url
        )
        line = one_line(done)
        assert line.startswith("salud backup: wrote backup.sqlite3 (") and line.endswith(
            ", 1 character in 1 server, integrity ok)"
        ), line
        checked = one_line(
            await asyncio.to_thread(
                salud, "check", cwd=tmp_path, DATABASE_PATH=str(tmp_path / "backup.sqlite3")
            )
        )
        version = latest_version()
        assert f"is sound: integrity ok, schema version {version} (current)" in checked, checked
        async with running_bot(fake, tmp_path, name="backup"):
            restored = await character_shown(fake, guild, "Amelia Ríos")
    print("SHOWN (es):", shown)
    assert restored == shown
    assert "-2 / 9" in str(shown) and "Tirada de Consciencia pendiente" in str(shown), shown
