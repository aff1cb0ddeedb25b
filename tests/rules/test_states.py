"""H1–H6: Health, its states, and what each state means for the actions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import (
    DEATH_THRESHOLD,
    CharacterDead,
    CharacterHealth,
    Corrected,
    Damaged,
    Died,
    HealthRestored,
    HealthState,
    Hospital,
    InvalidValue,
    RollCleared,
    RollDue,
    RuleError,
    ScriptedRoller,
    StabilizationEnded,
    StateChanged,
    apply_damage,
    correct,
    give_first_aid,
    inconsistencies,
    rest,
    roll_consciousness,
    state_of,
)
from tests.rules.factories import character, medic


def test_H1_health_is_a_pool_with_a_maximum_that_may_go_below_zero() -> None:
    fresh = CharacterHealth.new(max_health=9, first_aid_rating=3)
    assert (fresh.health, fresh.max_health) == (9, 9)
    assert (fresh.first_aid_pool, fresh.first_aid_rating) == (3, 3)
    assert apply_damage(fresh, 12).after.health == -3
    assert inconsistencies(fresh) == ()


def test_H1_maximum_is_at_least_one() -> None:
    with pytest.raises(InvalidValue) as refused:
        CharacterHealth.new(max_health=0, first_aid_rating=0)
    assert refused.value.code == "invalid_value"
    assert refused.value.params == {"field": "max_health", "min": 1, "max": 99}


@pytest.mark.parametrize(
    ("health", "state"),
    [
        (10, HealthState.HEALTHY),
        (1, HealthState.HEALTHY),
        (0, HealthState.HURT),
        (-5, HealthState.HURT),
        (-6, HealthState.SERIOUSLY_WOUNDED),
        (-11, HealthState.SERIOUSLY_WOUNDED),
        (-12, HealthState.DEAD),
        (-40, HealthState.DEAD),
    ],
)
def test_H2_state_follows_from_health(health: int, state: HealthState) -> None:
    assert state_of(health) is state
    assert character(health).state is state
    assert DEATH_THRESHOLD == -12


def test_H2_state_ignores_every_other_field() -> None:
    hurt = character(-3, max_health=20, conscious=False, first_aid_received=5)
    assert hurt.state is HealthState.HURT
    assert replace(hurt, max_health=5).state is HealthState.HURT


def test_H3_hurt_character_still_rolls_consciousness_without_penalty() -> None:
    # H3's +1 is for tests and contests (abilities); C2 excludes it from this roll.
    result = roll_consciousness(character(-3), 0, ScriptedRoller([3]))
    assert result.difficulty == 3
    assert result.success


def test_H4_seriously_wounded_must_roll_and_bleeds() -> None:
    outcome = apply_damage(character(2), 9)
    assert outcome.after.state is HealthState.SERIOUSLY_WOUNDED
    assert outcome.after.roll_pending
    assert outcome.after.is_bleeding


def test_H5_dead_character_refuses_damage_rolls_first_aid_and_rest() -> None:
    dead = character(-12)
    with pytest.raises(CharacterDead) as refused:
        apply_damage(dead, 1)
    assert refused.value.code == "dead"
    with pytest.raises(CharacterDead):
        roll_consciousness(dead, 0, ScriptedRoller([6]))
    with pytest.raises(CharacterDead):
        give_first_aid(medic(), dead, 2)
    with pytest.raises(CharacterDead):
        rest(dead, 1, hospital=False)
    with pytest.raises(CharacterDead):
        rest(dead, 1, hospital=True)


def test_H6_health_never_exceeds_maximum_through_rest_or_first_aid() -> None:
    assert rest(character(9), 5, hospital=False).after.health == 10
    healed = give_first_aid(medic(), character(9, max_health=10), 5)
    assert healed.patient.after.health == 10
    assert healed.spent == 1


# --- Invariants of ``inconsistencies`` and ``CharacterHealth.new``, one broken at a time ----------
def test_H1_max_health_below_1_is_reported() -> None:
    broken = replace(character(0, max_health=1), max_health=0)
    assert inconsistencies(broken) == ("max_health below 1",)


def test_H6_health_above_max_health_is_reported() -> None:
    assert inconsistencies(replace(character(10), health=11)) == ("health above max_health",)


@pytest.mark.parametrize("pool", [-1, 5])
def test_P1_pool_outside_its_rating_is_reported(pool: int) -> None:
    broken = replace(character(10, first_aid=4), first_aid_pool=pool)
    assert inconsistencies(broken) == ("first_aid_pool outside 0..first_aid_rating",)


def test_C7_unconscious_below_0_is_consistent() -> None:
    # A GM's knock-out (G3) may leave a character unconscious at any Health.
    assert inconsistencies(replace(character(-1), conscious=False, roll_pending=False)) == ()
    assert inconsistencies(replace(character(0), conscious=False)) == ()


@pytest.mark.parametrize(
    ("health", "conscious"),
    [(0, True), (-3, False), (-12, True)],
    ids=["at-0", "unconscious", "dead"],
)
def test_C1_roll_pending_only_while_conscious_living_and_below_0(
    health: int, conscious: bool
) -> None:
    broken = replace(character(health, conscious=conscious, roll_pending=False), roll_pending=True)
    problems = inconsistencies(broken)
    assert "roll pending while not conscious, living and below 0" in problems
    assert inconsistencies(character(-1, roll_pending=True)) == ()
    assert inconsistencies(character(-11, roll_pending=True)) == ()


def test_C1_roll_pending_on_the_unconscious_is_the_only_problem() -> None:
    broken = replace(character(-3, conscious=False, roll_pending=False), roll_pending=True)
    assert inconsistencies(broken) == ("roll pending while not conscious, living and below 0",)


def test_F6_stabilized_while_not_seriously_wounded_is_reported() -> None:
    assert inconsistencies(replace(character(5), stabilized=True)) == (
        "stabilized while not seriously wounded",
    )
    assert inconsistencies(character(-8, stabilized=True)) == ()


def test_R3_hospital_while_not_seriously_wounded_is_reported() -> None:
    broken = replace(character(5), hospital=Hospital(length_days=8))
    assert inconsistencies(broken) == ("in hospital while not seriously wounded",)


@pytest.mark.parametrize(("served", "ok"), [(-1, False), (0, True), (7, True), (8, False)])
def test_R4_days_served_stay_within_the_length(served: int, ok: bool) -> None:
    stay = Hospital(length_days=8, days_served=served)
    problems = inconsistencies(character(-8, stabilized=True, hospital=stay))
    assert problems == (() if ok else ("hospital days_served outside 0..length_days-1",))


def test_R5_full_recovery_due_while_in_hospital_is_reported() -> None:
    broken = character(-8, stabilized=True, hospital=Hospital(8), full_recovery_due=True)
    assert inconsistencies(broken) == ("full recovery due while in hospital",)


def test_D5_lowest_health_kept_exactly_during_serious_wounds() -> None:
    message = "lowest_health set exactly when not in a spell of serious wounds"
    assert inconsistencies(replace(character(-3), lowest_health=-3)) == (message,)
    assert inconsistencies(replace(character(-8), lowest_health=None)) == (message,)


def test_D5_lowest_health_above_health_is_reported() -> None:
    assert inconsistencies(character(-8, lowest_health=-7)) == ("lowest_health above health",)


@pytest.mark.parametrize(("minutes", "ok"), [(-1, False), (0, True), (29, True), (30, False)])
def test_T1_bleed_minutes_stay_below_a_half_hour(minutes: int, ok: bool) -> None:
    problems = inconsistencies(character(-8, bleed_minutes=minutes))
    assert problems == (() if ok else ("bleed_minutes outside 0..29",))


def test_T2_bleed_minutes_kept_while_not_bleeding_is_reported() -> None:
    message = "bleed_minutes kept while not bleeding"
    assert inconsistencies(character(5, bleed_minutes=5)) == (message,)
    assert inconsistencies(character(-8, stabilized=True, bleed_minutes=5)) == (message,)


def test_F3_first_aid_received_below_0_is_reported() -> None:
    assert inconsistencies(character(5, first_aid_received=-1)) == ("first_aid_received below 0",)


def test_new_names_the_first_aid_rating_it_refuses() -> None:
    with pytest.raises(InvalidValue) as refused:
        CharacterHealth.new(10, 100)
    assert refused.value.params == {"field": "first_aid_rating", "min": 0, "max": 99}
    with pytest.raises(InvalidValue) as refused:
        CharacterHealth.new(0, 4)
    assert refused.value.params == {"field": "max_health", "min": 1, "max": 99}


# --- How a refusal reads in logs: ``code(key=value, ...)``, or the bare code without params -------
def test_refusal_text_lists_its_params_in_order() -> None:
    refusal = InvalidValue(field="health", min=-99, max=99)
    assert str(refusal) == "invalid_value(field='health', min=-99, max=99)"
    assert refusal.args == ("invalid_value(field='health', min=-99, max=99)",)


def test_refusal_text_with_one_param() -> None:
    assert str(RuleError(reason="x")) == "rule(reason='x')"


def test_H5_refusal_without_params_is_its_bare_code() -> None:
    assert str(CharacterDead()) == "dead"
    assert CharacterDead().params == {}


# --- How the flags follow Health (rules/_moves.py), checked on whole values -----------------------
SERIOUS = HealthState.SERIOUSLY_WOUNDED


def test_D4_fresh_damage_ends_a_stabilization_exactly() -> None:
    outcome = apply_damage(character(-7, stabilized=True), 2)
    assert outcome.after == character(-9)
    assert outcome.after.stabilized is False
    assert outcome.events == (Damaged(amount=2), StabilizationEnded(), RollDue(difficulty=9))


def test_H5_death_clears_stabilization_and_pending_roll_exactly() -> None:
    outcome = apply_damage(character(-10, stabilized=True, roll_pending=True), 3)
    assert outcome.after == character(-13)
    assert outcome.after.stabilized is False
    assert outcome.after.roll_pending is False
    assert outcome.events == (
        Damaged(amount=3),
        StateChanged(before=SERIOUS, after=HealthState.DEAD),
        Died(),
    )


def test_G2_leaving_serious_wounds_ends_the_stabilization_with_its_event() -> None:
    outcome = correct(character(-8, stabilized=True), health=0)
    assert outcome.after == character(0)
    assert outcome.after.stabilized is False
    assert outcome.events == (
        Corrected(field="health", before=-8, after=0),
        StateChanged(before=SERIOUS, after=HealthState.HURT),
        StabilizationEnded(),
        RollCleared(),
    )


def test_F7_healed_to_0_or_more_clears_the_pending_roll_exactly() -> None:
    patient = character(-1, scene_start_health=3)
    assert patient.roll_pending
    result = give_first_aid(medic(), patient, 1)
    assert result.patient.after == character(1, scene_start_health=3, first_aid_received=2)
    assert result.patient.after.roll_pending is False
    assert result.patient.events == (
        HealthRestored(points=2),
        StateChanged(before=HealthState.HURT, after=HealthState.HEALTHY),
        RollCleared(),
    )
