"""Schema creation and upgrades on real files, and the connection's pragmas."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import MigrationError, Storage
from bot.storage.sqlite.database import (
    Migration,
    apply_migrations,
    connect,
    latest_version,
    load_migrations,
    schema_version,
    split_statements,
)
from bot.storage.sqlite.file_check import DatabaseFileError

EXPECTED_TABLES = {
    "guild_settings",
    "characters",
    "abilities",
    "history",
    "history_characters",
    "meta",
    "roll_messages",  # 0004: the messages carrying roll buttons (of every kind since 0012)
    "trackers",  # 0005: the live trackers
    "announcement_channel_lost",  # 0007: announcement channels the bot may no longer post in
    "game_tables",  # 0014: the tables of a server (issue 27)
    "table_places",  # 0014: the places bound to them
    "unkept_roll_replies",  # 0015: replies with roll buttons not kept yet
}

#: The first step of the made-up migrations below.
TABLE_A = Migration(1, "0001_a.sql", "CREATE TABLE a (x INTEGER);")


@asynccontextmanager
async def connection(path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """The bot's own connection to ``path`` (``connect``), closed however the test ends."""
    conn = await connect(path)
    try:
        yield conn
    finally:
        await conn.close()


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def file_bytes(path: Path) -> bytes:
    return path.read_bytes()


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(row[0]) for row in rows} - {"sqlite_sequence"}


def test_migrations_are_package_data_numbered_from_one() -> None:
    migrations = load_migrations()
    assert migrations, "no migration found in bot/storage/sqlite/migrations"
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name.startswith("0001_")
    assert "CREATE TABLE characters" in migrations[0].sql
    assert latest_version() == migrations[-1].version


async def test_open_creates_parent_folder_and_full_schema(db_path: Path) -> None:
    assert not db_path.parent.exists()
    async with await Storage.open(db_path):
        assert db_path.parent.exists(), "the folder of the database is created"
    assert user_version(db_path) == latest_version()
    assert tables(db_path) == EXPECTED_TABLES


async def test_reopening_does_not_reapply(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage, storage.transaction() as tx:
        await tx.set_meta("sync_hash", "abc")
    # Were 0001 applied again, CREATE TABLE would fail; the data must survive untouched.
    async with await Storage.open(db_path) as storage, storage.read() as reader:
        assert await reader.get_meta("sync_hash") == "abc"
    assert user_version(db_path) == latest_version()


async def test_a_version_0_file_with_other_tables_is_refused_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:  # another program's database
        conn.execute("CREATE TABLE unrelated (x INTEGER)")
    before = file_bytes(db_path)
    with pytest.raises(DatabaseFileError, match="another program"):
        await Storage.open(db_path)
    assert file_bytes(db_path) == before
    assert tables(db_path) == {"unrelated"}


async def test_each_step_applies_once_in_order(tmp_path: Path) -> None:
    second = Migration(2, "0002_b.sql", "CREATE TABLE b (y INTEGER); INSERT INTO b VALUES (7);")
    async with connection(tmp_path / "steps.sqlite3") as conn:
        assert await apply_migrations(conn, [TABLE_A]) == 1
        assert await apply_migrations(conn, [TABLE_A, second]) == 2  # the simulated upgrade
        assert await apply_migrations(conn, [TABLE_A, second]) == 2  # nothing left to do
        async with conn.execute("SELECT count(*) FROM b") as cursor:
            row = await cursor.fetchone()
        assert row is not None and row[0] == 1


async def test_failed_migration_leaves_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    broken = Migration(
        2, "0002_b.sql", "CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);"
    )
    async with connection(path) as conn:
        assert await apply_migrations(conn, [TABLE_A]) == 1
        with pytest.raises(sqlite3.OperationalError):
            await apply_migrations(conn, [TABLE_A, broken])
        assert await schema_version(conn) == 1
        assert not conn.in_transaction
    assert tables(path) == {"a"}  # b's CREATE TABLE was rolled back with the failed step


async def test_one_run_of_migrations_is_one_transaction(tmp_path: Path) -> None:
    path = tmp_path / "all_or_nothing.sqlite3"
    broken = Migration(2, "0002_b.sql", "INSERT INTO nowhere VALUES (1);")
    async with connection(path) as conn:
        with pytest.raises(sqlite3.OperationalError):
            await apply_migrations(conn, [TABLE_A, broken])
        assert await schema_version(conn) == 0
    assert tables(path) == set()


def test_statements_split_as_sqlite_reads_them() -> None:
    sql = (
        "CREATE TABLE t (x TEXT DEFAULT 'a;b');\n"
        "-- a comment; with a semicolon\n"
        "CREATE TRIGGER r AFTER INSERT ON t BEGIN UPDATE t SET x = 'c'; END;\n"
        ";\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[0].startswith("CREATE TABLE") and "'a;b'" in statements[0]
    assert statements[1].endswith("END;")


async def test_database_newer_than_code_is_refused_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    before = file_bytes(db_path)
    with pytest.raises(DatabaseFileError, match="newer version"):
        await Storage.open(db_path)
    assert file_bytes(db_path) == before


async def test_a_newer_schema_met_while_migrating_is_refused(tmp_path: Path) -> None:
    """The version is read again inside the migration's transaction (a race with a newer
    process that migrated after the file check)."""
    path = tmp_path / "raced.sqlite3"
    async with connection(path) as conn:
        await conn.execute("PRAGMA user_version = 9")
        with pytest.raises(MigrationError):
            await apply_migrations(conn, [Migration(1, "0001_a.sql", "CREATE TABLE a (x);")])
        assert not conn.in_transaction
    assert tables(path) == set()


def test_gap_in_numbering_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "fakepkg"
    (package / "migrations").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "migrations" / "0001_a.sql").write_text("SELECT 1;")
    (package / "migrations" / "0003_c.sql").write_text("SELECT 1;")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(MigrationError):
        load_migrations("fakepkg")


async def test_pragmas(storage: Storage) -> None:
    conn: aiosqlite.Connection = storage._conn

    async def pragma(name: str) -> object:
        async with conn.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return row[0]

    assert str(await pragma("journal_mode")).lower() == "wal"
    assert await pragma("foreign_keys") == 1
    assert await pragma("busy_timeout") == 5000
    assert await pragma("synchronous") == 1  # NORMAL


async def test_every_without_rowid_table_passes_quick_check_with_a_row(tmp_path: Path) -> None:
    """SQLite 3.40 (Debian 12's) reports false "NULL value" errors in quick_check for a
    WITHOUT ROWID table whose key columns are not declared first, and start-up refuses a
    file that fails quick_check: every such table must keep its key columns first."""
    path = tmp_path / "bot.sqlite3"
    async with await Storage.open(path):
        pass
    with sqlite3.connect(path) as conn:
        tables = [
            name
            for (name, sql) in conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type='table'"
            )
            if sql and "WITHOUT ROWID" in sql.upper()
        ]
        assert "roll_messages" in tables
        for table in tables:
            columns = conn.execute(f"PRAGMA table_info({table})").fetchall()
            # A row with a value in every column, foreign keys off: only the layout is checked.
            conn.execute("PRAGMA foreign_keys = OFF")
            values = [1 if column[2].upper().startswith("INT") else "x" for column in columns]
            conn.execute(f"INSERT INTO {table} VALUES ({', '.join('?' for _ in values)})", values)
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    assert problems == ["ok"], problems


@pytest.fixture
def engine() -> str:
    """SQLite's own behaviour (its file, connection or trips): SQLite only."""
    return "sqlite"
