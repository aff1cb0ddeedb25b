"""The First Aid pool refresh (P1) returns the whole outcome, ``before`` included."""

from __future__ import annotations

from rules import PoolRefreshed, refresh
from rules.outcome import Outcome
from tests.rules.factories import character


def test_P1_refresh_outcome_keeps_the_character_before() -> None:
    spent = character(5, pool=1)
    assert refresh(spent) == Outcome(
        before=spent, after=character(5), events=(PoolRefreshed(before=1, after=4),)
    )
