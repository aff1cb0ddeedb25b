"""A whole server's change over a server already past the 1,000-character cap (an older
database) lets the event loop turn between batches while it records its history entry
(issue 24 point 16b): before, recording 3,000 characters' snapshots ran 0.2–0.7 s
without a turn, and everything else of the process waited for it."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from bot.storage import BATCH_SIZE, Among, Storage
from bot.storage.sqlite.rows import NAME_KEY_COLUMNS, name_keys
from rules.scene import start_scene

from .conftest import GM, GUILD_A, Interactions

CHARACTERS = 3_000


def fill(path: Path) -> None:
    """Characters a new scene changes (Health 5 of 9, the scene started at 9)."""
    keys = ", ".join(NAME_KEY_COLUMNS)
    marks = ", ".join("?" * len(NAME_KEY_COLUMNS))
    rows = [
        (GUILD_A, name, *name_keys(name), GM)
        for name in map("Inv {:05d}".format, range(CHARACTERS))
    ]
    with sqlite3.connect(path) as conn:
        conn.executemany(
            f"INSERT INTO characters (guild_id, name, {keys}, owner_id, created_at, health,"
            " max_health, first_aid_pool, first_aid_rating, scene_start_health, conscious,"
            " roll_pending, stabilized, lowest_health, first_aid_received, bleed_minutes,"
            f" full_recovery_due) VALUES (?, ?, {marks}, ?, '2024-01-01T00:00:00+00:00', 5,"
            " 9, 0, 3, 9, 1, 0, 0, NULL, 2, 0, 0)",
            rows,
        )
    conn.close()


async def test_recording_a_whole_server_lets_the_loop_turn_between_batches(
    storage: Storage, db_path: Path, next_id: Interactions
) -> None:
    await asyncio.to_thread(fill, db_path)
    turns = 0
    running = True

    async def ticker() -> None:
        nonlocal turns
        while running:
            await asyncio.sleep(0)
            turns += 1

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    async with storage.transaction(guild_id=GUILD_A) as tx:
        after = 0
        while batch := await tx.batch_of_characters(GUILD_A, Among.LIVING, after_id=after):
            await tx.save_healths([(c, start_scene(c.health).after) for c in batch])
            after = batch[-1].id
        before = turns
        started = time.perf_counter()
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="scene new"
        )
        recording = time.perf_counter() - started
        during = turns - before
    running = False
    await ticking
    assert entry is not None and len(entry.characters) == CHARACTERS
    # Two passes over the characters (their changes, then their rows), a turn every batch.
    assert during >= 2 * (CHARACTERS // BATCH_SIZE) - 1, (
        f"the loop turned {during} times while {CHARACTERS} characters were recorded"
        f" ({recording:.2f} s)"
    )


@pytest.fixture
def engine() -> str:
    """SQLite's own behaviour (its file, connection or trips): SQLite only."""
    return "sqlite"
