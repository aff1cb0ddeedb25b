"""The Consciousness roll's result (C5) as whole values: flags are ``False``, not just falsy."""

from __future__ import annotations

from rules import (
    FellUnconscious,
    HealthSpent,
    ScriptedRoller,
    StayedConscious,
    roll_consciousness,
)
from tests.rules.factories import character


def test_C5_success_clears_the_pending_roll_exactly() -> None:
    result = roll_consciousness(character(-3), 0, ScriptedRoller([3]))
    assert result.success
    assert result.outcome.after == character(-3, roll_pending=False)
    assert result.outcome.after.roll_pending is False
    assert result.outcome.events == (StayedConscious(),)


def test_C5_failure_leaves_exactly_an_unconscious_character_with_no_roll() -> None:
    result = roll_consciousness(character(-4), 1, ScriptedRoller([1]))
    assert not result.success
    assert result.outcome.after == character(-5, conscious=False)
    assert result.outcome.after.conscious is False
    assert result.outcome.after.roll_pending is False
    assert result.outcome.events == (HealthSpent(points=1), FellUnconscious())


def test_C3_a_roll_with_a_spend_reports_the_character_as_it_was_before() -> None:
    before = character(-3)
    roll = roll_consciousness(before, 1, ScriptedRoller([6]))
    assert roll.outcome.before == before
    assert roll.outcome.after.health == -4
