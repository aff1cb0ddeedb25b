"""Replies that must fit a phone, counted as a 40-column phone wraps them (issue 24, point 7;
COMMANDS.md "Changes"): a 4-target ``/hurt``'s embed within 12 lines plus the call's 3, and a
``/check`` of a Hurt character that says the raised Difficulty's breakdown once.

The lines are counted here with an exact word wrap (``textwrap`` at 40 columns, a word longer
than a line broken across lines), not with ``devkit/phone.py``, so that the bound is the one a
phone shows.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import gm_of

MakeGuild = Callable[..., Awaitable[FakeGuild]]

COLUMNS = 40
_MARKUP = re.compile(r"\*\*|\*|~~|__|`")


def phone_lines(text: str) -> int:
    """Lines ``text`` takes on a 40-column phone: markdown markers take no room, a mention
    shows as a short name; each line wrapped word by word."""
    shown = _MARKUP.sub("", re.sub(r"<@!?\d+>", "@Nombre", text))
    return sum(
        len(textwrap.wrap(line, COLUMNS, break_on_hyphens=False)) or 1 for line in shown.split("\n")
    )


def embed_lines(embed: Mapping[str, Any]) -> int:
    parts = [embed.get("title"), embed.get("description")]
    for item in embed.get("fields") or []:
        parts += [item.get("name"), item.get("value")]
    return sum(phone_lines(str(part)) for part in parts if part)


def test_the_wrap_counts_as_a_phone_shows() -> None:
    assert phone_lines("x" * 40) == 1
    assert phone_lines("x" * 41) == 2
    assert phone_lines("**Amelia Ríos** · Salud 9 → -1 / 9 · Ileso → **Dañado** · [6]") == 2
    assert phone_lines("a\nb") == 2


PARTY = (
    ("Amelia Ríos", "Lucía", "feminine"),
    ("Jack Malone", "Marcos", "masculine"),
    ("Padre Tomás", "Sofía", "masculine"),
    ("Sgt. O'Malley", "Diego", None),
)


async def blow_to_four(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, amount: str, dice: tuple[int, ...]
) -> Any:
    """Four investigators of four players, 9 Health each, caught by one explosion."""
    gm = gm_of(guild, locale=guild.locale)
    for name, player, gender in PARTY:
        options: dict[str, Any] = {"name": name, "health": 9, "player": guild.member(player)}
        if gender:
            options["gender"] = gender
        assert not (await fake.slash(guild, gm, "character create", options)).ephemeral
    await bot.script_dice(*dice)
    targets = {"character": PARTY[0][0]}
    targets.update({f"character{n}": PARTY[n - 1][0] for n in (2, 3, 4)})
    options = {**targets, "amount": amount, "reason": "Explosión de la caldera"}
    blow = await fake.slash(guild, gm, "hurt", options)
    assert not blow.ephemeral, blow.text
    return blow


@pytest.mark.parametrize("locale", ["es-ES", "en-US"])
async def test_a_blow_to_four_fits_twelve_phone_lines_and_the_call_three(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Each falling to another Difficulty: each line says the state it is in now, the
    pending rolls say "Dificultad" once."""
    guild = await make_guild(locale=locale)
    blow = await blow_to_four(fake, bot, guild, "1d6+6", (6, 5, 4, 3))  # → -3, -2, -1, 0
    embed = blow.embeds[0]
    lines = str(embed["description"]).split("\n")
    if locale == "es-ES":
        assert lines == [
            "**Amelia Ríos** · Salud 9 → -3 / 9 · **Dañada** · [6] + 6 = 12",
            "**Jack Malone** · Salud 9 → -2 / 9 · **Dañado** · [5] + 6 = 11",
            "**Padre Tomás** · Salud 9 → -1 / 9 · **Dañado** · [4] + 6 = 10",
            "**Sgt. O'Malley** · Salud 9 → 0 / 9 · **Dañado** · [3] + 6 = 9",
            "Tirada de Consciencia: Dificultad 3 para Amelia Ríos,"
            " 2 para Jack Malone y 1 para Padre Tomás",
        ]
    else:
        assert lines[0] == "**Amelia Ríos** · Health 9 → -3 / 9 · **Hurt** · [6] + 6 = 12"
        assert lines[-1] == (
            "Consciousness roll: Difficulty 3 for Amelia Ríos,"
            " 2 for Jack Malone and 1 for Padre Tomás"
        )
    assert embed_lines(embed) <= 12, embed
    assert phone_lines(blow.content) <= 3, blow.content


@pytest.mark.parametrize("locale", ["es-ES", "en-US"])
async def test_a_blow_that_leaves_four_seriously_wounded_fits_too(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """The longest lines of a blow: four fall from Healthy to Seriously wounded, each to
    another Difficulty; a fresh wound's Seriously wounded bleed, which their state says."""
    guild = await make_guild(locale=locale)
    blow = await blow_to_four(fake, bot, guild, "1d6+14", (6, 5, 4, 3))  # → -11 … -8
    embed = blow.embeds[0]
    lines = str(embed["description"]).split("\n")
    if locale == "es-ES":
        assert lines[0] == (
            "**Amelia Ríos** · Salud 9 → -11 / 9 · **Gravemente herida** · [6] + 14 = 20"
        )
        assert lines[-1] == (
            "Tirada de Consciencia: Dificultad 11 para Amelia Ríos, 10 para"
            " Jack Malone, 9 para Padre Tomás y 8 para Sgt. O'Malley"
        )
    assert embed_lines(embed) <= 12, embed
    # Four players called, each with their character as its buttons call it.
    assert phone_lines(blow.content) <= 3, blow.content


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("es-ES", "3 + 1 = 4 vs 5 (4 + 1 por las heridas)"),
        ("en-US", "3 + 1 = 4 vs 5 (4 + 1 for wounds)"),
    ],
)
async def test_a_hurt_characters_check_says_the_raised_difficulty_once(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str, said: str
) -> None:
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    create = {"name": "Amelia Ríos", "health": 9}
    assert not (await fake.slash(guild, gm, "character create", create)).ephemeral
    assert not (
        await fake.slash(guild, gm, "hurt", {"character": "Amelia Ríos", "amount": "9"})
    ).ephemeral
    ability = {"character": "Amelia Ríos", "ability": "Escaramuza", "rating": 5}
    assert not (await fake.slash(guild, gm, "ability set", ability)).ephemeral
    await bot.script_dice(3)
    check = {"character": "Amelia Ríos", "ability": "Escaramuza", "spend": 1}
    reply = await fake.slash(guild, gm, "check", check)
    value = str(reply.embed["fields"][0]["value"])
    assert value.split("\n")[:2] == [said, "**Fallo**" if locale == "es-ES" else "**Failure**"]
    # The penalty said once, with what it is for.
    assert reply.text.count("(4 + 1") == 1
    assert reply.text.count("heridas" if locale == "es-ES" else "wounds") == 1
