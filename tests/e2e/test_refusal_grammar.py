"""Refusals agree with a known gender and show no internals (COMMANDS.md "Refusals name who
they are about", "No internals"), in both languages. Issue 20: ``**Amelia Ríos** está en el
estado Gravemente herido y ya no puede combatir (H4)`` for a feminine character, and
``/rest con `hospital: True` ``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import assert_refused, gm_set

#: Rule ids, option syntax and stored values that no refusal may show.
INTERNALS = re.compile(r"\b[A-Z]\d+\b|\bTrue\b|\bFalse\b|`[a-z_]+: |feminine|masculine|→ no\b")

REFUSALS = {
    "es-ES": {
        "fight": "**Amelia Ríos** está gravemente herida y ya no puede combatir: no puede atacar,"
        " pero sí hacer otras pruebas.",
        "hospital": "**Amelia Ríos** está gravemente herida y solo se cura en el hospital: usa"
        " /rest con la opción hospital.",
        "spend": "**Amelia Ríos** no puede gastar **Buscar Libros** ahora: herida como está, el"
        " dolor no le deja gastar habilidades de investigación.",
        "stabilized": "**Amelia Ríos** ya está estabilizada y, gravemente herida, no recupera"
        " Salud con Primeros Auxilios: toca el hospital (/rest con la opción hospital).",
        "owner": "Solo el jugador de **Amelia Ríos** o un DJ puede tirar su Consciencia.",
        "unconscious": "**Jack Malone** está inconsciente y no puede actuar hasta recuperar la"
        " consciencia",
    },
    "en-US": {
        "fight": "**Amelia Ríos** is Seriously wounded and can no longer fight: no attacks, but"
        " other tests are still possible.",
        "hospital": "**Amelia Ríos** is Seriously wounded and heals only in hospital: use /rest"
        " with the hospital option.",
        "spend": "**Amelia Ríos** cannot spend **Buscar Libros** now: wounded as she is, the"
        " pain lets her spend no investigative points.",
        "stabilized": "**Amelia Ríos** is already stabilized, and First Aid gives her no Health"
        " back while Seriously wounded: hospital is next (/rest with the hospital option).",
        "owner": "Only **Amelia Ríos**'s player or a GM can roll her Consciousness.",
        "unconscious": "**Jack Malone** is unconscious and cannot act until he comes to",
    },
}


@pytest.mark.parametrize("locale", list(REFUSALS))
async def test_refusals_agree_with_a_known_gender_and_show_no_internals(
    fake: FakeDiscord,
    bot: BotProcess,
    make_guild: Callable[..., Awaitable[FakeGuild]],
    locale: str,
) -> None:
    expected = REFUSALS[locale]
    guild = await make_guild(locale=locale)
    gm = guild.member("Dani", permissions=["manage_guild"], locale=locale)
    lucia = guild.member("Lucía", locale=locale)
    pilar = guild.member("Pilar", locale=locale)
    for options in (
        {"name": "Amelia Ríos", "health": 9, "player": lucia, "gender": "feminine"},
        {"name": "Jack Malone", "health": 9, "gender": "masculine"},
        {"name": "Padre Tomás", "health": 9, "first_aid": 6},
    ):
        assert not (await fake.slash(guild, gm, "character create", options)).ephemeral
    for ability, kind in (("Escaramuza", "general"), ("Buscar Libros", "investigative")):
        options = {"character": "Amelia Ríos", "ability": ability, "rating": 4, "kind": kind}
        assert not (await fake.slash(guild, gm, "ability set", options)).ephemeral
    await gm_set(fake, guild, "Amelia Ríos", health=-7)  # Seriously wounded
    await gm_set(fake, guild, "Jack Malone", conscious=False)

    said = []
    attack = {"character": "Amelia Ríos", "ability": "Escaramuza", "attack": True}
    said.append(await fake.slash(guild, lucia, "check", attack))
    said.append(await fake.slash(guild, lucia, "rest", {"character": "Amelia Ríos", "days": 2}))
    spend = {"character": "Amelia Ríos", "ability": "Buscar Libros", "points": 1}
    said.append(await fake.slash(guild, lucia, "spend", spend))
    aid = {"medic": "Padre Tomás", "patient": "Amelia Ríos", "points": 2}
    assert not (await fake.slash(guild, gm, "firstaid", aid)).ephemeral  # stabilized
    said.append(await fake.slash(guild, gm, "firstaid", aid))
    said.append(await fake.slash(guild, pilar, "conscious", {"character": "Amelia Ríos"}))
    said.append(await fake.slash(guild, gm, "conscious", {"character": "Jack Malone"}))
    keys = ("fight", "hospital", "spend", "stabilized", "owner", "unconscious")
    for reply, key in zip(said, keys, strict=True):
        assert_refused(reply, expected[key])
    for reply in said:
        assert reply.ephemeral and not INTERNALS.search(reply.content), reply.content
