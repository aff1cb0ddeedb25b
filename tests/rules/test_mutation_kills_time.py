"""Game time (T1) returns whole outcomes: ``before`` is the character as it was."""

from __future__ import annotations

from rules import Bled, RollDue, pass_time
from rules.outcome import Outcome
from tests.rules.factories import character


def test_T1_time_for_someone_not_bleeding_is_no_change_with_before_kept() -> None:
    healthy = character(5)
    assert pass_time(healthy, 30) == Outcome(before=healthy, after=healthy, events=())


def test_T1_bleeding_outcome_keeps_before_and_after() -> None:
    bleeding = character(-8)
    assert pass_time(bleeding, 30) == Outcome(
        before=bleeding, after=character(-9), events=(Bled(points=1), RollDue(difficulty=9))
    )


def test_T1_minutes_short_of_a_half_hour_only_carry_over_with_before_kept() -> None:
    bleeding = character(-8)
    assert pass_time(bleeding, 10) == Outcome(
        before=bleeding, after=character(-8, bleed_minutes=10), events=()
    )
