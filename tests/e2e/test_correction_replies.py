"""A GM's correction says so (COMMANDS.md "Changes": "A GM's correction"): ``Corrección del
DJ`` / ``GM's correction`` above the values it changed, a revival says that the character
returns to play, and a correction that makes a roll due calls the player with words. Issue
20: ``/character set health:1`` answered ``4 → 1 / 9`` and ``**Ileso**`` and nothing else.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import create, field, gm_set

WORDS = {
    "es-ES": {
        "health": "Salud",
        "what": "Qué ha pasado",
        "note": "Corrección del DJ",
        "plain": "4 → 1 / 9\n**Ileso**",
        "call": "{pilar}: Renée Pennington debe hacer una Tirada de Consciencia (Dificultad 5)",
        "due": "-1 → -5 / 7\n**Dañada** · Tirada de Consciencia pendiente (Dificultad 5)",
        "revival": "Corrección del DJ: Sgt. O'Malley vuelve a la partida.",
        "revived": "-22 → 8 / 8\nMuerto → **Ileso**",
        "values": "Sgt. O'Malley: índice de Primeros Auxilios 0 → 3.\n"
        "Sgt. O'Malley cae inconsciente.",
        "gender": "Género de Sgt. O'Malley: masculino.",
    },
    "en-US": {
        "health": "Health",
        "what": "What happened",
        "note": "GM's correction",
        "plain": "4 → 1 / 9\n**Healthy**",
        "call": "{pilar}: Renée Pennington must make a Consciousness roll (Difficulty 5)",
        "due": "-1 → -5 / 7\n**Hurt** · Consciousness roll pending (Difficulty 5)",
        "revival": "GM's correction: Sgt. O'Malley returns to play.",
        "revived": "-22 → 8 / 8\nDead → **Healthy**",
        "values": "Sgt. O'Malley: First Aid rating 0 → 3.\nSgt. O'Malley falls unconscious.",
        "gender": "Sgt. O'Malley's gender: he/him.",
    },
}


@pytest.mark.parametrize("locale", list(WORDS))
async def test_a_correction_says_it_is_one_and_a_revival_returns_to_play(
    fake: FakeDiscord,
    bot: BotProcess,
    make_guild: Callable[..., Awaitable[FakeGuild]],
    locale: str,
) -> None:
    words = WORDS[locale]
    guild = await make_guild(locale=locale)
    gm = guild.owner
    pilar = guild.member("Pilar", locale=locale)
    await create(fake, guild, gm, "Jack Malone", 9)
    await fake.slash(guild, gm, "hurt", {"character": "Jack Malone", "amount": "5"})
    plain = await gm_set(fake, guild, "Jack Malone", health=1)
    assert plain.embed["description"] == words["note"]
    assert field(plain.embed, words["health"]) == words["plain"]

    renee = {"name": "Renée Pennington", "health": 7, "player": pilar, "gender": "feminine"}
    assert not (await fake.slash(guild, gm, "character create", renee)).ephemeral
    await fake.slash(guild, gm, "hurt", {"character": "Renée Pennington", "amount": "8"})
    due = await gm_set(fake, guild, "Renée Pennington", health=-5)
    assert due.content == words["call"].format(pilar=pilar.mention)
    assert due.embed["description"] == words["note"]
    assert field(due.embed, words["health"]) == words["due"]

    await create(fake, guild, gm, "Sgt. O'Malley", 8)
    await gm_set(fake, guild, "Sgt. O'Malley", health=-22)
    revival = await gm_set(fake, guild, "Sgt. O'Malley", health=8)
    assert revival.embed["description"] == words["revival"]
    assert field(revival.embed, words["health"]) == words["revived"]

    values = await gm_set(fake, guild, "Sgt. O'Malley", conscious=False, max_first_aid=3)
    assert values.embed["description"] == words["note"]
    assert field(values.embed, words["what"]) == words["values"]

    gender = await gm_set(fake, guild, "Sgt. O'Malley", gender="masculine")
    assert gender.embed["description"] == words["note"]
    assert field(gender.embed, words["what"]) == words["gender"]
