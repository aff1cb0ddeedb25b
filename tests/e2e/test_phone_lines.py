"""Change replies are short on a phone (COMMANDS.md "Changes"; issue 11): counted from the
real payloads with ``devkit/phone.py``, in both languages.

``SALUD_PRINT_LINES=1 pytest tests/e2e/test_phone_lines.py -s`` prints the counts.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from devkit.phone import message_lines
from tests.e2e.kit import damage_shown, field, roll_shown

#: A typical /hurt (damage without a reason) on a phone: issue 11's bound.
HURT_LINES = 6
DAMAGE_FIELD = {"en": "Damage", "es": "Daño"}


async def _session(fake: FakeDiscord, bot: BotProcess, guild: FakeGuild) -> dict[str, int]:
    """A short fight: the line count of each kind of change reply. The dice are scripted: the
    two claws roll 4 and 3, and Jack's Consciousness roll fails (1 against 2), the longer of
    its two replies (it adds the knock-out)."""
    gm = guild.owner
    lang = guild.locale[:2]
    await bot.script_dice(4, 1, 3)
    counts: dict[str, int] = {}
    for name, health, first_aid in (("Amelia Ríos", 9, 0), ("Jack Malone", 5, 0)):
        reply = await fake.slash(
            guild, gm, "character create", {"name": name, "health": health, "first_aid": first_aid}
        )
        assert not reply.ephemeral, reply.text
    reply = await fake.slash(
        guild, gm, "character create", {"name": "Padre Tomás", "health": 8, "first_aid": 4}
    )
    hurt = await fake.slash(guild, gm, "hurt", {"character": "Amelia Ríos", "amount": "1d6+1"})
    assert not hurt.ephemeral, hurt.text
    assert damage_shown(field(hurt.embed, DAMAGE_FIELD[lang]), dice=(4,)).dealt == 5
    counts["/hurt"] = message_lines(hurt.message)
    aid = await fake.slash(
        guild, gm, "firstaid", {"medic": "Padre Tomás", "patient": "Amelia Ríos", "points": 1}
    )
    assert not aid.ephemeral, aid.text
    counts["/firstaid"] = message_lines(aid.message)
    down = await fake.slash(guild, gm, "hurt", {"character": "Jack Malone", "amount": "7"})
    assert not down.ephemeral, down.text
    roll = await fake.slash(guild, gm, "conscious", {"character": "Jack Malone"})
    assert not roll.ephemeral, roll.text
    assert not roll_shown(roll.embed, lang, die=1).success
    counts["/conscious"] = message_lines(roll.message)
    rest = await fake.slash(guild, gm, "rest", {"character": "Amelia Ríos", "days": 2})
    assert not rest.ephemeral, rest.text
    counts["/rest"] = message_lines(rest.message)
    death = await fake.slash(guild, gm, "hurt", {"character": "Jack Malone", "amount": "12"})
    assert not death.ephemeral, death.text
    counts["death"] = message_lines(death.message)
    # The ability list stays in /character show: a sheet with six abilities is as short.
    for ability, rating in (
        ("Athletics", 6),
        ("Firearms", 4),
        ("Scuffling", 5),
        ("Preparedness", 8),
    ):
        added = await fake.slash(
            guild,
            gm,
            "ability set",
            {"character": "Padre Tomás", "ability": ability, "rating": rating},
        )
        assert not added.ephemeral, added.text
    sheet = await fake.slash(guild, gm, "hurt", {"character": "Padre Tomás", "amount": "1d6+1"})
    assert not sheet.ephemeral, sheet.text
    assert damage_shown(field(sheet.embed, DAMAGE_FIELD[lang]), dice=(3,)).dealt == 4
    counts["/hurt with abilities"] = message_lines(sheet.message)
    return counts


@pytest.mark.parametrize("locale", ["es-ES", "en-US"])
async def test_a_typical_hurt_takes_at_most_six_lines_on_a_phone(
    fake: FakeDiscord,
    bot: BotProcess,
    make_guild: Callable[..., Awaitable[FakeGuild]],
    locale: str,
) -> None:
    guild = await make_guild(locale=locale)
    counts = await _session(fake, bot, guild)
    if os.environ.get("SALUD_PRINT_LINES"):
        print(locale, counts)
    assert counts["/hurt"] <= HURT_LINES, counts
    assert counts["/hurt with abilities"] <= HURT_LINES, counts
    # Every other change: one embed of at most 8 lines per character touched (/firstaid
    # touches two: the patient and the medic).
    assert counts["/firstaid"] <= 2 * 8, counts
    assert all(count <= 8 for key, count in counts.items() if key != "/firstaid"), counts
