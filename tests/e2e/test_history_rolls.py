"""A roll in the history (issue 25 point 2): an entry stores a test's numbers — a /check's,
a Consciousness roll's, a Stability test's, a Shaken spend's composure test — never its words,
and ``/history`` says them as it always did (``2 + 1 = 3 vs 4``). Rows an older Salud stored
with the roll as text read and say the same; text of another shape is said as it was. Real
bot, fake Discord, both languages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember
from devkit.harness import BotProcess
from tests.e2e.kit import correct, create, gm_of, read_only, writable
from tests.e2e.kit.stability import call_test, create_stable
from tests.e2e.test_history_words import MakeGuild, ok, said

#: Each entry's command and the key of its roll in the details.
ROLLS = {"check": "roll", "conscious": "roll", "stability roll": "roll", "spend": "composure"}


async def _four_rolls(fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, gm: FakeMember) -> None:
    """A /check with a spend, a Consciousness roll, a Stability test and a composure test."""
    await create(fake, guild, gm, "Jack Malone", 9)
    await ok(fake, guild, gm, "ability set", character="Jack Malone", ability="Scuffling", rating=3)
    await bot.script_dice(2)
    await ok(fake, guild, gm, "check", character="Jack Malone", ability="Scuffling", spend=1)
    await correct(fake, guild, gm, "Jack Malone", health=-3)
    await bot.script_dice(2)
    await ok(fake, guild, gm, "conscious", character="Jack Malone", spend=1)
    await create_stable(fake, guild, gm, "Olga", 6, gender="feminine")
    await ok(fake, guild, gm, "ability set", character="Olga", ability="Occult", rating=2)
    await call_test(fake, guild, gm, 4, "Olga")
    await bot.script_dice(1)
    await ok(fake, guild, gm, "stability roll", character="Olga")
    await correct(fake, guild, gm, "Olga", stability=-2)
    await bot.script_dice(1)
    await ok(fake, guild, gm, "spend", character="Olga", ability="Occult", points=1)


#: The lines of the four rolls (newest first), as /history has said them since it said them.
LINES = {
    "en-US": [
        "Olga spends 1 point of Occult; composure 1 + 0 = 1 vs 2: falters",
        "Olga's Stability test, 1 + 0 = 1 vs 4: failed; Stability 6 → 2",
        "Jack Malone's Consciousness roll, 2 + 1 = 3 vs 3: passed; Health -3 → -4",
        "Jack Malone's Scuffling test, 2 + 1 = 3 vs 4: failed",
    ],
    "es-ES": [
        "Olga gasta 1 punto de Occult; compostura 1 + 0 = 1 vs 2: flaquea",
        "Prueba de Estabilidad de Olga, 1 + 0 = 1 vs 4: fallo; Estabilidad 6 → 2",
        "Tirada de Consciencia de Jack Malone, 2 + 1 = 3 vs 3: éxito; Salud -3 → -4",
        "Prueba de Scuffling de Jack Malone, 2 + 1 = 3 vs 4: fallo",
    ],
}


def _rolls_stored(bot: BotProcess, guild: FakeGuild) -> list[tuple[int, str, dict[str, Any]]]:
    """(id, command, details) of each roll's entry, oldest first."""
    with read_only(bot) as conn:
        found = conn.execute(
            "SELECT id, command, details FROM history WHERE guild_id = ? ORDER BY id",
            (int(guild.id),),
        ).fetchall()
    return [(int(row[0]), str(row[1]), json.loads(row[2])) for row in found if str(row[1]) in ROLLS]


def _store_as(bot: BotProcess, guild: FakeGuild, rolls: dict[int, str]) -> None:
    """Each entry of ``rolls`` (by id) with its roll stored as that text, as older versions
    stored every roll."""
    with writable(bot) as conn:
        for entry_id, command, details in _rolls_stored(bot, guild):
            if entry_id in rolls:
                details[ROLLS[command]] = rolls[entry_id]
                conn.execute(
                    "UPDATE history SET details = ? WHERE id = ?", (json.dumps(details), entry_id)
                )


def _roll_lines(history: list[tuple[int, str]], numbers: list[int]) -> list[str]:
    """What a /history page says of the entries of these numbers (the four rolls)."""
    return [what for number, what in history if number in numbers]


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_a_roll_is_stored_as_its_numbers_and_said_as_before_old_text_rows_too(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    await _four_rolls(fake, bot, guild, gm)
    stored = _rolls_stored(bot, guild)
    assert [(command, details[ROLLS[command]]) for _, command, details in stored] == [
        ("check", {"die": 2, "added": 1, "total": 3, "difficulty": 4}),
        ("conscious", {"die": 2, "added": 1, "total": 3, "difficulty": 3}),
        ("stability roll", {"die": 1, "added": 0, "total": 1, "difficulty": 4}),
        ("spend", {"die": 1, "added": 0, "total": 1, "difficulty": 2}),
    ], "numbers, not words"
    history = said(await ok(fake, guild, gm, "history"))
    numbers = [number for number, what in history if " vs " in what]
    assert _roll_lines(history, numbers) == LINES[locale]

    # The rows as an older Salud left them: each roll as its text. They read, and say the same.
    ids = [entry_id for entry_id, _, _ in stored]
    texts = ["2 + 1 = 3 vs 4", "2 + 1 = 3 vs 3", "1 + 0 = 1 vs 4", "1 + 0 = 1 vs 2"]
    _store_as(bot, guild, dict(zip(ids, texts, strict=True)))
    history = said(await ok(fake, guild, gm, "history"))
    assert _roll_lines(history, numbers) == LINES[locale]
    preview = await fake.slash(guild, gm, "undo")  # the latest: the composure test, as text
    assert preview.ephemeral and f"/spend (#{history[0][0]})" in preview.embed["title"]

    # Text of another shape (a tool's, a hand-made row) still reads, said as it was stored.
    _store_as(bot, guild, {ids[0]: "2 + 1 = 3 contra 4", ids[3]: "tirada: 1"})
    lines = _roll_lines(said(await ok(fake, guild, gm, "history")), numbers)
    assert lines == [
        LINES[locale][0].replace("1 + 0 = 1 vs 2", "tirada: 1"),
        *LINES[locale][1:3],
        LINES[locale][3].replace("2 + 1 = 3 vs 4", "2 + 1 = 3 contra 4"),
    ]
