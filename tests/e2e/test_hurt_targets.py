"""``/hurt`` with several targets (COMMANDS.md ``/hurt``: ``character2`` … ``character4``):
each target rolls its own damage from ``amount``, shown per target; one change (one history
entry, one undo); one reply with an embed per target; a duplicate target or one the user may
not hurt refuses the whole command, naming it. Real bot, fake Discord, both languages.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import (
    assert_refused,
    create,
    damage_shown,
    field,
    health_change_shown,
    health_shown,
    history_count,
    last_details,
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
    assert [embed["title"] for embed in reply.embeds] == names
    details = json.loads(last_details(bot, guild))
    assert [target["name"] for target in details["targets"]] == names
    for embed, name, target, dice in zip(
        reply.embeds, names, details["targets"], rolled, strict=True
    ):
        shown = damage_shown(field(embed, "Damage"), dice=dice)
        assert shown.modifier == 1 and shown.dealt == sum(dice) + 1
        assert list(shown.dice) == target["dice"] and shown.dealt == target["dealt"]
        assert health_shown(embed) == (30 - shown.dealt, 30)
        assert stored(bot, guild, name)["health"] == 30 - shown.dealt
        assert health_change_shown(embed) == (30, 30 - shown.dealt, 30)
        assert "explosion" in field(embed, "Damage")
    assert history_count(bot, guild) == entries + 1
    assert details["amount"] == "2d6+1" and details["reason"] == "explosion"
    assert fake.violations == []
    history = await fake.slash(guild, gm, "history")
    hit = "Amelia Ríos (8), Bruno (8), Carla (7), Dario (11)"
    assert f"One blow hits {hit} (2d6+1) — explosion" in history.text, history.text
    assert "targets" not in history.text and "amount" not in history.text

    assert not (await confirmed_undo(fake, guild, gm)).ephemeral
    assert all(stored(bot, guild, name)["health"] == 30 for name in names)


async def test_several_targets_may_fall_and_each_gets_its_buttons(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, reply = await uno_and_dos_hurt(fake, guild, "4")
    assert [health_shown(embed) for embed in reply.embeds] == [(-2, 2), (-2, 2)]
    rolls = [c for c in reply.custom_ids if c.startswith("salud:cons:") and c.split(":")[3] == "0"]
    assert len(rolls) == 2
    assert (
        stored(bot, guild, "Uno")["roll_pending"] == 1 == stored(bot, guild, "Dos")["roll_pending"]
    )


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
