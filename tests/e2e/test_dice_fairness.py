"""The bot's die is fair (RULES.md C2: the Consciousness roll is 1d6), end to end.

600 ``/conscious`` rolls of a character at -1 Health (Difficulty 1: every roll succeeds and,
once the pending roll is cleared, changes nothing), sent concurrently in batches. The die is
read from each reply's ``DIE + SPEND = TOTAL vs DIFFICULTY``; each roll's arithmetic and
words are checked, and a chi-square test over the six faces must not reject fairness at
p = 0.001.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import create, roll_shown, stored

ROLLS = 600
BATCH = 30
FACES = 6
#: Smallest p-value accepted: a fair die fails this once in a thousand runs.
SIGNIFICANCE = 0.001


def chi_square_p_value_5_dof(statistic: float) -> float:
    """P(X >= statistic) for a chi-square variable with 5 degrees of freedom (exact form)."""
    x = statistic
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def test_the_p_value_formula_matches_known_quantiles() -> None:
    assert abs(chi_square_p_value_5_dof(11.0705) - 0.05) < 1e-4
    assert abs(chi_square_p_value_5_dof(20.5150) - 0.001) < 1e-5
    assert chi_square_p_value_5_dof(0.0) == 1.0


async def test_C2_the_consciousness_die_is_fair_over_600_rolls(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "10"})
    faces: Counter[int] = Counter()
    for start in range(0, ROLLS, BATCH):
        replies = await asyncio.gather(
            *(
                fake.slash(guild, ana, "conscious", {"character": "Ana"}, timeout=20)
                for _ in range(min(BATCH, ROLLS - start))
            )
        )
        for reply in replies:
            assert not reply.ephemeral, reply.text
            roll = roll_shown(reply.embed)  # checks DIE + SPEND = TOTAL and the words
            assert (roll.spend, roll.difficulty, roll.success) == (0, 1, True)
            faces[roll.die] += 1
    assert sum(faces.values()) == ROLLS
    assert set(faces) <= set(range(1, FACES + 1))
    expected = ROLLS / FACES
    statistic = sum((faces[face] - expected) ** 2 / expected for face in range(1, FACES + 1))
    p_value = chi_square_p_value_5_dof(statistic)
    assert p_value > SIGNIFICANCE, f"faces {dict(sorted(faces.items()))}: chi² {statistic:.2f}"
    row = stored(bot, guild, "Ana")
    assert (row["health"], row["conscious"], row["roll_pending"]) == (-1, 1, 0)
    # The fake records a callback before its HTTP answer reaches the bot: let the last answers
    # arrive, so that a session ending right after this test does not cut them off.
    await fake.slash(guild, ana, "character show", {"character": "Ana"})
    await asyncio.sleep(0.2)
