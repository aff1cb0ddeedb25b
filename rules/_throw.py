"""1d6 + the points spent against a Difficulty: every GUMSHOE test the rules roll.

Shared by the Consciousness roll (C2, C3), ability tests (P3), the Stability test (M5) and the
composure test (M8). Each caller decides its own Difficulty (and shows its breakdown) and what
the points spent cost; the throw only rolls and compares. Private.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.dice import Roller

__all__ = ["TEST_DIE", "Throw", "throw"]

#: Every test is 1d6 (C2, P3, M5, M8).
TEST_DIE = 6


@dataclass(frozen=True)
class Throw:
    """``die + spend = total`` against ``difficulty``; success when total ≥ difficulty (the
    caller keeps its own spend, which it names: a spend, a strain)."""

    die: int
    total: int
    difficulty: int
    success: bool


def throw(roller: Roller, spend: int, difficulty: int) -> Throw:
    """Roll the die, add ``spend``, compare with ``difficulty``.

    A die outside 1–6 is a broken ``Roller`` (a bug, never a player's mistake): ValueError.
    """
    die = roller.roll(TEST_DIE)
    if not 1 <= die <= TEST_DIE:
        raise ValueError(f"roller returned {die} for a d6")
    total = die + spend
    return Throw(die=die, total=total, difficulty=difficulty, success=total >= difficulty)
