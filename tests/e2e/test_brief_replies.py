"""Replies that move no state (COMMANDS.md "Changes": ``/check``, ``/spend``, ``/ability
set|remove``, ``/character create|rename``) are one compact embed of what happened, at most
6 lines on a phone; the sheet is ``/character show``'s alone. Issue 20: they answered with
the three-column sheet, the ability list and the footer, and ``/check spend:1`` took 16
lines saying the Difficulty's breakdown and the pool twice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from devkit.harness import BotProcess
from devkit.phone import message_lines
from tests.e2e.kit import field, gm_set

WORDS: dict[str, dict[str, Any]] = {
    "es-ES": {
        "scuffling": "Escaramuza",
        "athletics": "Atletismo",
        "created": "Entra en juego (jugador: {player}).",
        "fields": {"Salud": "9 / 9", "Primeros Auxilios": "2 / 2"},
        "added": "Nueva habilidad: **Escaramuza** (general), reserva 4 / 4.",
        "test": "Prueba de Escaramuza",
        "roll": "1 + 1 = 2 vs 2 (1 + 1 por las heridas)",
        "outcome": ["**Éxito**", "Reserva 4 → 3 / 4"],
        "spent": "Gasta 2 puntos de **Atletismo**: reserva 4 → 2 / 4.",
        "renamed": "**Jack Malone** pasa a llamarse **Jack Malone Jr.**.",
        "removed": "Se quita **Atletismo** (reserva 2 / 4). Un DJ puede deshacerlo con /undo.",
        "sheet": ("Habilidades generales", "Estado"),
    },
    "en-US": {
        "scuffling": "Scuffling",
        "athletics": "Athletics",
        "created": "Joins the game (player: {player}).",
        "fields": {"Health": "9 / 9", "First Aid": "2 / 2"},
        "added": "New ability: **Scuffling** (general), pool 4 / 4.",
        "test": "Scuffling test",
        "roll": "1 + 1 = 2 vs 2 (1 + 1 for wounds)",
        "outcome": ["**Success**", "Pool 4 → 3 / 4"],
        "spent": "Spends 2 points of **Athletics**: pool 4 → 2 / 4.",
        "renamed": "**Jack Malone** is renamed **Jack Malone Jr.**.",
        "removed": "**Athletics** (pool 2 / 4) is removed. A GM can bring it back with /undo.",
        "sheet": ("General abilities", "State"),
    },
}


def brief(reply: Reply, sheet: tuple[str, ...]) -> dict[str, Any]:
    """The reply's one embed, checked to be no sheet and at most 6 lines on a phone."""
    assert not reply.ephemeral, reply.text
    assert message_lines(reply.message) <= 6, (message_lines(reply.message), reply.text)
    (embed,) = reply.embeds
    names = [item["name"] for item in embed.get("fields") or []]
    assert not set(names) & set(sheet) and "footer" not in embed, embed
    assert reply.content == ""
    return embed


@pytest.mark.parametrize("locale", list(WORDS))
async def test_what_moves_no_state_is_said_in_at_most_six_lines(
    fake: FakeDiscord,
    bot: BotProcess,
    make_guild: Callable[..., Awaitable[FakeGuild]],
    locale: str,
) -> None:
    words = WORDS[locale]
    sheet = tuple(words["sheet"])
    guild = await make_guild(locale=locale)
    gm = guild.member("Dani", permissions=["manage_guild"], locale=locale)
    marcos = guild.member("Marcos", locale=locale)

    options = {"name": "Jack Malone", "health": 9, "first_aid": 2, "player": marcos}
    created = brief(await fake.slash(guild, gm, "character create", options), sheet)
    assert created["title"] == "Jack Malone"
    assert created["description"] == words["created"].format(player=marcos.mention)
    assert {item["name"]: item["value"] for item in created["fields"]} == words["fields"]

    options = {"character": "Jack Malone", "ability": words["scuffling"], "rating": 4}
    added = brief(await fake.slash(guild, gm, "ability set", options), sheet)
    assert added["title"] == "Jack Malone"
    assert added["description"] == words["added"]
    options = {"character": "Jack Malone", "ability": words["athletics"], "rating": 4}
    assert not (await fake.slash(guild, gm, "ability set", options)).ephemeral

    await gm_set(fake, guild, "Jack Malone", health=0)  # Hurt: +1 to every Difficulty
    # Difficulty 1 + 1 for wounds, a point spent: a 1 still passes.
    options = {"character": "Jack Malone", "ability": words["scuffling"], "difficulty": 1}
    await bot.script_dice(1)
    check = brief(await fake.slash(guild, marcos, "check", {**options, "spend": 1}), sheet)
    assert check["title"] == "Jack Malone"
    roll, *rest = field(check, words["test"]).split("\n")
    assert roll == words["roll"], roll
    assert rest == words["outcome"]

    options = {"character": "Jack Malone", "ability": words["athletics"], "points": 2}
    spent = brief(await fake.slash(guild, marcos, "spend", options), sheet)
    assert spent["description"] == words["spent"]

    options = {"character": "Jack Malone", "ability": words["athletics"]}
    removed = brief(await fake.slash(guild, gm, "ability remove", options), sheet)
    assert removed["description"] == words["removed"]

    options = {"character": "Jack Malone", "name": "Jack Malone Jr."}
    renamed = brief(await fake.slash(guild, marcos, "character rename", options), sheet)
    assert renamed["title"] == "Jack Malone Jr."
    assert renamed["description"] == words["renamed"]
