"""WAL checkpoints run in the background, never inside a command's COMMIT (issue 6: they were
the p99 of every changing command), and still keep the WAL file from growing."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.models import NewCharacter
from bot.storage.sqlite.checkpoint import Checkpointer

from .conftest import ALICE, GM, GUILD_A, Interactions, health


def wal(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + "-wal")


async def test_commits_never_checkpoint(storage: Storage) -> None:
    async with storage.read() as reader:
        rows = await reader.fetch_all("PRAGMA wal_autocheckpoint")
    assert rows[0][0] == 0


async def changes(
    storage: Storage, next_id: Interactions, count: int, *, pause: float = 0.0
) -> None:
    async with storage.transaction() as tx:
        ann = await tx.create_character(NewCharacter(GUILD_A, "Ann", ALICE, health(99)))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    for step in range(count):
        async with storage.transaction() as tx:
            current = await tx.get_character(GUILD_A, ann.id)
            assert current is not None
            changed = replace(current.health, health=98 - step % 50, bleed_minutes=step % 30)
            await tx.save_health(current, changed)
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="h")
        if pause:
            await asyncio.sleep(pause)


async def test_the_background_checkpoints_keep_the_wal_small(
    storage: Storage, db_path: Path, next_id: Interactions
) -> None:
    storage.checkpointer = Checkpointer(db_path, storage.exclusive, every=20, wal_limit=200)
    # A command every 2 ms, without a pause of a second: on the shared 2-core machine a round
    # (its fsync) can take 100 ms, and 400 commits back to back took 0.2 s in all, so the WAL
    # outgrew the limit below before the first round could end (the test failed 1 run in 5).
    await changes(storage, next_id, 400, pause=0.002)
    await storage.checkpointer.wait()
    assert storage.checkpointer.completed >= 10
    # Commits without pause: the rounds beside the writer never catch up alone.
    assert storage.checkpointer.exclusive_rounds >= 1
    # 400 commits of ~10 pages each are 16 MB of WAL without checkpoints (test below).
    assert wal(db_path).stat().st_size < 3_000_000


async def test_without_checkpoints_the_wal_grows(
    storage: Storage, db_path: Path, next_id: Interactions
) -> None:
    """The other side of the test above: it is the checkpointer that keeps the WAL small."""
    storage.checkpointer = Checkpointer(db_path, storage.exclusive, every=10**9)
    await changes(storage, next_id, 400)
    assert storage.checkpointer.completed == 0
    assert wal(db_path).stat().st_size > 10_000_000


async def test_closing_folds_the_wal_back(db_path: Path, next_id: Interactions) -> None:
    storage = await Storage.open(db_path)
    await changes(storage, next_id, 150)
    await storage.close()
    assert not wal(db_path).exists()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM history").fetchone()[0] == 151
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_a_failed_checkpoint_is_logged_and_harmless(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    @asynccontextmanager
    async def unused() -> AsyncIterator[None]:
        yield

    checkpointer = Checkpointer(tmp_path / "missing" / "folder" / "db.sqlite3", unused, every=1)
    with caplog.at_level(logging.ERROR, logger="bot.storage.sqlite.checkpoint"):
        checkpointer.committed()
        await checkpointer.wait()
    assert checkpointer.completed == 0
    assert "WAL checkpoint" in caplog.text
    await checkpointer.close()


async def test_a_stretch_of_commits_arms_one_quiet_timer_not_one_each(
    storage: Storage, db_path: Path, next_id: Interactions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Background work that does not touch the loop per commit (issue 29): the quiet timer
    is armed once for a stretch of commits and, when it fires, waits out the rest of the
    quiet after the last one; then the checkpoint runs."""
    storage.checkpointer = Checkpointer(db_path, storage.exclusive, every=10**9, quiet=0.3)
    loop = asyncio.get_running_loop()
    armed: list[float] = []
    call_later = loop.call_later

    def counted(delay: float, *args: object, **kwargs: object) -> asyncio.TimerHandle:
        if getattr(args[0], "__name__", "") == "_on_quiet":
            armed.append(delay)
        return call_later(delay, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(loop, "call_later", counted)
    await changes(storage, next_id, 30, pause=0.01)  # 31 commits over ~0.4 s: never quiet
    assert storage.checkpointer.completed == 0
    assert 1 <= len(armed) <= 3, armed  # once, then the rest of the quiet after the last
    await asyncio.sleep(0.6)
    assert storage.checkpointer.completed == 1


@pytest.fixture
def engine() -> str:
    """SQLite's own behaviour (its file, connection or trips): SQLite only."""
    return "sqlite"
