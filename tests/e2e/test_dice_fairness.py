"""The bot rolls the production die and shows what it rolled (RULES.md C2: the Consciousness
roll is 1d6), end to end.

Every other e2e test scripts its dice; this one lets the bot roll for real
(``bot.allow_random_dice``) and reads back, through the devkit's probe, each die that
``rules.dice.SystemRoller`` rolled: 30 ``/conscious`` of a character at -1 Health (Difficulty
1: every roll succeeds and, once the pending roll is cleared, changes nothing), sent at once.
Each roll was a d6 of the production roller, not a scripted one, and the dice the replies show
are exactly the dice rolled, each reply's arithmetic and words checked.

Whether that die is fair is decided without chance in ``tests/rules/test_dice_fairness.py``
(every face from exactly one pattern of random bits, and a seeded chi-square). This test used
to be a chi-square over 600 real rolls at p = 0.001, which a fair die failed once in a
thousand runs; it has no statistics left, so it cannot fail by chance.
"""

from __future__ import annotations

import asyncio

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import ROLL, create, field, roll_shown, stored

ROLLS = 30


async def test_C2_the_consciousness_die_is_the_production_d6_shown_as_rolled(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "10"})
    await bot.allow_random_dice()
    replies = await asyncio.gather(
        *(
            fake.slash(guild, ana, "conscious", {"character": "Ana"}, timeout=20)
            for _ in range(ROLLS)
        )
    )
    await bot.settled(*replies)  # every answer of the bot's has reached the fake
    report = await bot.end_dice()
    assert len(report.rolled) == ROLLS, report
    assert all(roll.sides == 6 and not roll.scripted for roll in report.rolled), report
    shown = []
    for reply in replies:
        assert not reply.ephemeral, reply.text
        found = ROLL.search(field(reply.embed, "Consciousness roll"))
        assert found is not None, reply.text
        roll = roll_shown(reply.embed, die=int(found[1]))  # DIE + SPEND = TOTAL, the words
        assert (roll.spend, roll.difficulty, roll.success) == (0, 1, True)
        shown.append(roll.die)
    assert sorted(shown) == sorted(roll.value for roll in report.rolled)
    row = stored(bot, guild, "Ana")
    assert (row["health"], row["conscious"], row["roll_pending"]) == (-1, 1, 0)
