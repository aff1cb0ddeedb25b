"""``kill -9`` of the bot in the middle of a burst of commands, then a restart on the same file.

SQLite's write-ahead log must leave a sound file; every command whose reply reached Discord
must be stored exactly once; none may be half-applied (each character's row is exactly where
its last history entry left it, and every entry starts where the previous one ended).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit.db import stored as character_row
from tests.reliability.support import (
    BUSY,
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
)

NAMES = ("Ana", "Bea", "Cid")


async def _burst_and_kill(
    fake: FakeDiscord,
    bot: BotProcess,
    guild: FakeGuild,
    owners: dict[str, FakeMember],
    count: int,
    kill_after: int,
) -> list[Reply]:
    """Sends ``count`` /hurt of 1, kills the bot once ``kill_after`` were answered."""
    calls = hurts_in_turn(owners, NAMES, count)
    replies = await burst(fake, guild, calls)
    await fake.wait_until(
        lambda: sum(r.is_complete() for r in replies) >= kill_after,
        30,
        what=f"{kill_after} replies before the kill",
    )
    await bot.kill9()
    unanswered = sum(not r.is_complete() for r in replies)
    assert unanswered, "the burst was over before the kill: send more, kill sooner"
    return replies


def _hurts(bot: BotProcess, guild: FakeGuild, name: str) -> int:
    row = character_row(bot.database_path, guild, name)
    return sum(e.command == "hurt" for e in entries_of(bot.database_path, row["id"]))


def _check(
    bot: BotProcess,
    guild: FakeGuild,
    replies: list[Reply],
    start: dict[str, tuple[int, int]],
) -> None:
    """``start``: each character's Health and number of /hurt entries before the burst."""
    assert integrity(bot.database_path) == ["ok"]
    ids = interaction_ids(bot.database_path)
    assert len(ids) == len(set(ids)), "an interaction was recorded twice"
    recorded = set(ids)
    answered = [r for r in replies if r.is_complete() and not is_refusal(r)]
    missing = [r.record.id for r in answered if int(r.record.id) not in recorded]
    assert not missing, f"answered on Discord but not stored: {missing}"
    # A burst beyond one server's share is refused as "busy" (COMMANDS.md), storing nothing.
    refused = [r for r in replies if is_refusal(r)]
    assert not [said(r) for r in refused if BUSY not in said(r)], "refused other than busy"
    assert not [r.record.id for r in refused if int(r.record.id) in recorded], "refused, stored"
    for name in NAMES:
        row = character_row(bot.database_path, guild, name)
        entries = entries_of(bot.database_path, row["id"])
        assert_chain(entries, row)
        health, hurts_before = start[name]
        hurts = sum(e.command == "hurt" for e in entries) - hurts_before
        assert row["health"] == health - hurts, (name, row["health"], health, hurts)


async def _crash_rounds(tmp_path: Path, rounds: int, count: int) -> None:
    async with isolated_bot(tmp_path, interaction_deadline=20.0) as (fake, bot):
        guild = await fake.create_guild()
        owners = await players_with_characters(fake, guild, NAMES)
        for _ in range(rounds):
            for name in NAMES:  # a GM's correction: every round starts from full Health
                await fake.slash(
                    guild, guild.owner, "character set", {"character": name, "health": 99}
                )
            start = {
                name: (
                    character_row(bot.database_path, guild, name)["health"],
                    _hurts(bot, guild, name),
                )
                for name in NAMES
            }
            # Killed early in a long burst, so that many commands are still on their way.
            replies = await _burst_and_kill(fake, bot, guild, owners, count, 20)
            assert not bot.running
            await bot.start()
            _check(bot, guild, replies, start)
        # The restarted bot answers as before.
        after = await fake.slash(guild, owners["Ana"], "hurt", {"character": "Ana", "amount": "1"})
        assert after.type == 4 and not after.ephemeral, after.text
        shown = await fake.slash(guild, owners["Bea"], "character show", {"character": "Bea"})
        assert not shown.ephemeral and shown.embed["title"] == "Bea"
        assert integrity(bot.database_path) == ["ok"]


async def test_kill_9_during_a_burst_loses_no_answered_command_and_half_applies_none(
    tmp_path: Path,
) -> None:
    await _crash_rounds(tmp_path, rounds=1, count=300)


@pytest.mark.stress
async def test_stress_five_kills_in_a_row(tmp_path: Path) -> None:
    await _crash_rounds(tmp_path, rounds=5, count=300)
