"""The read-only check of the database file at start (``bot.storage.sqlite.file_check``): each kind
of unusable file is refused with one line naming it and the fix, and stays byte-identical."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.sqlite.database import latest_version
from bot.storage.sqlite.file_check import DatabaseFileError, check_database_file


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def salud_file(path: Path, characters: int = 200) -> None:
    """A real Salud database, folded back into one file (no -wal left)."""
    async with await Storage.open(path) as storage, storage.transaction() as tx:
        for number in range(characters):
            await tx.set_meta(f"filler-{number}", "x" * 200)


def execute(path: Path, *statements: str) -> None:
    """Runs ``statements`` on the file with plain sqlite3 (as another program would), committed
    and closed."""
    with sqlite3.connect(path) as conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()


def assert_refused(path: Path, *words: str) -> DatabaseFileError:
    before = digest(path)
    with pytest.raises(DatabaseFileError) as caught:
        check_database_file(path, latest_version())
    message = str(caught.value)
    assert "\n" not in message and str(path) in message, message
    for word in words:
        assert word in message, message
    assert digest(path) == before, "the refused file was modified"
    return caught.value


def test_a_missing_or_empty_file_is_fresh(tmp_path: Path) -> None:
    assert check_database_file(tmp_path / "none.sqlite3", latest_version()).fresh
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    assert check_database_file(empty, latest_version()).fresh


async def test_a_salud_file_passes(tmp_path: Path) -> None:
    path = tmp_path / "ok.sqlite3"
    await salud_file(path)
    report = check_database_file(path, latest_version())
    assert report.version == latest_version() and not report.fresh


def test_a_text_file_is_not_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("DISCORD_TOKEN=abc\n" * 100)
    assert_refused(path, "not an SQLite database", "DATABASE_PATH")


async def test_a_truncated_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.sqlite3"
    await salud_file(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert_refused(path, "damaged", "backup")


async def test_a_file_cut_inside_its_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.sqlite3"
    await salud_file(path)
    path.write_bytes(path.read_bytes()[:60])
    assert_refused(path, "damaged")


async def test_a_damaged_page_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    await salud_file(path)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[3 * page : 3 * page + 100] = b"\xff" * 100  # a b-tree page's header destroyed
    path.write_bytes(bytes(data))
    assert_refused(path, "damaged")


def test_another_programs_tables_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    execute(
        path,
        "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)",
        "INSERT INTO invoices (total) VALUES (9.5)",
    )
    assert_refused(path, "another program's tables")


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    await salud_file(path)
    execute(path, f"PRAGMA user_version = {latest_version() + 1}")
    assert_refused(path, "newer version of Salud")


async def test_storage_open_refuses_before_writing(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    await salud_file(path)
    execute(
        path,
        "PRAGMA journal_mode = DELETE",  # what switching to WAL would change
        f"PRAGMA user_version = {latest_version() + 1}",
    )
    before = digest(path)
    with pytest.raises(DatabaseFileError):
        await Storage.open(path)
    assert digest(path) == before
