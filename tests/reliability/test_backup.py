"""``salud backup`` of the real bot's database in the middle of a burst of commands, then a
restore as the README tells it: stop the bot, put the copy in place, start it again.

The copy must be a sound, consistent snapshot (every character where its last history entry
left it) that holds every command answered before the backup started.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

from devkit.fake_discord import FakeGuild
from devkit.harness import PROJECT_ROOT
from tests.e2e.kit.db import stored as character_row
from tests.reliability.support import (
    assert_chain,
    burst,
    entries_of,
    hurts_in_turn,
    integrity,
    interaction_ids,
    is_refusal,
    isolated_bot,
    players_with_characters,
    said,
    wait_all,
)

NAMES = ("Ana", "Bea", "Cid", "Dan", "Eva", "Fer")  # 100 hurts each: -1 of 99, alive
HURTS = 600
WAVE = 50


async def salud_backup(database: Path, target: Path) -> tuple[int, str, str]:
    """``python -m bot backup TARGET`` as an operator runs it beside the live bot (no token)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update({"DATABASE_PATH": str(database), "PYTHONPATH": str(PROJECT_ROOT)})
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "backup",
        str(target),
        cwd=PROJECT_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def hurts_in(path: Path, guild: FakeGuild) -> dict[str, int]:
    """How many /hurt entries each character has in the database at ``path``."""
    counts = {}
    for name in NAMES:
        row = character_row(path, guild, name)
        counts[name] = sum(e.command == "hurt" for e in entries_of(path, row["id"]))
    return counts


def restore(copy: Path, database: Path) -> None:
    """What the README says to do once the bot is stopped."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(copy, database)


def assert_consistent(path: Path, guild: FakeGuild) -> None:
    assert integrity(path) == ["ok"]
    ids = interaction_ids(path)
    assert len(ids) == len(set(ids)), "an interaction was recorded twice"
    for name in NAMES:
        row = character_row(path, guild, name)
        assert_chain(entries_of(path, row["id"]), row)
        assert row["health"] == 99 - hurts_in(path, guild)[name]


async def test_backup_during_a_burst_is_a_consistent_snapshot_that_restores(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path, interaction_deadline=30.0) as (fake, bot):
        guild = await fake.create_guild()
        owners = await players_with_characters(fake, guild, NAMES)
        calls = hurts_in_turn(owners, NAMES, HURTS)
        # In waves of 50: one that could not be answered within Discord's 3 s is refused "busy"
        # (COMMANDS.md, Busy servers); the backup runs while the later waves are stored.
        waves = [calls[start : start + WAVE] for start in range(0, len(calls), WAVE)]
        replies = await burst(fake, guild, waves[0])
        await fake.wait_until(
            lambda: sum(r.is_complete() for r in replies) >= 30, 30, what="30 replies"
        )
        answered_before = {int(r.record.id) for r in replies if r.is_complete()}
        copy = tmp_path / "backup.sqlite3"
        backing_up = asyncio.create_task(salud_backup(bot.database_path, copy))
        answered_when_done: list[int] = []
        backing_up.add_done_callback(
            lambda _: answered_when_done.append(sum(r.is_complete() for r in replies))
        )
        for wave in waves[1:]:
            await wait_all(fake, replies, 60)
            replies += await burst(fake, guild, wave)
        code, out, err = await backing_up
        assert code == 0, err
        assert out.startswith(f"salud backup: wrote {copy} (") and out.count("\n") == 1, out
        assert not err
        await wait_all(fake, replies, 60)
        assert answered_when_done[0] < HURTS, "the burst was over before the backup: send more"
        assert not [said(r) for r in replies if is_refusal(r)], "no /hurt of 1 may be refused"

        # The copy: sound, consistent, with everything answered before the backup began.
        assert_consistent(copy, guild)
        missing = answered_before - set(interaction_ids(copy))
        assert not missing, f"answered before the backup but not in the copy: {missing}"
        saved = hurts_in(copy, guild)
        final = hurts_in(bot.database_path, guild)
        assert sum(final.values()) == HURTS
        assert sum(saved.values()) < HURTS, "the copy holds commands sent after it was taken"

        # Restore: stop, replace the file (and the stopped bot's -wal/-shm, if any), start.
        assert await bot.stop() == 0
        restore(copy, bot.database_path)
        await bot.start()
        assert hurts_in(bot.database_path, guild) == saved
        for name in NAMES:
            shown = await fake.slash(guild, owners[name], "character show", {"character": name})
            assert not shown.ephemeral, shown.text
            assert shown.embed["fields"][0]["value"].startswith(f"{99 - saved[name]} / 99")
        again = await fake.slash(guild, owners["Ana"], "hurt", {"character": "Ana", "amount": "1"})
        assert not again.ephemeral, again.text
        assert character_row(bot.database_path, guild, "Ana")["health"] == 98 - saved["Ana"]
        assert_consistent(bot.database_path, guild)
