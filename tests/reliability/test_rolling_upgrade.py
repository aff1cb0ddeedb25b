# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""A rolling upgrade: two versions of Salud on one file (issue 24 point 12).

A process of this version serves while another, newer, migrates the database past the
schema this one knows (here the test is that newer process: it adds a column and raises
``user_version`` in one transaction, as a migration does). Last round the older process went
on writing: 5 of its next 6 commands answered "something went wrong" and the one that went
through stored history number 0. Now its next transaction notices, stores nothing, answers
"restarting", and the process exits 2 with a line saying that a newer Salud upgraded the
database.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage.database import latest_version
from devkit.harness import BotProcess
from tests.e2e.kit import create
from tests.e2e.kit.db import read_only
from tests.reliability.support import RESTARTING, UNEXPECTED, isolated_bot, said

NEWER = latest_version() + 1


def _migrate_as_a_newer_salud(path: Path) -> None:
    """What a newer Salud's start does to the file: a schema step, then its version."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ALTER TABLE history ADD COLUMN newer_salud_note TEXT")
        conn.execute(f"PRAGMA user_version = {NEWER}")
        conn.execute("COMMIT")
    finally:
        conn.close()


def _history(path: Path) -> list[tuple[int, str]]:
    with read_only(path, timeout=10) as conn:
        return [
            (int(row[0]), str(row[1]))
            for row in conn.execute("SELECT number, command FROM history ORDER BY id")
        ]


async def _exit_code(bot: BotProcess, timeout: float) -> int | None:
    assert bot.process is not None
    try:
        return await asyncio.wait_for(bot.process.wait(), timeout)
    except TimeoutError:
        return None


async def test_an_older_process_stops_when_a_newer_one_migrates_the_file(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path, name="older") as (fake, bot):
        guild = await fake.create_guild()
        gm = guild.owner
        await create(fake, guild, gm, "Ana", 10)
        first = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "1"})
        assert first.embeds and not first.ephemeral, first.record.summary()
        before = _history(bot.database_path)
        assert [number for number, _ in before] == [1, 2]

        _migrate_as_a_newer_salud(bot.database_path)
        refused = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "1"})

        assert refused.is_complete(), refused.record.summary()
        assert RESTARTING in said(refused) and UNEXPECTED not in said(refused), said(refused)
        assert not refused.embeds, "a change answered publicly"
        exit_code = await _exit_code(bot, 10.0)
        assert exit_code == 2, bot.log_tail()
        assert "salud: a newer Salud upgraded the database" in bot.log_text(), bot.log_tail()
        assert f"to schema {NEWER} (this version knows {NEWER - 1})" in bot.log_text()
        assert _history(bot.database_path) == before, "the older process stored a change"
        assert bot.new_tracebacks() == [], bot.log_tail()
