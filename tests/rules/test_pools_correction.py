"""P1 (the First Aid pool) and G1–G4 (a GM's corrections)."""

from __future__ import annotations

import pytest

from rules import (
    Corrected,
    Died,
    HealthState,
    Hospital,
    HospitalEnded,
    InvalidValue,
    PoolRefreshed,
    RollCleared,
    RollDue,
    StateChanged,
    Woke,
    apply_damage,
    correct,
    give_first_aid,
    inconsistencies,
    refresh,
    rest,
)
from rules.outcome import Outcome
from tests.rules.factories import character, medic


def test_P1_refresh_fills_the_pool_to_its_rating() -> None:
    spent = give_first_aid(medic(first_aid=4), character(5), 2).medic.after
    assert spent.first_aid_pool == 2
    outcome = refresh(spent)
    assert outcome.after.first_aid_pool == 4
    assert outcome.events == (PoolRefreshed(before=2, after=4),)


def test_P1_refresh_of_a_full_pool_is_no_change() -> None:
    outcome = refresh(medic())
    assert not outcome.changed
    assert outcome.events == ()


def test_G1_sets_values_directly_also_on_the_dead() -> None:
    outcome = correct(character(-14), health=3)
    assert outcome.after.health == 3
    assert outcome.after.state is HealthState.HEALTHY
    assert outcome.events[0] == Corrected(field="health", before=-14, after=3)
    assert inconsistencies(outcome.after) == ()


def test_G1_pool_is_kept_within_its_rating() -> None:
    outcome = correct(character(5, first_aid=4), first_aid_pool=9)
    assert outcome.after.first_aid_pool == 4
    lowered = correct(character(5, first_aid=4), first_aid_rating=2)
    assert (lowered.after.first_aid_rating, lowered.after.first_aid_pool) == (2, 2)
    assert lowered.events == (
        Corrected(field="first_aid_rating", before=4, after=2),
        Corrected(field="first_aid_pool", before=4, after=2),
    )


def test_G1_lowering_maximum_below_health_lowers_health() -> None:
    outcome = correct(character(9), max_health=6)
    assert (outcome.after.health, outcome.after.max_health) == (6, 6)
    assert Corrected(field="health", before=9, after=6) in outcome.events


def test_G1_health_above_maximum_is_cut_down() -> None:
    assert correct(character(3), health=50).after.health == 10


@pytest.mark.parametrize(
    ("field", "value", "low", "high"),
    [
        ("health", -100, -99, 99),
        ("max_health", 0, 1, 99),
        ("first_aid_pool", -1, 0, 99),
        ("first_aid_rating", 100, 0, 99),
    ],
)
def test_G1_out_of_range_values_are_refused(field: str, value: int, low: int, high: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        correct(character(3), **{field: value})  # type: ignore[arg-type]
    assert refused.value.params == {"field": field, "min": low, "max": high}


def test_G2_health_at_zero_or_more_clears_every_wound_flag() -> None:
    patient = character(-8, conscious=False, hospital=Hospital(8, 2), stabilized=True)
    outcome = correct(patient, health=2)
    after = outcome.after
    assert after.conscious and not after.roll_pending
    assert not after.stabilized and after.hospital is None and after.lowest_health is None
    assert HospitalEnded() in outcome.events
    assert Woke() in outcome.events


def test_G2_below_zero_living_conscious_has_a_roll_pending() -> None:
    outcome = correct(character(5), health=-2)
    assert outcome.after.roll_pending
    assert outcome.events[-1] == RollDue(difficulty=2)


def test_G2_lowest_health_takes_the_new_value_into_account() -> None:
    assert correct(character(-7), health=-10).after.lowest_health == -10
    assert correct(character(-9), health=-7).after.lowest_health == -9
    assert correct(character(2), health=-6).after.lowest_health == -6


def test_G2_hurt_below_zero_ends_hospital_and_stabilization() -> None:
    outcome = correct(character(-7, hospital=Hospital(7, 1), stabilized=True), health=-3)
    assert outcome.after.hospital is None
    assert not outcome.after.stabilized
    assert outcome.after.roll_pending


def test_G2_correction_to_dead() -> None:
    outcome = correct(character(-7, hospital=Hospital(7)), health=-12)
    assert Died() in outcome.events
    assert outcome.after.hospital is None
    assert inconsistencies(outcome.after) == ()


def test_G3_conscious_given_wins() -> None:
    awake = correct(character(5), health=-4, conscious=True)
    assert awake.after.conscious and not awake.after.roll_pending
    assert not any(isinstance(event, RollDue) for event in awake.events)
    knocked = correct(character(-4), conscious=False)
    assert not knocked.after.conscious and not knocked.after.roll_pending
    assert knocked.events == (
        Corrected(field="conscious", before=True, after=False),
        RollCleared(),
    )


def test_G3_a_given_conscious_wins_even_at_zero_or_more() -> None:
    knocked = correct(character(-4), health=1, conscious=False)
    assert knocked.after.health == 1
    assert not knocked.after.conscious and not knocked.after.roll_pending
    assert Corrected(field="conscious", before=True, after=False) in knocked.events


def test_C7_a_character_knocked_out_by_a_gm_wakes_when_healed() -> None:
    knocked = correct(character(3), conscious=False).after
    assert not knocked.conscious
    healed = rest(knocked, 1, hospital=False)
    assert healed.after.conscious and Woke() in healed.events
    awake = correct(knocked, conscious=True)
    assert awake.after.conscious


def test_G4_pools_only_leave_the_flags_alone() -> None:
    patient = character(-7, stabilized=True, full_recovery_due=False)
    outcome = correct(patient, first_aid_pool=1, first_aid_rating=2, max_health=12)
    assert outcome.after.stabilized
    assert outcome.after.roll_pending == patient.roll_pending
    assert outcome.after.lowest_health == -7


def test_G4_scene_start_and_full_recovery_are_never_touched() -> None:
    patient = character(4, scene_start_health=7, full_recovery_due=True)
    after = correct(patient, health=-3, max_health=5).after
    assert after.scene_start_health == 7
    assert after.full_recovery_due


def test_G4_same_health_is_no_change() -> None:
    outcome = correct(character(-3, roll_pending=False), health=-3)
    assert not outcome.changed
    assert outcome.events == ()


def test_G2_state_change_is_reported() -> None:
    outcome = correct(character(5), health=-8)
    assert StateChanged(before=HealthState.HEALTHY, after=HealthState.SERIOUSLY_WOUNDED) in (
        outcome.events
    )


# --- A GM's corrections (G1–G4) at their edges: exact values and events -------------------------
def test_G1_a_given_pool_below_the_rating_is_set() -> None:
    outcome = correct(character(5, first_aid=4), first_aid_pool=1)
    assert outcome.after == character(5, first_aid=4, pool=1)
    assert outcome.events == (Corrected(field="first_aid_pool", before=4, after=1),)


def test_G1_a_corrected_maximum_is_reported_as_max_health() -> None:
    outcome = correct(character(5), max_health=12)
    assert outcome.after == character(5, max_health=12, scene_start_health=10)
    assert outcome.events == (Corrected(field="max_health", before=10, after=12),)


def test_G3_a_gm_knocks_out_a_character_at_health_0() -> None:
    outcome = correct(character(0), conscious=False)
    assert outcome.after == character(0, conscious=False)
    assert outcome.events == (Corrected(field="conscious", before=True, after=False),)


def test_C7_a_knocked_out_character_stays_out_when_hit_and_wakes_when_healed() -> None:
    knocked = correct(character(5), conscious=False).after
    hit = apply_damage(knocked, 3).after
    assert hit.health == 2 and not hit.conscious and not hit.roll_pending
    rested = rest(hit, 1, hospital=False)
    assert rested.after.health == 4 and rested.after.conscious


def test_G3_awake_given_to_an_awake_character_without_a_roll_is_no_change() -> None:
    outcome = correct(character(5), conscious=True)
    assert outcome.events == ()
    assert not outcome.changed


def test_G3_awake_clears_the_pending_roll_exactly() -> None:
    outcome = correct(character(-3), conscious=True)
    assert outcome.after == character(-3, roll_pending=False)
    assert outcome.after.roll_pending is False
    assert outcome.events == (RollCleared(),)


def test_G3_knocked_out_means_unconscious_with_no_roll_pending_exactly() -> None:
    outcome = correct(character(-3), conscious=False)
    assert outcome.after == character(-3, conscious=False)
    assert outcome.after.roll_pending is False
    assert outcome.events == (
        Corrected(field="conscious", before=True, after=False),
        RollCleared(),
    )


# --- The First Aid pool refresh (P1) returns the whole outcome, ``before`` included ---------------
def test_P1_refresh_outcome_keeps_the_character_before() -> None:
    spent = character(5, pool=1)
    assert refresh(spent) == Outcome(
        before=spent, after=character(5), events=(PoolRefreshed(before=1, after=4),)
    )
