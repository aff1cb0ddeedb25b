"""/time end to end: game time and bleeding (RULES.md T1, T2, C1; COMMANDS.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import (
    announcing_gm,
    assert_refused,
    correct,
    create,
    fits_discord,
    gm_of,
    gm_with,
    history_count,
    insert_characters,
    roll_shown,
    rows,
    several_lines,
    shown_back,
    stored,
)
from tests.e2e.kit import undo as confirmed_undo

# --- T1 ---------------------------------------------------------------------------------------


async def test_T1_minutes_carry_over_between_calls(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=-7)
    before = history_count(bot, guild)

    first = await fake.slash(guild, gm, "time", {"minutes": 20})
    assert not first.ephemeral
    assert first.embed["title"] == "⏳ Game time: +20 min"
    assert several_lines(first.embed)["Ana"] == (
        "**Ana** · Health -7 / 9 · **Seriously wounded** · Bleeding"
        " · 20 of the 30 min that cost 1 Health"
    )
    state = rows(bot, guild)["Ana"]
    assert (state["health"], state["bleed_minutes"]) == (-7, 20)
    assert history_count(bot, guild) == before + 1, "the clock moved: a stored change"

    second = await fake.slash(guild, gm, "time", {"minutes": 10})
    state = rows(bot, guild)["Ana"]
    assert (state["health"], state["bleed_minutes"]) == (-8, 0)
    line = several_lines(second.embed)["Ana"]
    assert line.startswith("**Ana** · Health -7 → -8 / 9 · **Seriously wounded**"), line
    assert "bleeding:" not in line, "a point lost: the Health says it"
    assert history_count(bot, guild) == before + 2
    assert fake.violations == []


async def test_T1_half_hours_in_one_call_and_remainder_kept(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=-6)
    reply = await fake.slash(guild, gm, "time", {"minutes": 75})
    state = rows(bot, guild)["Ana"]
    assert (state["health"], state["bleed_minutes"]) == (-8, 15)
    assert reply.embed["title"] == "⏳ Game time: +1 h 15 min"
    assert several_lines(reply.embed)["Ana"].startswith("**Ana** · Health -6 → -8 / 9")


async def test_T1_time_with_nobody_bleeding_is_answered_but_no_change(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    await create(fake, guild, gm, "Hurt", 9)
    await correct(fake, guild, gm, "Hurt", health=-3)  # Hurt, not Seriously wounded: no bleeding
    before_rows, before = rows(bot, guild), history_count(bot, guild)
    reply = await fake.slash(guild, gm, "time", {"minutes": 1440})
    assert not reply.ephemeral
    assert "Nobody is bleeding" in reply.content
    assert rows(bot, guild) == before_rows
    assert history_count(bot, guild) == before
    # And /undo does not see it: nothing of /time to revert, the correction is undone instead.
    undo = await confirmed_undo(fake, guild, gm)
    assert "undid change #3," in undo.content, "the correction (#3), not the /time"
    assert shown_back(undo, "Hurt") == "-3 → 9 / 9"


async def test_T1_stabilized_and_hospitalized_characters_do_not_bleed(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Medic", 8, first_aid=4)
    await create(fake, guild, gm, "Stable", 9)
    await create(fake, guild, gm, "Patient", 9)
    await create(fake, guild, gm, "Bleeder", 9)
    for name in ("Stable", "Patient", "Bleeder"):
        await correct(fake, guild, gm, name, health=-7)
    aid = await fake.slash(
        guild, gm, "firstaid", {"medic": "Medic", "patient": "Stable", "points": 2}
    )
    assert not aid.ephemeral, aid.content
    rest = await fake.slash(
        guild, gm, "rest", {"character": "Patient", "days": 1, "hospital": True}
    )
    assert not rest.ephemeral, rest.content
    before = rows(bot, guild)
    assert before["Stable"]["stabilized"] == 1
    assert before["Patient"]["hospital_length_days"] is not None

    reply = await fake.slash(guild, gm, "time", {"minutes": 60})

    after = rows(bot, guild)
    assert after["Stable"] == before["Stable"]
    assert after["Patient"] == before["Patient"]
    assert after["Bleeder"]["health"] == -9
    assert len(reply.embeds) == 1
    assert [name for name in several_lines(reply.embed) if name] == ["Bleeder"]


# --- T2 ---------------------------------------------------------------------------------------


async def test_T1_every_bleeding_character_is_shown_in_one_message(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    """COMMANDS.md: one public message per command: one embed with a line per character
    (``**Name** · Health BEFORE → AFTER / MAX · the state``), what they share once."""
    gm = gm_of(guild)
    few = [f"Herido{index:02d}" for index in range(10)]
    insert_characters(bot, guild, gm, few)
    reply = await fake.slash(guild, gm, "time", {"minutes": 30})
    fits_discord(reply)
    assert reply.followups == [] and len(reply.embeds) == 1
    lines = several_lines(reply.embed)
    assert sorted(name for name in lines if name) == few
    for name in few:
        assert re.match(rf"\*\*{name}\*\* · Health -?\d+ → -?\d+ / \d+ · ", lines[name])
    assert reply.embed["color"] in {0xE67E22, 0x23272A}
    assert reply.text.count("Game time") == 1, "what they share is said once"

    crowd = [f"Sangra{index:02d}" for index in range(4)]
    insert_characters(bot, guild, gm, crowd)
    reply = await fake.slash(guild, gm, "time", {"minutes": 30})
    fits_discord(reply)
    assert reply.followups == [], "14 characters touched: still one message"
    lines = several_lines(reply.embed)
    assert sorted(name for name in lines if name) == sorted(few + crowd)


async def test_T2_bleeding_kills_at_minus_12_and_stops_there(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await announcing_gm(fake, guild)
    await create(fake, guild, gm, "Ana", 9)
    await create(fake, guild, gm, "Bea", 9)
    await correct(fake, guild, gm, "Ana", health=-10)
    await correct(fake, guild, gm, "Bea", health=-6)
    # The corrections' state changes were announced too: wait for them, then count.
    announced = len(await fake.wait_channel_messages(guild.announcements.id, 2))

    reply = await fake.slash(guild, gm, "time", {"minutes": 1440})  # 48 half hours

    state = rows(bot, guild)
    assert state["Ana"]["health"] == -12 and state["Bea"]["health"] == -12
    assert "dies" not in reply.text, "a death is said by its own embed only"
    titles = [embed.get("title") for embed in reply.embeds]
    # No embed with nothing but a title: the time passed heads the first death.
    assert titles == ["Ana has died", "Bea has died"]
    assert reply.embed["author"]["name"] == "⏳ Game time: +24 h"
    assert reply.buttons == [], "the dead roll nothing"
    fits_discord(reply)
    # Deaths are also posted in the configured channel.
    posted = await fake.wait_channel_messages(guild.announcements.id, announced + 1)
    assert any("Ana has died" in str(message.get("embeds")) for message in posted[announced:])
    # Dead: later time changes nothing.
    again = await fake.slash(guild, gm, "time", {"minutes": 600})
    assert "Nobody is bleeding" in again.content
    assert rows(bot, guild)["Ana"]["health"] == -12


@pytest.mark.parametrize(("die", "success"), [(6, True), (5, False)], ids=["success", "failure"])
async def test_T2_bleeding_makes_a_roll_due_with_buttons_that_roll(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, die: int, success: bool
) -> None:
    """The button spends 1 (-8, Difficulty 7): a 6 makes 7 and keeps Ana awake, a 5 does not."""
    gm = gm_of(guild)
    owner = guild.member("Ana")
    other = guild.member("Other")
    await create(fake, guild, owner, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=-6)
    # The correction makes a roll due; make it first so the bleeding makes a new one due.
    await correct(fake, guild, gm, "Ana", conscious=True)
    assert rows(bot, guild)["Ana"]["roll_pending"] == 0

    reply = await fake.slash(guild, gm, "time", {"minutes": 30})

    state = rows(bot, guild)["Ana"]
    assert state["health"] == -7 and state["roll_pending"] == 1
    # The roll fell due in this reply: it calls the owner, and only the owner.
    assert reply.content.startswith(owner.mention) and reply.content.count(owner.mention) == 1
    allowed = (reply.body or {})["data"]["allowed_mentions"]
    assert allowed["parse"] == [] and [str(u) for u in allowed["users"]] == [owner.id]
    assert "Consciousness roll: Difficulty 7 for Ana" in reply.text
    character_id, roll = state["id"], stored(bot, guild, "Ana")["roll_seq"]
    ids = reply.custom_ids
    assert f"salud:cons:{character_id}:0:{roll}" in ids
    assert f"salud:cons:{character_id}:1:{roll}" in ids  # -8: a legal spend (C4)
    # Only the owner or a GM may press.
    refused = await fake.click(guild, other, reply, f"salud:cons:{character_id}:0:{roll}")
    assert refused.ephemeral and "Only **Ana**'s player or a GM" in refused.text
    assert rows(bot, guild)["Ana"] == state
    await bot.script_dice(die)
    pressed = await fake.click(guild, owner, reply, f"salud:cons:{character_id}:1:{roll}")
    rolled = await pressed.answer()
    assert not rolled.ephemeral
    shown = roll_shown(rolled.embed, die=die)
    assert (shown.spend, shown.total, shown.difficulty) == (1, die + 1, 7)
    assert shown.success is success
    after = rows(bot, guild)["Ana"]
    assert after["health"] == -8 and after["roll_pending"] == 0
    assert after["conscious"] == int(success)
    words = "Success — stays conscious" if success else "Failure — falls unconscious"
    assert words in rolled.text
    # An old button never rolls twice.
    twice = await fake.click(guild, owner, reply, f"salud:cons:{character_id}:0:{roll}")
    assert twice.ephemeral
    assert rows(bot, guild)["Ana"] == after


async def test_T2_death_used_in_the_announcement_channel_is_not_posted_twice(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    """A /time used in the announcement channel itself is not posted twice."""
    gm = await announcing_gm(fake, guild)
    await create(fake, guild, gm, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=-11)
    posted_before = len(fake.channel_messages(guild.announcements.id))
    reply = await fake.slash(guild, gm, "time", {"minutes": 30}, channel=guild.announcements)
    assert "Ana has died" in reply.text
    assert len(fake.channel_messages(guild.announcements.id)) == posted_before + 1


# --- many characters, permissions, languages, servers ---------------------------------------


async def test_time_with_40_bleeding_characters_summarizes_within_limits(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    names = [f"{index:02d}" + "y" * 38 for index in range(40)]
    insert_characters(bot, guild, gm, names)
    await correct(fake, guild, gm, names[0], health=-11)  # this one dies
    before = history_count(bot, guild)
    reply = await fake.slash(guild, gm, "time", {"minutes": 30})
    fits_discord(reply)
    state = rows(bot, guild)
    assert state[names[0]]["health"] == -12
    assert all(state[name]["health"] == -8 for name in names[1:])
    assert history_count(bot, guild) == before + 1
    shown = [name for name in several_lines(reply.embed) if name]
    more = re.search(r"^… and (\d+) more$", reply.embed["description"], re.MULTILINE)
    assert more is not None, "as many lines as fit, then a count of the rest"
    assert len(shown) + int(more[1]) == 39, "39 living lines (the dead one has its embed)"
    assert f"{names[0]} has died" in reply.text
    assert 0 < len(reply.buttons) <= 25
    assert fake.violations == []
    undo = await confirmed_undo(fake, guild, gm)
    fits_discord(undo)
    assert all(rows(bot, guild)[name]["health"] == -7 for name in names[1:])


async def test_time_is_gm_only_and_checks_minutes(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    owner = guild.member("Ana")
    await create(fake, guild, owner, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=-7)
    before = rows(bot, guild)
    assert_refused(await fake.slash(guild, owner, "time", {"minutes": 30}), "Only a GM", "/time")
    for minutes in (0, 1441, -5):
        refused = await fake.slash(guild, gm, "time", {"minutes": minutes})
        assert_refused(refused, "minutes", "1", "1440")
    assert rows(bot, guild) == before
    role = guild.role("Keeper")
    await fake.slash(guild, gm, "config gm-role", {"role": role})
    keeper = guild.member("Keeper", roles=[role])
    await fake.slash(guild, keeper, "time", {"minutes": 30})
    assert rows(bot, guild)["Ana"]["health"] == -8


async def test_time_in_spanish(fake: FakeDiscord, bot: BotProcess, make_guild: Any) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create(fake, guild, gm, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=-7)
    reply = await fake.slash(guild, gm, "time", {"minutes": 30})
    assert reply.embed["title"] == "⏳ Tiempo de juego: +30 min"
    assert several_lines(reply.embed)["Ana"] == (
        "**Ana** · Salud -7 → -8 / 9 · **Gravemente herido** · Se desangra"
    )
    assert [button["label"] for button in reply.buttons] == [
        "Tirar Consciencia",
        "Gastar 1 de Salud",
        "Gastar 2 de Salud",
        "Gastar 3 de Salud",
    ]
    nobody = await fake.slash(guild, gm, "time", {"minutes": 1})
    assert nobody.embed["title"] == "⏳ Tiempo de juego: +1 min"
    assert "Se desangra · 1 de los 30 min que le cuestan 1 de Salud" in nobody.text
    player = guild.member("Bea", locale="es-ES")
    assert_refused(await fake.slash(guild, player, "time", {"minutes": 30}), "Solo un DJ")


async def test_time_in_one_server_never_touches_another(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, make_guild: Any
) -> None:
    other = await make_guild()
    for server in (guild, other):
        gm = gm_of(server)
        await create(fake, server, gm, "Ana", 9)
        await correct(fake, server, gm, "Ana", health=-7)
    untouched = rows(bot, other)
    await fake.slash(guild, gm_of(guild, "Gm2"), "time", {"minutes": 60})
    assert rows(bot, guild)["Ana"]["health"] == -9
    assert rows(bot, other) == untouched
