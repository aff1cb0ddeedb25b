"""``/conscious`` and the Consciousness buttons end to end (RULES.md C1–C7, H5).

Each test scripts the die the bot rolls (``bot.script_dice``) and checks the branch it names:
every reply's ``DIE + SPEND = TOTAL vs DIFFICULTY`` is parsed, the die shown must be the one
scripted, its sum and its words (success/failure) are checked, and the state shown and stored
must follow from it. Where the rule says the outcome does not depend on the die, the test
rolls the die least favourable to that outcome (1 against Difficulty 1 still succeeds; 6
against 11 still fails).
"""

from __future__ import annotations

import asyncio

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember
from devkit.fake_discord.replies import Reply
from devkit.harness import BotProcess
from tests.e2e.kit import (
    RollShown,
    assert_refused,
    create,
    field,
    gm_set,
    health_change_shown,
    health_shown,
    history_commands,
    history_count,
    permission_cast,
    replay,
    roll_shown,
    state_shown,
    stored,
)


async def wounded(
    fake: FakeDiscord,
    guild: FakeGuild,
    member: FakeMember,
    name: str,
    health: int,
    *,
    max_health: int = 9,
) -> Reply:
    """A character of ``member`` hurt down to ``health`` (a roll pending when below 0)."""
    await create(fake, guild, member, name, max_health)
    return await fake.slash(
        guild, member, "hurt", {"character": name, "amount": str(max_health - health)}
    )


def check_roll_result(
    bot: BotProcess,
    guild: FakeGuild,
    reply: Reply,
    name: str,
    before: int,
    lang: str = "en",
    *,
    die: int,
    success: bool,
) -> RollShown:
    """The roll shown is of the scripted ``die`` and ends as ``success`` says; it agrees with
    the words, the Health and the stored state."""
    roll = roll_shown(reply.embed, lang, die=die)
    assert roll.success is success, roll
    assert roll.difficulty == -before
    row = stored(bot, guild, name)
    assert row["health"] == before - roll.spend
    assert health_shown(reply.embed, lang)[0] == before - roll.spend
    assert row["roll_pending"] == 0
    assert row["conscious"] == int(success)
    return roll


async def test_C2_C5_a_roll_against_difficulty_one_always_keeps_the_character_awake(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -1)
    await bot.script_dice(1)
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana"})
    assert not reply.ephemeral
    roll = check_roll_result(bot, guild, reply, "Ana", -1, die=1, success=True)
    assert (roll.spend, roll.total, roll.difficulty) == (0, 1, 1)
    assert "Success — stays conscious" in field(reply.embed, "Consciousness roll")
    assert "description" not in reply.embed, "the roll's field says it once"
    assert health_change_shown(reply.embed) == (-1, -1, 9)
    assert reply.buttons == []
    assert [(roll.sides, roll.value) for roll in (await bot.end_dice()).rolled] == [(6, 1)]
    assert history_commands(bot, guild)[-1] == ("conscious", int(reply.record.id))


async def test_C5_failure_knocks_out_is_announced_and_C6_refuses_the_unconscious(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -11)
    await fake.slash(guild, guild.owner, "config channel", {"channel": guild.announcements})
    await bot.script_dice(6)
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana"})
    roll = check_roll_result(bot, guild, reply, "Ana", -11, die=6, success=False)
    assert (roll.total, roll.difficulty) == (6, 11)
    assert "Failure — falls unconscious" in field(reply.embed, "Consciousness roll")
    assert reply.text.count("unconscious") == 1, "said once, by the roll's field"
    assert "Unconscious" in state_shown(reply.embed)
    posted = await fake.wait_channel_messages(guild.announcements.id, 1)
    assert "Failure — falls unconscious" in field(posted[-1]["embeds"][0], "Consciousness roll")

    entries = history_count(bot, guild)
    again = await fake.slash(guild, ana, "conscious", {"character": "Ana"})
    assert_refused(again, "**Ana** is unconscious", "until they come to")
    assert history_count(bot, guild) == entries


async def test_C3_spending_health_adds_to_the_die_and_makes_no_new_roll_due(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -3)
    await bot.script_dice(1)  # the lowest die: 1 + 2 still makes 3
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 2})
    roll = check_roll_result(bot, guild, reply, "Ana", -3, die=1, success=True)
    assert (roll.spend, roll.total, roll.difficulty) == (2, 3, 3)
    assert health_change_shown(reply.embed) == (-3, -5, 9), "the spend, said by the Health"
    assert "Consciousness roll pending" not in state_shown(reply.embed), "C1: no new roll due"
    assert health_shown(reply.embed) == (-5, 9)


@pytest.mark.parametrize(("die", "success"), [(2, False), (3, True)])
async def test_C2_C5_the_die_must_reach_the_difficulty(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, die: int, success: bool
) -> None:
    """At -3 the Difficulty is 3: a 2 knocks the character out, a 3 keeps them awake."""
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -3)
    await bot.script_dice(die)
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana"})
    check_roll_result(bot, guild, reply, "Ana", -3, die=die, success=success)
    words = "Success — stays conscious" if success else "Failure — falls unconscious"
    assert words in field(reply.embed, "Consciousness roll")
    assert ("Unconscious" in state_shown(reply.embed)) is not success


async def test_C3_a_spend_can_move_the_character_into_seriously_wounded(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -5)
    await bot.script_dice(4)  # 4 + 1 against 5: awake
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 1})
    assert state_shown(reply.embed).startswith("Hurt → **Seriously wounded**")
    assert reply.embed["color"] == 0xE67E22
    check_roll_result(bot, guild, reply, "Ana", -5, die=4, success=True)
    assert stored(bot, guild, "Ana")["lowest_health"] == -6


async def test_C4_a_spend_that_would_kill_is_refused_with_the_largest_legal_spend(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -10)
    entries = history_count(bot, guild)
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 2})
    assert_refused(reply, "Spending 2 Health", "**Ana**", "The most Ana can spend now is 1")
    big = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 99})
    assert_refused(big, "The most Ana can spend now is 1")
    row = stored(bot, guild, "Ana")
    assert (row["health"], row["roll_pending"], row["conscious"]) == (-10, 1, 1)
    assert history_count(bot, guild) == entries
    out_of_range = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 100})
    assert_refused(out_of_range, "spend", "0", "99")
    await bot.script_dice(6)  # the refusals rolled nothing: this is the first die
    ok = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 1})
    check_roll_result(bot, guild, ok, "Ana", -10, die=6, success=False)  # 7 against 10


async def test_C6_a_roll_without_one_pending_is_allowed_and_one_at_zero_is_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -1)
    await bot.script_dice(3, 2)
    await fake.slash(guild, ana, "conscious", {"character": "Ana"})  # clears the pending roll
    entries = history_count(bot, guild)
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana"})
    assert roll_shown(reply.embed, die=2).success
    assert history_count(bot, guild) == entries, "a roll that changes nothing stores nothing"

    await gm_set(fake, guild, "Ana", health=0)
    refused = await fake.slash(guild, ana, "conscious", {"character": "Ana"})
    assert_refused(refused, "below 0", "0")
    assert history_count(bot, guild) == entries + 1  # only the correction


async def test_H5_the_dead_make_no_roll(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -12)
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana"})
    assert_refused(reply, "**Ana** has died")
    assert stored(bot, guild, "Ana")["health"] == -12


async def test_the_character_defaults_to_the_users_only_one(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bea = guild.member("Ana"), guild.member("Bea")
    await wounded(fake, guild, ana, "Ana", -2)
    await bot.script_dice(2)
    reply = await fake.slash(guild, ana, "conscious")
    assert reply.embed["title"] == "Ana"
    check_roll_result(bot, guild, reply, "Ana", -2, die=2, success=True)
    assert_refused(await fake.slash(guild, bea, "conscious"), "no character")
    await create(fake, guild, bea, "Uno", 9)
    await create(fake, guild, bea, "Dos", 9)
    assert_refused(await fake.slash(guild, bea, "conscious"), "several", "Uno", "Dos")


async def test_permissions_owner_other_player_gm_by_manage_server_and_by_role(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bea, manager, keeper = await permission_cast(fake, guild)
    await wounded(fake, guild, ana, "Ana", -1)

    refused = await fake.slash(guild, bea, "conscious", {"character": "Ana"})
    assert_refused(refused, "Only **Ana**'s player or a GM can roll their Consciousness")
    assert stored(bot, guild, "Ana")["roll_pending"] == 1
    for member, die in ((ana, 5), (manager, 1), (keeper, 6)):
        await bot.script_dice(die)
        reply = await fake.slash(guild, member, "conscious", {"character": "Ana"})
        assert not reply.ephemeral, reply.text
        check_roll_result(bot, guild, reply, "Ana", -1, die=die, success=True)


async def test_spanish_roll_reply(fake: FakeDiscord, bot: BotProcess, make_guild: object) -> None:
    guild: FakeGuild = await make_guild(locale="es-419")  # type: ignore[operator]
    ana = guild.member("Ana", locale="es-ES")
    await wounded(fake, guild, ana, "Ana", -2)
    await bot.script_dice(1)
    reply = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 1})
    check_roll_result(bot, guild, reply, "Ana", -2, "es", die=1, success=True)  # 1 + 1 >= 2
    assert "Éxito — sigue consciente" in field(reply.embed, "Tirada de Consciencia")
    assert health_change_shown(reply.embed, "es") == (-2, -3, 9)
    refused = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 99})
    assert_refused(refused, "dejaría a **Ana** en −12", "puede gastar como mucho 8")


# --- the buttons ----------------------------------------------------------------------------------
async def test_C1_the_button_rolls_once_and_an_old_button_is_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    hurt = await wounded(fake, guild, ana, "Ana", -1)
    character_id, roll = stored(bot, guild, "Ana")["id"], stored(bot, guild, "Ana")["roll_seq"]
    await bot.script_dice(4)
    clicked = await fake.click(guild, ana, hurt, f"salud:cons:{character_id}:0:{roll}")
    # The press's response shows the pressed message's buttons disabled; the roll follows.
    assert clicked.type == 7 and all(button["disabled"] for button in clicked.buttons)
    pressed = await clicked.answer()
    assert not pressed.ephemeral
    assert pressed.message_id != hurt.message_id, "the roll is a new public message"
    check_roll_result(bot, guild, pressed, "Ana", -1, die=4, success=True)
    assert history_commands(bot, guild)[-1] == ("conscious", int(pressed.record.id))

    entries = history_count(bot, guild)
    for custom_id in (f"salud:cons:{character_id}:0:{roll}", f"salud:cons:{character_id}:1:{roll}"):
        old = await fake.click(guild, ana, hurt, custom_id)
        assert_refused(old, "no Consciousness roll pending")
    assert history_count(bot, guild) == entries
    assert stored(bot, guild, "Ana")["health"] == -1


async def test_C3_a_spend_button_spends_and_rolls(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    hurt = await wounded(fake, guild, ana, "Ana", -4)
    await bot.script_dice(1)
    clicked = await fake.click(guild, ana, hurt, hurt.button("Spend 3 Health")["custom_id"])
    pressed = await clicked.answer()
    roll = check_roll_result(bot, guild, pressed, "Ana", -4, die=1, success=True)
    assert (roll.spend, roll.total, roll.difficulty) == (3, 4, 4)
    assert health_shown(pressed.embed) == (-7, 9)


async def test_buttons_only_for_the_owner_or_a_gm(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bea = guild.member("Ana"), guild.member("Bea")
    role = guild.role("Keeper")
    keeper = guild.member("Keeper", roles=[role])
    await fake.slash(guild, guild.owner, "config gm-role", {"role": role})
    hurt = await wounded(fake, guild, ana, "Ana", -2)
    roll_id = hurt.button("Roll Consciousness")["custom_id"]
    refused = await fake.click(guild, bea, hurt, roll_id)
    assert_refused(refused, "Only **Ana**'s player or a GM")
    assert stored(bot, guild, "Ana")["roll_pending"] == 1
    await bot.script_dice(1)  # 1 against 2: the button's roll can fail too
    pressed = await (await fake.click(guild, keeper, hurt, roll_id)).answer()
    check_roll_result(bot, guild, pressed, "Ana", -2, die=1, success=False)
    assert "Failure — falls unconscious" in field(pressed.embed, "Consciousness roll")


async def test_an_old_button_is_refused_once_healed_knocked_out_or_dead(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    hurt = await wounded(fake, guild, ana, "Ana", -2)
    roll_id = hurt.button("Roll Consciousness")["custom_id"]
    await gm_set(fake, guild, "Ana", health=1)
    entries = history_count(bot, guild)
    assert_refused(await fake.click(guild, ana, hurt, roll_id), "no Consciousness roll pending")
    assert history_count(bot, guild) == entries
    await gm_set(fake, guild, "Ana", health=-3, conscious=False)
    assert_refused(await fake.click(guild, ana, hurt, roll_id), "unconscious")
    await gm_set(fake, guild, "Ana", health=-12)
    entries = history_count(bot, guild)
    assert_refused(await fake.click(guild, ana, hurt, roll_id), "**Ana** has died")
    assert history_count(bot, guild) == entries
    assert stored(bot, guild, "Ana")["health"] == -12


async def test_two_presses_at_once_roll_once(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    hurt = await wounded(fake, guild, ana, "Ana", -2)
    roll_id = hurt.button("Roll Consciousness")["custom_id"]
    spend_id = hurt.button("Spend 1 Health")["custom_id"]
    await bot.script_dice(2)  # one die only: a second roll would fail the test (end_dice)
    first, second = await asyncio.gather(
        fake.click(guild, ana, hurt, roll_id), fake.click(guild, ana, hurt, spend_id)
    )
    answers = [await first.answer(), await second.answer()]
    replies = sorted(answers, key=lambda reply: reply.ephemeral)
    assert [reply.ephemeral for reply in replies] == [False, True]
    rolled = replies[0]
    check_roll_result(bot, guild, rolled, "Ana", -2, die=2, success=True)
    assert [c for c, _ in history_commands(bot, guild)].count("conscious") == 1


async def test_a_repeated_interaction_applies_once(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await wounded(fake, guild, ana, "Ana", -3)
    await bot.script_dice(2)  # one die only: the repeat must roll none
    first = await fake.slash(guild, ana, "conscious", {"character": "Ana", "spend": 1})
    check_roll_result(bot, guild, first, "Ana", -3, die=2, success=True)
    again = await replay(fake, first)
    assert_refused(again, "already applied")
    assert stored(bot, guild, "Ana")["health"] == -4
    assert [c for c, _ in history_commands(bot, guild)].count("conscious") == 1


async def test_the_buttons_keep_working_after_a_restart(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    hurt = await wounded(fake, guild, ana, "Ana", -1)
    await bot.restart()
    await bot.script_dice(3)  # to the new process
    clicked = await fake.click(guild, ana, hurt, hurt.button("Roll Consciousness")["custom_id"])
    check_roll_result(bot, guild, await clicked.answer(), "Ana", -1, die=3, success=True)
