"""``salud check`` and ``salud backup`` on real database files: what they accept, what they
refuse in one line, and that ``check`` never writes."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config.operate import OperateError, backup, check, database_path, main
from bot.config.settings import DEFAULT_DATABASE_PATH
from bot.storage import Storage
from bot.storage.models import NewCharacter
from bot.storage.sqlite.database import latest_version

from .conftest import ALICE, GM, GUILD_A, GUILD_B, Interactions, health

PROJECT_ROOT = Path(__file__).resolve().parents[2]


async def filled(path: Path, next_id: Interactions, per_guild: int = 3) -> Path:
    """A database with ``per_guild`` characters in each of two servers."""
    async with await Storage.open(path) as storage:
        for guild in (GUILD_A, GUILD_B):
            for number in range(per_guild):
                async with storage.transaction() as tx:
                    await tx.create_character(
                        NewCharacter(guild, f"Investigator {number}", ALICE, health())
                    )
                    await tx.record(
                        guild_id=guild, interaction_id=next_id(), actor_id=GM, command="create"
                    )
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def files_in(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir())


def run_cli(
    *args: str, database: Path | None = None, cwd: Path, **environ: str
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` with DATABASE_PATH (or the ``environ`` given: DATABASE_URL) and
    no token, as an operator runs it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    if database is not None:
        env["DATABASE_PATH"] = str(database)
    env.update(environ, PYTHONPATH=str(PROJECT_ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_database_path_reads_the_setting_like_the_bot() -> None:
    assert database_path({}) == Path(DEFAULT_DATABASE_PATH)
    assert database_path({"DATABASE_PATH": "  /srv/salud/bot.sqlite3 "}) == Path(
        "/srv/salud/bot.sqlite3"
    )


async def test_check_reports_a_sound_database_and_leaves_it_untouched(
    tmp_path: Path, next_id: Interactions
) -> None:
    path = await filled(tmp_path / "bot.sqlite3", next_id)
    before = digest(path)
    report = check(path)
    assert (report.schema_version, report.expected_version) == (latest_version(),) * 2
    assert (report.characters, report.servers) == (6, 2)
    assert digest(path) == before
    assert files_in(tmp_path) == ["bot.sqlite3"], "check left files behind"


async def test_check_reads_a_database_in_use_through_its_wal(
    tmp_path: Path, next_id: Interactions
) -> None:
    path = tmp_path / "bot.sqlite3"
    async with await Storage.open(path) as storage:
        async with storage.transaction() as tx:
            await tx.create_character(NewCharacter(GUILD_A, "Ana", ALICE, health()))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
        assert f"{path.name}-wal" in files_in(tmp_path)
        main_file = digest(path)
        report = check(path)
        assert digest(path) == main_file
    assert report.characters == 1, "the committed character is in the WAL, not yet the file"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"", "not an SQLite database"),
        (b"name,health\nAna,9\n", "not an SQLite database"),
    ],
)
def test_check_refuses_what_is_not_a_database(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "bot.sqlite3"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(OperateError, match=message):
        check(path)
    if content is None:
        assert not path.exists(), "check created the file"
    else:
        assert path.read_bytes() == content


def test_check_refuses_an_sqlite_file_of_another_program(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    with pytest.raises(OperateError, match="not a Salud database"):
        check(path)


async def test_check_refuses_a_newer_schema(tmp_path: Path, next_id: Interactions) -> None:
    path = await filled(tmp_path / "bot.sqlite3", next_id)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    conn.close()
    with pytest.raises(OperateError, match="newer than this Salud"):
        check(path)


async def test_check_finds_damage(tmp_path: Path, next_id: Interactions) -> None:
    path = await filled(tmp_path / "bot.sqlite3", next_id, per_guild=200)
    conn = sqlite3.connect(path)
    page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    conn.close()
    data = bytearray(path.read_bytes())
    pages = len(data) // page_size
    assert pages > 8
    # Garbage over the pages after the schema's: table and index b-trees.
    for page in range(pages // 2, pages // 2 + 3):
        data[page * page_size : (page + 1) * page_size] = b"\xa5" * page_size
    path.write_bytes(bytes(data))
    with pytest.raises(OperateError, match=r"damaged|cannot be read"):
        check(path)


async def test_backup_is_one_checked_self_contained_file(
    tmp_path: Path, next_id: Interactions
) -> None:
    path = await filled(tmp_path / "bot.sqlite3", next_id)
    folder = tmp_path / "backups"
    folder.mkdir()
    report = backup(path, folder, now=datetime(2026, 12, 1, 9, 30, 5, tzinfo=UTC))
    copy = folder / "salud-20261201-093005.sqlite3"
    assert report.path == copy
    assert (report.characters, report.servers) == (6, 2)
    assert report.size_bytes == copy.stat().st_size
    assert files_in(folder) == [copy.name], "a partial file was left"
    conn = sqlite3.connect(copy)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    names = sorted(row[0] for row in conn.execute("SELECT name FROM characters"))
    conn.close()
    assert names == sorted([f"Investigator {n}" for n in range(3)] * 2)


async def test_backup_refuses_to_overwrite_the_database(
    tmp_path: Path, next_id: Interactions
) -> None:
    path = await filled(tmp_path / "bot.sqlite3", next_id)
    before = digest(path)
    with pytest.raises(OperateError, match="the database itself"):
        backup(path, path)
    with pytest.raises(OperateError, match="no such folder"):
        backup(path, tmp_path / "missing" / "copy.sqlite3")
    assert digest(path) == before


async def test_cli_prints_one_line_and_exits_by_outcome(
    tmp_path: Path, next_id: Interactions
) -> None:
    path = await filled(tmp_path / "bot.sqlite3", next_id)
    checked = run_cli("check", database=path, cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.count("\n") == 1 and not checked.stderr
    assert (
        "integrity ok" in checked.stdout
        and f"schema version {latest_version()} (current)" in checked.stdout
    )
    assert "6 characters in 2 servers" in checked.stdout

    saved = run_cli("backup", "copy.sqlite3", database=path, cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.startswith("salud backup: wrote copy.sqlite3 (")
    assert saved.stdout.count("\n") == 1 and "6 characters in 2 servers" in saved.stdout
    assert check(tmp_path / "copy.sqlite3").characters == 6

    missing = run_cli("check", database=tmp_path / "nothing.sqlite3", cwd=tmp_path)
    assert missing.returncode == 1 and not missing.stdout
    assert missing.stderr.count("\n") == 1 and "no such file" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_main_refuses_a_bad_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["backup"], environ={})
    assert exit_info.value.code == 2
    assert "required: path" in capsys.readouterr().err


def damage(path: Path) -> None:
    """Garbage over some b-tree pages, in the middle of the file."""
    conn = sqlite3.connect(path)
    page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    conn.close()
    data = bytearray(path.read_bytes())
    pages = len(data) // page_size
    for page in range(pages // 2, pages // 2 + 3):
        data[page * page_size : (page + 1) * page_size] = b"\xa5" * page_size
    path.write_bytes(bytes(data))


async def test_backup_of_a_damaged_database_is_one_line_naming_it_and_writes_nothing(
    tmp_path: Path, next_id: Interactions
) -> None:
    """Issue 19.9: it answered in 6 lines (SQLite's report holds line breaks) naming the copy
    it never wrote."""
    path = await filled(tmp_path / "bot.sqlite3", next_id, per_guild=200)
    damage(path)
    before = digest(path)
    result = run_cli("backup", "copy.sqlite3", database=path, cwd=tmp_path)
    assert result.returncode == 1 and not result.stdout
    assert result.stderr.count("\n") == 1, result.stderr
    line = result.stderr
    assert line.startswith(f"salud backup: {path} is damaged"), line
    assert "copy.sqlite3" not in line and "no copy was written" in line
    assert "Restore it from a backup" in line
    assert files_in(tmp_path) == ["bot.sqlite3"]
    assert digest(path) == before
    checked = run_cli("check", database=path, cwd=tmp_path)
    assert checked.returncode == 1 and checked.stderr.count("\n") == 1, checked.stderr
    assert checked.stderr.startswith(f"salud check: {path} is damaged (integrity check: ")


async def a_crashed_bots_files(tmp_path: Path, next_id: Interactions) -> Path:
    """The database and its ``-wal`` as a bot killed with committed changes in the WAL leaves
    them, without the ``-shm`` (a copied folder, or one cleaned by hand)."""
    running = tmp_path / "running" / "bot.sqlite3"
    left = tmp_path / "left" / "bot.sqlite3"
    left.parent.mkdir()
    async with await Storage.open(running) as storage:
        await storage.checkpointer.close()  # nothing copied back: the changes stay in the WAL
        for number in range(4):
            async with storage.transaction() as tx:
                await tx.create_character(
                    NewCharacter(GUILD_A, f"Investigator {number}", ALICE, health())
                )
                await tx.record(
                    guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c"
                )
        copy_files(running, left)
    return left


def copy_files(source: Path, target: Path) -> None:
    """The database file and its ``-wal``, as they are now."""
    for suffix in ("", "-wal"):
        Path(f"{target}{suffix}").write_bytes(Path(f"{source}{suffix}").read_bytes())


async def test_check_of_a_database_with_a_wal_and_no_shm_leaves_nothing_behind(
    tmp_path: Path, next_id: Interactions
) -> None:
    """Issue 19.9: a read-only connection made a ``-shm`` it could not remove."""
    path = await a_crashed_bots_files(tmp_path, next_id)
    files = files_in(path.parent)
    digests = {name: digest(path.parent / name) for name in files}
    assert files == ["bot.sqlite3", "bot.sqlite3-wal"]
    report = check(path)
    assert report.characters == 4, "the committed changes in the WAL are read"
    assert files_in(path.parent) == files, "check left a file behind"
    assert {name: digest(path.parent / name) for name in files} == digests
    copy = backup(path, tmp_path / "copy.sqlite3")
    assert copy.characters == 4 and files_in(path.parent) == files
