"""C1–C7: the Consciousness roll."""

from __future__ import annotations

import pytest

from rules import (
    Bled,
    CharacterDead,
    CharacterUnconscious,
    FellUnconscious,
    HealthSpent,
    HealthState,
    InvalidValue,
    NotBelowZero,
    RollDue,
    ScriptedRoller,
    SpendWouldKill,
    StateChanged,
    StayedConscious,
    Woke,
    apply_damage,
    correct,
    give_first_aid,
    inconsistencies,
    legal_spends,
    max_legal_spend,
    pass_time,
    rest,
    roll_consciousness,
)
from tests.rules.factories import character, medic


def test_C1_damage_below_zero_makes_roll_due() -> None:
    assert apply_damage(character(2), 4).after.roll_pending


def test_C1_bleeding_below_zero_makes_roll_due() -> None:
    bleeding = character(-7, roll_pending=False)
    outcome = pass_time(bleeding, 30)
    assert outcome.after.roll_pending
    assert outcome.events == (Bled(points=1), RollDue(difficulty=8))


def test_C1_spend_on_the_roll_makes_no_new_roll_due() -> None:
    result = roll_consciousness(character(-3), 2, ScriptedRoller([1]))
    assert not result.outcome.after.roll_pending
    assert not any(isinstance(event, RollDue) for event in result.outcome.events)


def test_C2_difficulty_is_absolute_health_before_the_spend() -> None:
    result = roll_consciousness(character(-4), 2, ScriptedRoller([2]))
    assert (result.die, result.spend, result.total, result.difficulty) == (2, 2, 4, 4)
    assert result.success
    assert result.outcome.after.health == -6


def test_C2_total_below_difficulty_fails() -> None:
    result = roll_consciousness(character(-5), 1, ScriptedRoller([3]))
    assert (result.total, result.difficulty, result.success) == (4, 5, False)


def test_C3_spend_is_lost_from_health_and_may_make_seriously_wounded() -> None:
    result = roll_consciousness(character(-5), 2, ScriptedRoller([6]))
    after = result.outcome.after
    assert after.health == -7
    assert after.state is HealthState.SERIOUSLY_WOUNDED
    assert after.lowest_health == -7
    assert after.is_bleeding
    assert result.outcome.events == (
        HealthSpent(points=2),
        StateChanged(before=HealthState.HURT, after=HealthState.SERIOUSLY_WOUNDED),
        StayedConscious(),
    )


def test_C3_spend_is_not_fresh_damage_and_keeps_a_stabilization() -> None:
    result = roll_consciousness(character(-7, stabilized=True), 1, ScriptedRoller([6]))
    assert result.outcome.after.stabilized
    assert result.outcome.after.lowest_health == -8


def test_C4_spend_that_would_kill_is_refused_with_the_largest_legal_spend() -> None:
    wounded = character(-9)
    with pytest.raises(SpendWouldKill) as refused:
        roll_consciousness(wounded, 3, ScriptedRoller([6]))
    assert refused.value.code == "spend_would_kill"
    assert refused.value.params == {"spend": 3, "max_spend": 2}
    assert max_legal_spend(wounded) == 2
    assert list(legal_spends(wounded)) == [0, 1, 2]
    assert roll_consciousness(wounded, 2, ScriptedRoller([6])).outcome.after.health == -11


def test_C4_at_minus_eleven_no_spend_is_legal() -> None:
    assert max_legal_spend(character(-11)) == 0
    with pytest.raises(SpendWouldKill) as refused:
        roll_consciousness(character(-11), 1, ScriptedRoller([6]))
    assert refused.value.params["max_spend"] == 0


def test_C4_spend_range_is_checked() -> None:
    with pytest.raises(InvalidValue) as refused:
        roll_consciousness(character(-3), -1, ScriptedRoller([6]))
    assert refused.value.params == {"field": "spend", "min": 0, "max": 99}


def test_C5_success_clears_the_pending_roll() -> None:
    result = roll_consciousness(character(-2), 0, ScriptedRoller([2]))
    assert result.outcome.after.conscious
    assert not result.outcome.after.roll_pending
    assert result.outcome.events == (StayedConscious(),)


def test_C5_failure_knocks_out() -> None:
    result = roll_consciousness(character(-4), 0, ScriptedRoller([3]))
    assert not result.outcome.after.conscious
    assert not result.outcome.after.roll_pending
    assert result.outcome.events == (FellUnconscious(),)
    assert inconsistencies(result.outcome.after) == ()


def test_C6_roll_allowed_without_one_pending() -> None:
    result = roll_consciousness(character(-3, roll_pending=False), 0, ScriptedRoller([5]))
    assert result.success


def test_C6_roll_refused_at_zero_or_more() -> None:
    with pytest.raises(NotBelowZero) as refused:
        roll_consciousness(character(0), 0, ScriptedRoller([5]))
    assert refused.value.code == "not_below_zero"
    assert refused.value.params == {"health": 0}


def test_C6_roll_refused_when_unconscious_or_dead() -> None:
    with pytest.raises(CharacterUnconscious) as refused:
        roll_consciousness(character(-3, conscious=False), 0, ScriptedRoller([5]))
    assert refused.value.code == "unconscious"
    with pytest.raises(CharacterDead):
        roll_consciousness(character(-12), 0, ScriptedRoller([5]))


def test_C6_refusal_uses_no_die() -> None:
    roller = ScriptedRoller([5])
    with pytest.raises(SpendWouldKill):
        roll_consciousness(character(-10), 5, roller)
    assert roller.remaining == 1


def test_C7_wakes_at_zero_or_more_through_first_aid() -> None:
    knocked_out = character(-1, conscious=False, scene_start_health=10)
    outcome = give_first_aid(medic(), knocked_out, 1).patient
    assert outcome.after.conscious
    assert Woke() in outcome.events


def test_C7_wakes_through_rest() -> None:
    after = rest(character(-2, conscious=False), 1, hospital=False).after
    assert after.health == 0
    assert after.conscious


def test_C7_stays_unconscious_while_below_zero() -> None:
    after = rest(character(-5, conscious=False), 1, hospital=False).after
    assert after.health == -3
    assert not after.conscious


def test_C7_wakes_when_a_gm_says_so() -> None:
    after = correct(character(-4, conscious=False), conscious=True).after
    assert after.conscious
    assert not after.roll_pending


# --- The Consciousness roll's result (C5) as whole values: flags are ``False``, not just falsy ----
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
