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
    correct,
    give_first_aid,
    inconsistencies,
    refresh,
    rest,
)
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
