"""Refusals name the character they are about and say what to do instead (COMMANDS.md
"Refusals name who they are about"), in both languages, through the real bot: a player
with several characters can tell which one a refusal means."""

from __future__ import annotations

from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord
from devkit.harness import BotProcess
from tests.e2e.kit import assert_refused, correct, create, gm_of, rows

CASES = {
    "en-US": {
        "unconscious": ("**Sgt. O'Malley** is unconscious", "until they come to"),
        "dead": ("**Renée Pennington** has died", "/character set"),
        "medic": ("**Sgt. O'Malley** is unconscious", "choose another medic"),
        "stabilize": ("Stabilizing **Renée Pennington**", "you offer only 1"),
    },
    "es-ES": {
        "unconscious": ("**Sgt. O'Malley** está inconsciente", "hasta recuperar la consciencia"),
        "dead": ("**Renée Pennington** ha muerto", "/character set"),
        "medic": ("**Sgt. O'Malley** está inconsciente", "elige a otro sanitario"),
        "stabilize": ("Para estabilizar a **Renée Pennington**", "solo ofreces 1"),
    },
}


@pytest.mark.parametrize("locale", list(CASES))
async def test_refusals_name_the_character_and_say_what_to_do(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any, locale: str
) -> None:
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    player = guild.member("Pepa", locale=locale)
    for name in ("Sgt. O'Malley", "Renée Pennington", "Amelia Ríos"):
        await create(fake, guild, player, name, 9, first_aid=4)
    await correct(fake, guild, gm, "Sgt. O'Malley", health=-3, conscious=False)
    await correct(fake, guild, gm, "Amelia Ríos", health=-7)
    await fake.slash(
        guild,
        gm,
        "ability set",
        {"character": "Sgt. O'Malley", "ability": "Athletics", "rating": 4},
    )
    before = rows(bot, guild)
    expected = CASES[locale]

    check = await fake.slash(
        guild, player, "check", {"character": "Sgt. O'Malley", "ability": "Athletics"}
    )
    assert_refused(check, *expected["unconscious"])
    medic = await fake.slash(
        guild,
        player,
        "firstaid",
        {"medic": "Sgt. O'Malley", "patient": "Amelia Ríos", "points": 2},
    )
    assert_refused(medic, *expected["medic"])
    await correct(fake, guild, gm, "Renée Pennington", health=-7)
    few = await fake.slash(
        guild,
        player,
        "firstaid",
        {"medic": "Amelia Ríos", "patient": "Renée Pennington", "points": 1},
    )
    assert_refused(few, *expected["stabilize"])
    await correct(fake, guild, gm, "Renée Pennington", health=-12)
    dead = await fake.slash(guild, player, "hurt", {"character": "Renée Pennington", "amount": "1"})
    assert_refused(dead, *expected["dead"])
    after = rows(bot, guild)
    assert after["Sgt. O'Malley"] == before["Sgt. O'Malley"]
    assert after["Amelia Ríos"] == before["Amelia Ríos"]
