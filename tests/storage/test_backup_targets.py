"""``salud backup`` never writes over the live database or a file SQLite keeps beside it
(issue 19, point 1), however the target is spelled, nor into what it cannot replace
atomically: each is refused in one line, exit 1, and the database keeps every change."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.config.operate import OperateError, backup
from bot.storage import Storage, StoredCharacter
from bot.storage.models import NewCharacter

from .conftest import ALICE, GM, GUILD_A, GUILD_B, health
from .test_operate import PROJECT_ROOT, files_in, run_cli

#: A second process of the bot on the same file (SHARD_IDS: each process some shards), or
#: the bot started again: it opens the database after the backup, and changes a character.
SECOND_PROCESS = """
import asyncio, sys
from dataclasses import replace
from bot.storage import Storage

async def main(path: str, guild: int, first: int, count: int) -> None:
    async with await Storage.open(path) as storage:
        (ref,) = (await storage.names(guild)).characters
        for number in range(count):
            await asyncio.sleep(0.005)
            async with storage.transaction() as tx:
                now = await tx.character(ref)
                await tx.save_health(now, replace(now.health, bleed_minutes=number + 1))
                await tx.record(guild_id=guild, interaction_id=first + number, actor_id=5,
                                command="hurt")

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
"""


@pytest.fixture
async def live(db_path: Path) -> AsyncIterator[tuple[Storage, StoredCharacter]]:
    """The bot's storage, open (its -wal and -shm beside the file), with a character that
    has been changed 50 times."""
    storage = await Storage.open(db_path)
    try:
        async with storage.transaction() as tx:
            ann = await tx.create_character(NewCharacter(GUILD_A, "Ann", ALICE, health(99)))
            await tx.record(guild_id=GUILD_A, interaction_id=1, actor_id=GM, command="create")
        await changes(storage, ann, first=100, count=50)
        yield storage, ann
    finally:
        await storage.close()


async def changes(storage: Storage, ann: StoredCharacter, *, first: int, count: int) -> None:
    for number in range(count):
        async with storage.transaction() as tx:
            now = await tx.character(ann)
            await tx.save_health(now, replace(now.health, bleed_minutes=number + 1))
            await tx.record(
                guild_id=GUILD_A, interaction_id=first + number, actor_id=GM, command="h"
            )
        await asyncio.sleep(0.005)


def inode(path: Path) -> int | None:
    """The file's inode number (None: no such file): a file put in its place has another."""
    return path.stat().st_ino if path.exists() else None


def inodes(folder: Path) -> dict[str, int]:
    return {entry.name: entry.stat().st_ino for entry in folder.iterdir()}


def history_rows(path: Path) -> tuple[list[str], int]:
    """``integrity_check`` and the number of history entries, read once the bot is stopped."""
    with sqlite3.connect(path) as conn:
        try:
            problems = [str(row[0]) for row in conn.execute("PRAGMA integrity_check(3)")]
            count = int(conn.execute("SELECT count(*) FROM history").fetchone()[0])
        except sqlite3.DatabaseError as error:
            problems, count = [str(error)], -1
    conn.close()
    return problems, count


async def test_a_backup_onto_the_live_shm_is_refused_and_every_change_is_kept(
    db_path: Path, live: tuple[Storage, StoredCharacter]
) -> None:
    """Issue 19.1: the copy renamed over ``-shm`` while the bot ran. The bot kept the old
    shared memory; a process that opened the file afterwards (another shard's process, the
    bot restarted) got a new one, so the two wrote one WAL without seeing each other's locks:
    "database disk image is malformed" and the changes of one of them lost."""
    storage, ann = live
    async with storage.transaction() as tx:
        bob = await tx.create_character(NewCharacter(GUILD_B, "Bob", ALICE, health(99)))
        await tx.record(guild_id=GUILD_B, interaction_id=2, actor_id=GM, command="create")
    shm = Path(f"{db_path}-shm")
    before = inode(shm)
    try:
        await asyncio.to_thread(backup, db_path, shm)
        refusal = None
    except OperateError as error:
        refusal = str(error)
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    second = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SECOND_PROCESS,
        str(db_path),
        str(GUILD_B),
        "100000",
        "200",
        env=env,
    )
    await changes(storage, ann, first=1000, count=400)
    assert await second.wait() == 0
    await storage.close()
    problems, count = history_rows(db_path)
    assert (problems, count) == (["ok"], 2 + 50 + 400 + 200), "the database was destroyed"
    assert bob.guild_id == GUILD_B
    assert refusal is not None, "the backup wrote over the live -shm file"
    assert "\n" not in refusal and str(shm) in refusal, refusal
    assert inode(shm) in {before, None}


def spellings(db_path: Path, tmp_path: Path) -> dict[str, Path]:
    """The database and its companions, as an operator might type them."""
    folder = db_path.parent
    (tmp_path / "link-to-shm").symlink_to(Path(f"{db_path}-shm"))
    (tmp_path / "link-to-folder").symlink_to(folder, target_is_directory=True)
    os.link(db_path, tmp_path / "hard-link.sqlite3")
    return {
        "the database": db_path,
        "-wal": Path(f"{db_path}-wal"),
        "-shm": Path(f"{db_path}-shm"),
        "-journal (absent in WAL mode)": Path(f"{db_path}-journal"),
        "with ..": folder / ".." / folder.name / f"{db_path.name}-shm",
        "a symlink to -shm": tmp_path / "link-to-shm",
        "through a symlinked folder": tmp_path / "link-to-folder" / f"{db_path.name}-wal",
        "a hard link to the database": tmp_path / "hard-link.sqlite3",
    }


async def test_every_spelling_of_the_database_or_a_companion_is_refused(
    db_path: Path, tmp_path: Path, live: tuple[Storage, StoredCharacter]
) -> None:
    storage, _ann = live
    shm = Path(f"{db_path}-shm")
    identity = inodes(db_path.parent)
    for kind, target in spellings(db_path, tmp_path).items():
        with pytest.raises(OperateError) as refused:
            await asyncio.to_thread(backup, db_path, target)
        message = str(refused.value)
        assert "\n" not in message and str(target) in message, (kind, message)
        assert "database" in message, (kind, message)
    assert inodes(db_path.parent) == identity
    assert inode(shm) is not None
    await storage.close()
    assert history_rows(db_path) == (["ok"], 51)


async def test_the_cli_refuses_a_relative_spelling_of_shm_in_one_line(
    db_path: Path, live: tuple[Storage, StoredCharacter]
) -> None:
    folder = db_path.parent
    typed = f"{folder.name}/../{folder.name}/{db_path.name}-shm"
    result = await asyncio.to_thread(run_cli, "backup", typed, database=db_path, cwd=folder.parent)
    assert result.returncode == 1 and not result.stdout
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"salud backup: {typed} ")
    assert "Traceback" not in result.stderr


async def test_a_target_that_is_not_a_regular_file_is_refused(
    db_path: Path, tmp_path: Path, live: tuple[Storage, StoredCharacter]
) -> None:
    """A FIFO or a device (``/dev/null`` when run as root) would be replaced by the copy."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OperateError, match="not a regular file") as refused:
        await asyncio.to_thread(backup, db_path, fifo)
    assert "\n" not in str(refused.value)
    assert fifo.is_fifo()


async def test_a_folder_it_cannot_write_in_is_refused_in_one_line(
    db_path: Path, live: tuple[Storage, StoredCharacter]
) -> None:
    """No temporary copy can be made beside the target (``/proc`` refuses new files even to
    root), so no copy can be put in place atomically."""
    with pytest.raises(OperateError, match="cannot write in /proc") as refused:
        await asyncio.to_thread(backup, db_path, Path("/proc/salud-backup.sqlite3"))
    assert "\n" not in str(refused.value)
    assert files_in(db_path.parent) == sorted(
        [db_path.name, f"{db_path.name}-shm", f"{db_path.name}-wal"]
    )
