"""``/hurt`` end to end (RULES.md D1–D5, C1, H5): the real bot against the fake Discord.

The bot rolls the dice each test scripts (``bot.script_dice``), so every dice reply is parsed
and checked: the dice shown are the ones scripted, they and the modifier add up to the total
shown, the total dealt is at least 1 (D2), and the Health shown and stored moved by exactly
that much.
"""

from __future__ import annotations

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import (
    assert_refused,
    create,
    damage_shown,
    field,
    health_change_shown,
    health_shown,
    history_commands,
    history_count,
    last_details,
    permission_cast,
    replay,
    state_shown,
    stored,
)


async def test_D1_a_fixed_amount_lowers_health_publicly_and_is_recorded(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": " 4 "})
    assert reply.type == 4 and not reply.ephemeral
    embed = reply.embed
    assert embed["title"] == "Ana"
    assert health_shown(embed) == (5, 9)
    assert field(embed, "Damage") == "4"
    assert health_change_shown(embed) == (9, 5, 9)
    assert state_shown(embed) == "**Healthy**", "no change of state: said as a label, once"
    assert "description" not in embed, "each fact once: the fields say it all"
    assert embed["color"] == 0x2ECC71
    assert reply.buttons == [], "no roll is due at 5 Health"
    assert stored(bot, guild, "Ana")["health"] == 5
    assert [command for command, _ in history_commands(bot, guild)] == ["character create", "hurt"]
    assert history_commands(bot, guild)[-1][1] == int(reply.record.id)


async def test_D1_D2_dice_are_shown_with_their_arithmetic(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 40)
    health = 40
    for amount, dice, line in (
        ("1d6+1", (4,), "1d6+1: [4] + 1 = 5"),
        ("2d6", (3, 5), "2d6: [3, 5] = 8"),
        ("d6-1", (1,), "1d6-1: [1] - 1 = 0 → 1"),  # D2: at least 1
        ("3D4 + 2", (2, 4, 1), "3d4+2: [2, 4, 1] + 2 = 9"),
    ):
        await bot.script_dice(*dice)
        reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": amount})
        value = field(reply.embed, "Damage")
        assert value.startswith(line), value
        shown = damage_shown(value, dice=dice)
        health -= shown.dealt
        assert health_change_shown(reply.embed) == (health + shown.dealt, health, 40)
    assert health == 40 - 5 - 8 - 1 - 9
    assert stored(bot, guild, "Ana")["health"] == health
    assert [(roll.sides, roll.value) for roll in (await bot.end_dice()).rolled] == [
        (6, 4),
        (6, 3),
        (6, 5),
        (6, 1),
        (4, 2),
        (4, 4),
        (4, 1),
    ]


async def test_D2_a_roll_below_one_still_deals_one(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    await bot.script_dice(2)  # the highest roll of a d2: still below 1
    reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "1d2-100"})
    value = field(reply.embed, "Damage")
    shown = damage_shown(value, dice=(2,))
    assert (shown.raw, shown.dealt) == (-98, 1)
    assert "a hit always deals at least 1" in value
    assert health_shown(reply.embed) == (8, 9)


async def test_D3_C1_below_zero_a_roll_falls_due_with_its_buttons(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 3)
    reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "5"})
    embed = reply.embed
    assert health_shown(embed) == (-2, 3)
    assert embed["color"] == 0xF1C40F
    assert "Hurt" in state_shown(embed)
    assert "Consciousness roll pending (Difficulty 2)" in state_shown(embed)
    assert state_shown(embed) == "Healthy → **Hurt** · Consciousness roll pending (Difficulty 2)"
    assert health_change_shown(embed) == (3, -2, 3)
    assert "description" not in embed
    character_id, roll = stored(bot, guild, "Ana")["id"], stored(bot, guild, "Ana")["roll_seq"]
    assert reply.custom_ids == [f"salud:cons:{character_id}:{spend}:{roll}" for spend in range(4)]
    assert [b["label"] for b in reply.buttons] == [
        "Roll Consciousness",
        "Spend 1 Health",
        "Spend 2 Health",
        "Spend 3 Health",
    ]
    row = stored(bot, guild, "Ana")
    assert (row["roll_pending"], row["conscious"]) == (1, 1)


async def test_H4_C4_D5_seriously_wounded_buttons_offer_only_spends_that_do_not_kill(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "19"})
    assert health_shown(reply.embed) == (-10, 9)
    assert state_shown(reply.embed).startswith("Healthy → **Seriously wounded**")
    assert reply.embed["color"] == 0xE67E22
    assert [b["label"] for b in reply.buttons] == ["Roll Consciousness", "Spend 1 Health"]
    assert stored(bot, guild, "Ana")["lowest_health"] == -10  # D5


async def test_D4_fresh_damage_ends_a_stabilization(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bob = guild.member("Ana"), guild.member("Bob")
    await create(fake, guild, ana, "Ana", 9)
    await create(fake, guild, bob, "Bob", 9, first_aid=4)
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "16"})
    stabilized = await fake.slash(
        guild, bob, "firstaid", {"medic": "Bob", "patient": "Ana", "points": 2}
    )
    assert "Stabilized" in state_shown(stabilized.embed)
    assert stored(bot, guild, "Ana")["stabilized"] == 1
    reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "1"})
    assert "Ana bleeds again: the fresh wounds undo the stabilization." in field(
        reply.embed, "Damage"
    )
    assert "Bleeding" in state_shown(reply.embed)
    row = stored(bot, guild, "Ana")
    assert (row["health"], row["stabilized"], row["lowest_health"]) == (-8, 0, -8)


async def test_H5_death_has_its_own_embed_is_announced_and_further_damage_is_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    await fake.slash(guild, guild.owner, "config channel", {"channel": guild.announcements})
    reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "21"})
    assert len(reply.embeds) == 1, "a death is said by its own embed only"
    (death,) = reply.embeds
    assert death["title"] == "Ana has died"
    assert health_change_shown(death) == (9, -12, 9)
    assert field(death, "Damage") == "21"
    assert death["color"] == 0x23272A
    assert reply.text.count("died") == 1 and "dies" not in reply.text and "Dead" not in reply.text
    assert reply.buttons == [], "the dead roll nothing"
    posted = await fake.wait_channel_messages(guild.announcements.id, 1)
    assert [e["title"] for e in posted[0]["embeds"]] == ["Ana has died"]

    entries = history_count(bot, guild)
    await bot.script_dice(3)  # rolled before the transaction reads that Ana is dead
    again = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "1d6"})
    assert_refused(again, "**Ana** has died", "/character set")
    assert stored(bot, guild, "Ana")["health"] == -12
    assert history_count(bot, guild) == entries


async def test_only_state_changes_and_knock_outs_are_announced(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    await fake.slash(guild, guild.owner, "config channel", {"channel": guild.announcements})
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "2"})  # Healthy: quiet
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "7"})  # → Hurt: said
    posted = await fake.wait_channel_messages(guild.announcements.id, 1)
    assert len(posted) == 1
    assert state_shown(posted[0]["embeds"][0]) == "Healthy → **Hurt**"
    # Used in the announcement channel itself: not posted twice.
    there = await fake.slash(
        guild, ana, "hurt", {"character": "Ana", "amount": "6"}, channel=guild.announcements
    )
    await bot.settled(there)  # everything the command does, its announcement included, is done
    assert len(fake.channel_messages(guild.announcements.id)) == 1


@pytest.mark.parametrize(
    ("amount", "needle"),
    [
        ("abc", "not an amount"),
        ("0", "from 1 to 999"),
        ("-3", "not an amount"),
        ("1000", "from 1 to 999"),
        ("21d6", "from 1 to 20 dice"),
        ("1d1", "from 2 to 100 sides"),
        ("1d6+101", "modifier"),
        ("１d6", "not an amount"),
        ("1d6+1d4", "not an amount"),
        ("x" * 60, "not an amount"),
    ],
)
async def test_bad_amounts_are_refused_and_change_nothing(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, amount: str, needle: str
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    entries = history_count(bot, guild)
    reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": amount})
    assert_refused(reply, needle)
    assert stored(bot, guild, "Ana")["health"] == 9
    assert history_count(bot, guild) == entries


async def test_the_reason_is_cleaned_escaped_and_pings_nobody(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    reason = "@everyone  **cuchillo**\n<@1>\u200b\x07 _x_"
    reply = await fake.slash(
        guild, ana, "hurt", {"character": "Ana", "amount": "1", "reason": reason}
    )
    value = field(reply.embed, "Damage")
    assert value == "1\nReason: @everyone \\*\\*cuchillo\\*\\* <@1> \\_x\\_"
    body = reply.body or {}
    assert body["data"]["allowed_mentions"]["parse"] == []
    assert reply.message is not None and reply.message["mention_everyone"] is False
    assert "cuchillo" in last_details(bot, guild)

    too_long = await fake.slash(
        guild, ana, "hurt", {"character": "Ana", "amount": "1", "reason": "y" * 101}
    )
    assert_refused(too_long, "100")
    assert stored(bot, guild, "Ana")["health"] == 8


async def test_permissions_owner_other_player_gm_by_manage_server_and_by_role(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bea, manager, keeper = await permission_cast(fake, guild)
    await create(fake, guild, ana, "Ana", 20)

    refused = await fake.slash(guild, bea, "hurt", {"character": "Ana", "amount": "1"})
    assert_refused(refused, "Only **Ana**'s player or a GM can hurt this character")
    assert stored(bot, guild, "Ana")["health"] == 20

    health = 20
    for member in (ana, manager, keeper, guild.owner):
        reply = await fake.slash(guild, member, "hurt", {"character": "Ana", "amount": "1"})
        health -= 1
        assert not reply.ephemeral, reply.text
        assert health_shown(reply.embed) == (health, 20)
    assert stored(bot, guild, "Ana")["health"] == 16


async def test_unknown_character_is_refused(fake: FakeDiscord, guild: FakeGuild) -> None:
    ana = guild.member("Ana")
    reply = await fake.slash(guild, ana, "hurt", {"character": "Nadie", "amount": "1"})
    assert_refused(reply, "Nadie")


async def test_a_repeated_interaction_applies_once(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    first = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "3"})
    assert health_shown(first.embed) == (6, 9)
    again = await replay(fake, first)
    assert_refused(again, "already applied")
    assert stored(bot, guild, "Ana")["health"] == 6
    assert [command for command, _ in history_commands(bot, guild)].count("hurt") == 1


async def test_spanish_server_and_spanish_errors(
    fake: FakeDiscord, bot: BotProcess, make_guild: object
) -> None:
    guild: FakeGuild = await make_guild(locale="es-ES")  # type: ignore[operator]
    ana = guild.member("Ana", locale="es-ES")
    await create(fake, guild, ana, "Ana", 3)
    await bot.script_dice(3)
    reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "1d4+4"})
    embed = reply.embed
    assert damage_shown(field(embed, "Daño"), dice=(3,)).dealt == 7
    assert health_shown(embed, "es") == (-4, 3)
    assert state_shown(embed, "es") == (
        "Ileso → **Dañado** · Tirada de Consciencia pendiente (Dificultad 4)"
    )
    assert "description" not in embed
    assert reply.buttons[0]["label"] == "Tirar Consciencia"
    assert reply.buttons[1]["label"] == "Gastar 1 de Salud"

    bad = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "tres"})
    assert_refused(bad, "no es una cantidad de daño")
    # An English-speaking member gets errors in English, public replies stay Spanish.
    bob = guild.member("Bob", locale="en-US")
    refused = await fake.slash(guild, bob, "hurt", {"character": "Ana", "amount": "1"})
    assert_refused(refused, "**Ana**'s player or a GM")


async def test_amount_autocomplete_suggests_weapons_in_the_users_language(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    choices = await fake.autocomplete(
        guild, ana, "hurt", {"character": "Ana", "amount": ""}, focused="amount"
    )
    assert [c["value"] for c in choices] == ["1d6-2", "1d6-1", "1d6", "1d6+1", "1d6+2", "1d6+3"]
    assert choices[0]["name"] == "Fist or kick — 1d6-2"
    assert "Sword or heavy firearm" in choices[3]["name"]
    assert "point-blank" in choices[4]["name"]

    knife = await fake.autocomplete(guild, ana, "hurt", {"amount": "knife"}, focused="amount")
    assert [c["value"] for c in knife] == ["1d6-1"]
    typed = await fake.autocomplete(guild, ana, "hurt", {"amount": "2d8+1"}, focused="amount")
    assert typed[0] == {"name": "2d8+1", "value": "2d8+1"}

    spanish = await fake.autocomplete(
        guild, ana, "hurt", {"amount": "1d6"}, focused="amount", locale="es-ES"
    )
    assert spanish[0]["name"] == "Puñetazo o patada — 1d6-2"
    assert any("Espada" in c["name"] for c in spanish)


async def test_the_health_commands_are_synced_with_english_names_and_spanish_descriptions(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    expected = {
        "hurt": ["character", "amount", "reason", "character2", "character3", "character4"],
        "conscious": ["character", "spend"],
        "firstaid": ["medic", "patient", "points"],
        "rest": ["character", "days", "hospital"],
    }
    for name, options in expected.items():
        command = fake.find_command(guild.id, name)
        assert [o["name"] for o in command["options"]] == options
        assert command["description_localizations"]["es-ES"]
        assert "name_localizations" not in command or not command["name_localizations"]
        for option in command["options"]:
            assert not option.get("name_localizations"), option
            assert option["description_localizations"]["es-419"], option
        assert command.get("contexts") == [0] or command.get("dm_permission") is False, command
    hurt = fake.find_command(guild.id, "hurt")
    amount = next(o for o in hurt["options"] if o["name"] == "amount")
    assert amount["autocomplete"] is True
    conscious = fake.find_command(guild.id, "conscious")
    spend = next(o for o in conscious["options"] if o["name"] == "spend")
    assert (spend["min_value"], spend["max_value"], spend.get("required", False)) == (0, 99, False)
