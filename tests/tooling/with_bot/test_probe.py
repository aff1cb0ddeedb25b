"""The devkit's probe in the bot process (``devkit/probe.py``) fails the tests it should: a die
nobody scripted, scripted dice left unrolled, a value no die of that size can show. And
``settled`` waits for what a command does after its reply."""

from __future__ import annotations

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess, RolledDie
from tests.e2e.kit import create, roll_shown, stored

#: ``error.unexpected`` in English: the reply to an exception nobody expected.
UNEXPECTED = "something went wrong on our side"


async def roll_pending(fake: FakeDiscord, guild: FakeGuild) -> None:
    """Ana at -1, a Consciousness roll pending."""
    await create(fake, guild, guild.owner, "Ana", 9)
    await fake.slash(guild, guild.owner, "hurt", {"character": "Ana", "amount": "10"})


async def test_a_die_nobody_scripted_fails_loudly_and_changes_nothing(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    await roll_pending(fake, guild)
    reply = await fake.slash(guild, guild.owner, "conscious", {"character": "Ana"})
    assert reply.ephemeral and UNEXPECTED in reply.text, reply.text
    assert len(bot.new_tracebacks()) == 1  # read here, so the test's own check does not fail
    assert "ScriptedDiceRanOut: the bot rolled a d6 that the test did not script" in (
        bot.log_tail()
    )
    assert stored(bot, guild, "Ana")["roll_pending"] == 1
    report = await bot.end_dice_report()
    assert (report.overdrawn, report.rolled) == (1, ())
    with pytest.raises(AssertionError, match="1 roll"):
        report.check()


async def test_scripted_dice_left_unrolled_fail_the_check(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    await roll_pending(fake, guild)
    await bot.script_dice(3, 4)
    reply = await fake.slash(guild, guild.owner, "conscious", {"character": "Ana"})
    assert roll_shown(reply.embed, die=3).success
    with pytest.raises(AssertionError, match=r"never rolled: \[4\]"):
        await bot.end_dice()
    assert (await bot.dice()).left == ()  # the script ended with the check


async def test_a_value_no_d6_shows_is_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    await roll_pending(fake, guild)
    await bot.script_dice(7)
    reply = await fake.slash(guild, guild.owner, "conscious", {"character": "Ana"})
    assert reply.ephemeral and UNEXPECTED in reply.text, reply.text
    assert len(bot.new_tracebacks()) == 1
    assert "ValueError: the test scripted 7: not a roll of a d6" in bot.log_tail()
    report = await bot.end_dice_report()
    assert report.refused == ((6, 7),)
    with pytest.raises(AssertionError, match="too big"):
        report.check()


async def test_real_dice_are_rolled_only_when_allowed_and_recorded(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    await roll_pending(fake, guild)
    await bot.script_dice(2)
    await bot.allow_random_dice()
    first = await fake.slash(guild, guild.owner, "conscious", {"character": "Ana"})
    second = await fake.slash(guild, guild.owner, "conscious", {"character": "Ana"})
    report = await bot.end_dice()
    assert report.rolled[0] == RolledDie(6, 2, True)  # the script first
    assert len(report.rolled) == 2 and report.rolled[1].scripted is False
    roll_shown(first.embed, die=2)
    roll_shown(second.embed, die=report.rolled[1].value)


async def test_settled_waits_for_the_work_after_the_reply(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    """A roll falls due: the message with its buttons is kept after the reply was sent."""
    await create(fake, guild, guild.owner, "Ana", 9)
    reply = await fake.slash(guild, guild.owner, "hurt", {"character": "Ana", "amount": "10"})
    work = await bot.settled(reply)
    assert any("roll_messages" in trip for trip in work.all_trips), work
    assert list(work.trips) == [reply.record.id]
