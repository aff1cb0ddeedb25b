"""Abilities (P1, P3): the messages of broken invariants and a broken roller."""

from __future__ import annotations

import pytest

from rules import Ability, AbilityKind, make_test
from tests.rules.factories import character


class _BrokenRoller:
    """A roller that breaks its contract (a d6 that shows 7)."""

    def roll(self, sides: int) -> int:
        return sides + 1


def test_P1_rating_outside_its_range_says_which() -> None:
    with pytest.raises(ValueError, match=r"^rating 100 outside 0\.\.99$"):
        Ability("Athletics", AbilityKind.GENERAL, rating=100, pool=0)


def test_P1_pool_outside_its_rating_says_which() -> None:
    with pytest.raises(ValueError, match=r"^pool 5 outside 0\.\.3$"):
        Ability("Athletics", AbilityKind.GENERAL, rating=3, pool=5)


def test_P3_a_die_outside_1_to_6_is_a_bug_that_names_the_value() -> None:
    athletics = Ability("Athletics", AbilityKind.GENERAL, rating=3, pool=3)
    with pytest.raises(ValueError, match=r"^roller returned 7 for a d6$"):
        make_test(
            character(10),
            athletics,
            difficulty=None,
            spend=0,
            attack=False,
            roller=_BrokenRoller(),
        )
