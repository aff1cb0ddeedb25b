"""``/hurt`` with several targets (COMMANDS.md ``/hurt``: ``character2`` … ``character4``):
each target rolls its own damage from ``amount``, shown per target; one change (one history
entry, one undo); one reply, one embed with a line per target (COMMANDS.md "Several
characters") and what they share said once, the Consciousness buttons each naming its
character, the players called with words and never the member who used the command; a
duplicate target or one the user may not hurt refuses the whole command, naming it. Real
bot, fake Discord, both languages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.fake_discord.mentions import pings_of
from devkit.harness import BotProcess
from devkit.phone import embed_lines, message_lines, wrapped_lines
from tests.e2e.kit import (
    assert_refused,
    create,
    damage_shown,
    history_count,
    last_details,
    several_lines,
    stored,
    uno_and_dos_hurt,
)
from tests.e2e.kit import undo as confirmed_undo


async def test_each_target_rolls_its_own_damage_in_one_change(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    names = ["Amelia Ríos", "Bruno", "Carla", "Dario"]
    for name in names:
        await create(fake, guild, gm, name, 30)
    entries = history_count(bot, guild)
    rolled = [(6, 1), (2, 5), (3, 3), (4, 6)]  # each target's 2d6, in the order they are named
    await bot.script_dice(*(die for pair in rolled for die in pair))
    reply = await fake.slash(
        guild,
        gm,
        "hurt",
        {
            "character": "amelia",
            "amount": "2d6+1",
            "reason": "explosion",
            "character2": "Bruno",
            "character3": "carla",
            "character4": "DARIO",
        },
    )
    assert reply.type == 4 and not reply.ephemeral, reply.text
    (embed,) = reply.embeds
    assert embed["title"] == "Damage 2d6+1 · explosion"
    lines = several_lines(embed)
    assert list(lines) == names, "a line per target, in the order named; no roll is due"
    details = json.loads(last_details(bot, guild))
    assert [target["name"] for target in details["targets"]] == names
    for name, target, dice in zip(names, details["targets"], rolled, strict=True):
        shown = damage_shown(lines[name], dice=dice)
        assert shown.modifier == 1 and shown.dealt == sum(dice) + 1
        assert list(shown.dice) == target["dice"] and shown.dealt == target["dealt"]
        assert stored(bot, guild, name)["health"] == 30 - shown.dealt
        health = f"Health 30 → {30 - shown.dealt} / 30"
        assert lines[name].startswith(f"**{name}** · {health} · **Healthy** · ["), lines[name]
    assert reply.text.count("explosion") == 1, "the reason is said once"
    assert history_count(bot, guild) == entries + 1
    assert details["amount"] == "2d6+1" and details["reason"] == "explosion"
    assert fake.violations == []
    history = await fake.slash(guild, gm, "history")
    hit = (
        "Amelia Ríos takes 8 (30 → 22), Bruno takes 8 (30 → 22), Carla takes 7 (30 → 23)"
        " and Dario takes 11 (30 → 19)"
    )
    assert f"· One blow (2d6+1, explosion): {hit}\n" in history.text, history.text
    assert "targets" not in history.text and "amount" not in history.text

    assert not (await confirmed_undo(fake, guild, gm)).ephemeral
    assert all(stored(bot, guild, name)["health"] == 30 for name in names)


async def test_several_targets_may_fall_and_each_gets_its_buttons(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, reply = await uno_and_dos_hurt(fake, guild, "4")
    lines = several_lines(reply.embed)
    assert lines["Uno"] == "**Uno** · Health 2 → -2 / 2 · **Hurt**"
    assert lines["Dos"] == "**Dos** · Health 2 → -2 / 2 · **Hurt**"
    assert lines[""] == "Consciousness roll: Difficulty 2 for Uno and Dos"
    rolls = [c for c in reply.custom_ids if c.startswith("salud:cons:") and c.split(":")[3] == "0"]
    assert len(rolls) == 2
    assert [button["label"] for button in reply.buttons] == [
        "Uno: Roll",
        "Uno: +1",
        "Uno: +2",
        "Uno: +3",
        "Dos: Roll",
        "Dos: +1",
        "Dos: +2",
        "Dos: +3",
    ]
    assert (
        stored(bot, guild, "Uno")["roll_pending"] == 1 == stored(bot, guild, "Dos")["roll_pending"]
    )


async def test_one_target_of_several_falling_gets_buttons_that_name_it(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    """In a reply about several characters a bare "Tirar Consciencia" does not say whose roll
    it is, even when only one of them must roll (before, the labels named a character only
    when two or more had a roll pending)."""
    guild = await make_guild(locale="es-ES")
    gm = guild.member("Dj", permissions=["manage_guild"], locale="es-ES")
    await create(fake, guild, gm, "Amelia Ríos", 2)
    await create(fake, guild, gm, "Bruno", 9)
    reply = await fake.slash(
        guild, gm, "hurt", {"character": "Amelia Ríos", "amount": "4", "character2": "Bruno"}
    )
    assert not reply.ephemeral, reply.text
    assert [button["label"] for button in reply.buttons] == [
        "Amelia: Tirar",
        "Amelia: +1",
        "Amelia: +2",
        "Amelia: +3",
    ]


async def test_a_duplicate_or_forbidden_target_refuses_the_whole_blow(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    ana = guild.member("Ana", locale="es-ES")
    bea = guild.member("Bea", locale="es-ES")
    await create(fake, guild, ana, "Amelia Ríos", 9)
    await create(fake, guild, ana, "Olga", 9)
    await create(fake, guild, bea, "Bruno", 9)
    entries = history_count(bot, guild)
    twice = await fake.slash(
        guild, ana, "hurt", {"character": "Amelia Ríos", "amount": "3", "character3": "amelia"}
    )
    assert_refused(twice, "**Amelia Ríos** aparece dos veces", "No se ha cambiado nada")
    forbidden = await fake.slash(
        guild, ana, "hurt", {"character": "Olga", "amount": "3", "character2": "Bruno"}
    )
    assert_refused(forbidden, "Solo el jugador de **Bruno** o un DJ puede hacerle daño")
    unknown = await fake.slash(
        guild, ana, "hurt", {"character": "Olga", "amount": "3", "character4": "Nadie"}
    )
    assert_refused(unknown, "«Nadie»")
    bad = await fake.slash(
        guild, ana, "hurt", {"character": "Olga", "amount": "0", "character2": "Amelia"}
    )
    assert bad.ephemeral
    english = await fake.slash(
        guild,
        ana,
        "hurt",
        {"character": "Olga", "amount": "1", "character2": "olga"},
        locale="en-US",
    )
    assert_refused(english, "**Olga** is named twice in this /hurt")
    await fake.slash(guild, ana, "character create", {"name": "Rufo", "health": 2})
    killed = await fake.slash(guild, ana, "hurt", {"character": "Rufo", "amount": "20"})
    assert not killed.ephemeral
    dead = await fake.slash(
        guild, ana, "hurt", {"character": "Olga", "amount": "1", "character2": "Rufo"}
    )
    assert_refused(dead, "**Rufo** ha muerto", "Nombra solo objetivos vivos")
    entries = history_count(bot, guild)
    assert history_count(bot, guild) == entries
    assert all(stored(bot, guild, n)["health"] == 9 for n in ("Amelia Ríos", "Olga", "Bruno"))


async def test_the_extra_targets_autocomplete(fake: FakeDiscord, guild: FakeGuild) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    await create(fake, guild, gm, "Padre Tomás", 9)
    for option in ("character2", "character3", "character4"):
        choices = await fake.autocomplete(
            guild,
            gm,
            "hurt",
            {"character": "Padre Tomás", "amount": "1", option: "tomas"},
            focused=option,
        )
        assert [choice["value"] for choice in choices] == ["Padre Tomás"]


#: A blow of dynamite for four characters of 8 Health: each ends at -3 (a fixed amount, so
#: the outcome does not depend on a die), Hurt, with a roll due against Difficulty 3.
FOUR_TARGETS: dict[str, dict[str, Any]] = {
    "es-ES": {
        "title": "Daño 11 · explosión de dinamita",
        "lines": [
            "**Amelia Ríos** · Salud 8 → -3 / 8 · **Dañada**",
            "**Jack Malone** · Salud 8 → -3 / 8 · **Dañado**",
            "**Renée Pennington** · Salud 8 → -3 / 8 · **Dañada**",
            "**Sgt. O'Malley** · Salud 8 → -3 / 8 · **Dañado**",
            "Tirada de Consciencia: Dificultad 3 para Amelia Ríos, Jack Malone,"
            " Renée Pennington y Sgt. O'Malley",
        ],
        "call": "Tirada de Consciencia: {lucia} (Amelia), {marcos} (Jack) y {pilar} (Renée)",
        "roll": "Tirar",
    },
    "en-US": {
        "title": "Damage 11 · explosión de dinamita",
        "lines": [
            "**Amelia Ríos** · Health 8 → -3 / 8 · **Hurt**",
            "**Jack Malone** · Health 8 → -3 / 8 · **Hurt**",
            "**Renée Pennington** · Health 8 → -3 / 8 · **Hurt**",
            "**Sgt. O'Malley** · Health 8 → -3 / 8 · **Hurt**",
            "Consciousness roll: Difficulty 3 for Amelia Ríos, Jack Malone,"
            " Renée Pennington and Sgt. O'Malley",
        ],
        "call": "Consciousness roll: {lucia} (Amelia), {marcos} (Jack) and {pilar} (Renée)",
        "roll": "Roll",
    },
}


@pytest.mark.parametrize("locale", list(FOUR_TARGETS))
async def test_four_targets_take_one_phone_screen_and_every_button_names_its_character(
    fake: FakeDiscord,
    bot: BotProcess,
    make_guild: Callable[..., Awaitable[FakeGuild]],
    locale: str,
) -> None:
    """Issue 20: this /hurt took 35 lines and 16 buttons in 8 rows, twelve of them reading
    the same, the reason in all four embeds, and the GM pinged for his own NPC."""
    guild = await make_guild(locale=locale)
    dani = guild.member("Dani", permissions=["manage_guild"], locale=locale)
    players = {name: guild.member(name, locale=locale) for name in ("Lucía", "Marcos", "Pilar")}
    for name, player, gender in (
        ("Amelia Ríos", players["Lucía"], "feminine"),
        ("Jack Malone", players["Marcos"], "masculine"),
        ("Renée Pennington", players["Pilar"], "feminine"),
    ):
        options = {"name": name, "health": 8, "player": player, "gender": gender}
        assert not (await fake.slash(guild, dani, "character create", options)).ephemeral
    await create(fake, guild, dani, "Sgt. O'Malley", 8)  # Dani's own NPC
    reply = await fake.slash(
        guild,
        dani,
        "hurt",
        {
            "character": "Amelia Ríos",
            "amount": "11",
            "reason": "explosión de dinamita",
            "character2": "Jack Malone",
            "character3": "Renée Pennington",
            "character4": "Sgt. O'Malley",
        },
    )
    expected = FOUR_TARGETS[locale]
    shown = (len(reply.embeds), message_lines(reply.message))
    assert len(reply.embeds) == 1, f"{shown[0]} embeds, {shown[1]} lines on a phone"
    (embed,) = reply.embeds
    assert embed["title"] == expected["title"]
    assert embed["description"].split("\n") == expected["lines"]
    assert embed_lines(embed) <= 12, embed_lines(embed)
    assert reply.text.count("explosión de dinamita") == 1, "the reason is said once"
    mentions = {key.lower().replace("í", "i"): member.mention for key, member in players.items()}
    assert reply.content == expected["call"].format(**mentions)
    assert wrapped_lines(reply.content) <= 3, reply.content
    pinged = pings_of((reply.body or {})["data"]).users
    assert sorted(pinged) == sorted(member.id for member in players.values())
    assert dani.mention not in reply.content, "the GM is not called for his own NPC"
    labels = [button["label"] for button in reply.buttons]
    assert len(labels) == 16
    for short in ("Amelia", "Jack", "Renée", "Sgt. O'Malley"):
        mine = [label for label in labels if label.startswith(f"{short}: ")]
        assert mine == [
            f"{short}: {expected['roll']}",
            f"{short}: +1",
            f"{short}: +2",
            f"{short}: +3",
        ]
    assert not [
        label for label in labels if not re.match(r"(Amelia|Jack|Renée|Sgt\. O'Malley): ", label)
    ]


async def test_deaths_keep_their_own_embeds_and_the_title_still_says_the_blow(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm, _ = await uno_and_dos_hurt(fake, guild, "1")  # Uno and Dos at 1
    await create(fake, guild, gm, "Tres", 30)
    reply = await fake.slash(
        guild,
        gm,
        "hurt",
        {"character": "Uno", "amount": "20", "reason": "a blast", "character2": "Dos"},
    )
    # Nobody is left for a line: no embed with a bare title, what they shared heads the first
    # death.
    assert [embed["title"] for embed in reply.embeds] == ["Uno has died", "Dos has died"]
    assert reply.embeds[0]["author"]["name"] == "Damage 20 · a blast"
    await create(fake, guild, gm, "Cuatro", 1)
    mixed = await fake.slash(
        guild, gm, "hurt", {"character": "Tres", "amount": "20", "character2": "Cuatro"}
    )
    assert [embed["title"] for embed in mixed.embeds] == ["Damage 20", "Cuatro has died"]
    assert several_lines(mixed.embeds[0]) == {
        "Tres": "**Tres** · Health 30 → 10 / 30 · **Healthy**"
    }
