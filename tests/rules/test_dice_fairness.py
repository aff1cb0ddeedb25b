"""The production die is fair (RULES.md C2: the Consciousness roll is 1d6; D1: damage dice),
decided without chance: these tests pass or fail the same way on every run.

- Exactly: ``SystemRoller`` draws a die from the random bits of its source the way
  ``random.randint`` does (k bits for a die of up to 2**k sides, a draw past the last side
  drawn again), so every face comes from exactly one of the patterns of k bits that are kept
  — no face gets more patterns than another, as a modulo would give it. The test feeds every
  pattern once, for every die from d2 to d100, and sees each face once.
- Statistically, with a seeded source: 60,000 d6 rolls pass a chi-square test at p = 0.001
  (the seed is fixed, so this is deterministic too: it checks the roller's arithmetic over a
  long ordinary stream, not the luck of the run).

That the bot rolls this die and shows what it rolled is checked end to end
(``tests/e2e/test_dice_fairness.py``). It used to be a chi-square test over 600 real rolls
of the running bot at p = 0.001: a fair die failed it once in a thousand runs.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from rules.dice import MAX_SIDES, MIN_SIDES, SystemRoller

FACES = 6
#: Smallest p-value accepted for the seeded stream (deterministic: the seed is fixed).
SIGNIFICANCE = 0.001
ROLLS = 60_000
SEED = 20240601


def chi_square_p_value_5_dof(statistic: float) -> float:
    """P(X >= statistic) for a chi-square variable with 5 degrees of freedom (exact form)."""
    x = statistic
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


class EveryPattern(random.Random):
    """A source that gives each pattern of ``bits`` random bits once, in order, then none."""

    def __init__(self, bits: int) -> None:
        super().__init__(0)
        self.bits = bits
        self.patterns = iter(range(2**bits))

    def getrandbits(self, k: int) -> int:
        assert k == self.bits, f"drew {k} bits, not {self.bits}"
        for pattern in self.patterns:
            return pattern
        raise AssertionError("drew more patterns than there are")


def roller_over(source: random.Random) -> SystemRoller:
    """The production roller with its randomness taken from ``source``."""
    roller = SystemRoller()
    roller._random = source  # type: ignore[assignment]
    return roller


def test_the_p_value_formula_matches_known_quantiles() -> None:
    assert abs(chi_square_p_value_5_dof(11.0705) - 0.05) < 1e-4
    assert abs(chi_square_p_value_5_dof(20.5150) - 0.001) < 1e-5
    assert chi_square_p_value_5_dof(0.0) == 1.0


@pytest.mark.parametrize("sides", range(MIN_SIDES, MAX_SIDES + 1))
def test_every_face_comes_from_exactly_one_pattern_of_bits(sides: int) -> None:
    bits = sides.bit_length()
    source = EveryPattern(bits)
    roller = roller_over(source)
    faces = [roller.roll(sides) for _ in range(sides)]
    assert sorted(faces) == list(range(1, sides + 1)), faces
    # The patterns past the last side are drawn again, not folded onto a face: one more roll
    # goes through all that are left and finds no face among them.
    with pytest.raises(AssertionError, match="drew more patterns than there are"):
        roller.roll(sides)


def test_a_seeded_stream_of_60000_d6_rolls_passes_chi_square() -> None:
    roller = roller_over(random.Random(SEED))
    faces = Counter(roller.roll(FACES) for _ in range(ROLLS))
    assert set(faces) == set(range(1, FACES + 1))
    expected = ROLLS / FACES
    statistic = sum((faces[face] - expected) ** 2 / expected for face in range(1, FACES + 1))
    p_value = chi_square_p_value_5_dof(statistic)
    assert p_value > SIGNIFICANCE, f"faces {dict(sorted(faces.items()))}: chi² {statistic:.2f}"
