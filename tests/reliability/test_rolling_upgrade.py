# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""A rolling upgrade: two versions of Salud on one file (issue 24 point 12).

A process of this version serves while another, newer, migrates the database past the
schema this one knows: a second bot process on the other shard running a newer copy of
``bot/`` (this code with one more migration), or the test itself adding a column and raising
``user_version`` in one transaction, as a migration does. Last round the
older process went on writing: 5 of its next 6 commands answered "something went wrong" and
the one that went through stored history number 0. Now its next transaction notices,
stores nothing, answers "restarting", and the process exits 2 with a line saying that a
newer Salud upgraded the database.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from devkit.fake_discord import FakeDiscord
from devkit.harness import BotProcess
from tests.e2e.kit import create
from tests.e2e.kit.db import read_only
from tests.e2e.kit.shards import guild_on
from tests.reliability.support import (
    NEWER,
    RESTARTING,
    UNEXPECTED,
    isolated_bot,
    newer_salud,
    said,
    salud_command,
)


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


def _version(path: Path) -> int:
    with read_only(path, timeout=10) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


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


def _shard_process(fake: FakeDiscord, tmp: Path, shard: int, code: Path | None) -> BotProcess:
    """A bot process for ``shard`` of 2 on the shared file; ``code``: where its ``bot/`` is
    (None: this tree's)."""
    return BotProcess(
        fake,
        command=salud_command(code),
        database_path=tmp / "shared.sqlite3",
        log_path=tmp / f"shard{shard}.log",
        extra_env={"SHARD_COUNT": "2", "SHARD_IDS": str(shard)},
    )


async def test_two_versions_on_one_file_during_a_rolling_upgrade(tmp_path: Path) -> None:
    """Shard 0 runs this version; shard 1 is restarted as a newer one, whose start migrates
    the shared file: shard 0's next command stores nothing and it exits 2; the newer one
    goes on serving, and the history numbers stay in order."""
    fake = FakeDiscord(app_name="Salud")
    await fake.start()
    older = _shard_process(fake, tmp_path, 0, None)
    newer = _shard_process(fake, tmp_path, 1, await asyncio.to_thread(newer_salud, tmp_path))
    try:
        zero, one = await guild_on(fake, 0, 2), await guild_on(fake, 1, 2)
        await older.start()
        await create(fake, zero, zero.owner, "Ana", 10)
        served = await fake.slash(zero, zero.owner, "hurt", {"character": "Ana", "amount": "1"})
        assert served.embeds and not served.ephemeral, served.record.summary()

        await newer.start()  # migrates the shared file past what the older one knows
        await newer.wait_for_log("Ready as", 20)
        assert _version(older.database_path) == NEWER, newer.log_tail()
        await create(fake, one, one.owner, "Bea", 10)
        stored = _history(older.database_path)

        refused = await fake.slash(zero, zero.owner, "hurt", {"character": "Ana", "amount": "1"})
        assert RESTARTING in said(refused) and not refused.embeds, said(refused)
        assert await _exit_code(older, 10.0) == 2, older.log_tail()
        assert "salud: a newer Salud upgraded the database" in older.log_text()
        assert _history(older.database_path) == stored, "the older process stored a change"

        again = await fake.slash(one, one.owner, "hurt", {"character": "Bea", "amount": "2"})
        assert again.embeds and not again.ephemeral, again.record.summary()
        with read_only(older.database_path, timeout=10) as conn:
            numbers = {
                int(guild): [int(row[0]) for row in rows]
                for guild in (zero.id, one.id)
                for rows in [
                    conn.execute(
                        "SELECT number FROM history WHERE guild_id = ? ORDER BY id", (guild,)
                    ).fetchall()
                ]
            }
        assert numbers == {int(zero.id): [1, 2], int(one.id): [1, 2]}, numbers
        for bot in (older, newer):
            assert bot.new_tracebacks() == [], bot.log_tail()
    finally:
        for bot in (older, newer):
            await bot.stop()
        await fake.stop()
