"""F1–F7: First Aid, and P1 for the First Aid pool it spends."""

from __future__ import annotations

import pytest

from rules import (
    AlreadyInHospital,
    AlreadyStabilized,
    CharacterDead,
    FirstAidCapReached,
    FirstAidSpent,
    HealthRestored,
    Hospital,
    InvalidValue,
    MedicDead,
    MedicUnconscious,
    NotEnoughFirstAid,
    NothingToHeal,
    RollCleared,
    SelfFirstAid,
    Stabilized,
    StabilizeNeedsTwo,
    give_first_aid,
    inconsistencies,
    pass_time,
)
from rules.first_aid import FirstAidResult
from rules.outcome import Outcome
from tests.rules.factories import character, medic


def test_F1_each_point_restores_two_health() -> None:
    result = give_first_aid(medic(), character(4, max_health=12), 1)
    assert (result.spent, result.restored, result.stabilized) == (1, 2, False)
    assert result.patient.after.health == 6
    assert result.medic.after.first_aid_pool == 5
    assert result.medic.events == (FirstAidSpent(points=1),)
    assert result.patient.events == (HealthRestored(points=2),)


def test_F1_no_first_aid_to_oneself() -> None:
    with pytest.raises(SelfFirstAid) as refused:
        give_first_aid(medic(), character(4), 1, same_character=True)
    assert refused.value.code == "self_first_aid"


def test_F1_medic_must_be_alive_and_conscious() -> None:
    with pytest.raises(MedicDead) as dead:
        give_first_aid(character(-12, first_aid=4), character(4), 1)
    assert dead.value.code == "medic_dead"
    with pytest.raises(MedicUnconscious) as out:
        give_first_aid(character(-3, conscious=False), character(4), 1)
    assert out.value.code == "medic_unconscious"


def test_F1_dead_patient_is_refused() -> None:
    with pytest.raises(CharacterDead):
        give_first_aid(medic(), character(-13), 2)


def test_F1_medic_must_have_the_points_that_will_be_spent() -> None:
    with pytest.raises(NotEnoughFirstAid) as refused:
        give_first_aid(character(10, first_aid=4, pool=1), character(4, max_health=12), 3)
    assert refused.value.code == "not_enough_first_aid"
    assert refused.value.params == {"available": 1, "needed": 2}


def test_F1_offering_more_than_needed_is_not_an_error() -> None:
    result = give_first_aid(character(10, first_aid=4, pool=1), character(8), 9)
    assert result.spent == 1


def test_F1_points_range_is_checked() -> None:
    with pytest.raises(InvalidValue) as refused:
        give_first_aid(medic(), character(4), 0)
    assert refused.value.params == {"field": "points", "min": 1, "max": 99}


def test_F2_restores_only_health_lost_this_scene() -> None:
    patient = character(3, max_health=15, scene_start_health=4)
    result = give_first_aid(medic(), patient, 3)
    assert (result.spent, result.restored) == (1, 1)
    assert result.patient.after.health == 4


def test_F2_nothing_lost_this_scene_is_refused_and_spends_nothing() -> None:
    patient = character(3, scene_start_health=3)
    with pytest.raises(NothingToHeal) as refused:
        give_first_aid(medic(), patient, 2)
    assert refused.value.code == "nothing_to_heal"
    assert refused.value.params == {"health": 3, "scene_start_health": 3}


def test_F3_at_most_a_third_of_maximum_per_scene_from_all_medics() -> None:
    patient = character(0, max_health=10)
    first = give_first_aid(medic(), patient, 1)
    assert first.restored == 2
    second = give_first_aid(medic(), first.patient.after, 5)
    assert (second.spent, second.restored) == (1, 1)
    assert second.patient.after.first_aid_received == 3
    with pytest.raises(FirstAidCapReached) as refused:
        give_first_aid(medic(), second.patient.after, 1)
    assert refused.value.code == "first_aid_cap_reached"
    assert refused.value.params == {"cap": 3, "received": 3}


def test_F3_third_rounds_down() -> None:
    result = give_first_aid(medic(), character(0, max_health=11), 9)
    assert result.restored == 3


def test_F4_spends_only_the_points_needed() -> None:
    patient = character(5, max_health=12, scene_start_health=8)
    result = give_first_aid(medic(), patient, 5)
    assert (result.spent, result.restored) == (2, 3)
    assert result.medic.after.first_aid_pool == 4


def test_F5_seriously_wounded_patient_gains_no_health() -> None:
    result = give_first_aid(medic(), character(-7), 4)
    assert result.restored == 0
    assert result.patient.after.health == -7


def test_F6_stabilization_costs_exactly_two_and_stops_bleeding() -> None:
    wounded = character(-7, bleed_minutes=20)
    result = give_first_aid(medic(), wounded, 5)
    assert (result.spent, result.restored, result.stabilized) == (2, 0, True)
    after = result.patient.after
    assert after.stabilized
    assert after.bleed_minutes == 0
    assert after.roll_pending  # F6 ruling: the roll stays pending
    assert result.patient.events == (Stabilized(),)
    assert result.medic.after.first_aid_pool == 4
    assert pass_time(after, 120).after.health == -7


def test_F6_fewer_than_two_offered_is_refused() -> None:
    with pytest.raises(StabilizeNeedsTwo) as refused:
        give_first_aid(medic(), character(-7), 1)
    assert refused.value.code == "stabilize_needs_two"
    assert refused.value.params == {"offered": 1, "needed": 2}


def test_F6_fewer_than_two_in_the_pool_is_refused() -> None:
    with pytest.raises(NotEnoughFirstAid) as refused:
        give_first_aid(character(10, first_aid=3, pool=1), character(-7), 2)
    assert refused.value.params == {"available": 1, "needed": 2}


def test_F6_already_stabilized_or_in_hospital_is_refused() -> None:
    with pytest.raises(AlreadyStabilized) as stabilized:
        give_first_aid(medic(), character(-7, stabilized=True), 2)
    assert stabilized.value.code == "already_stabilized"
    with pytest.raises(AlreadyInHospital) as hospital:
        give_first_aid(medic(), character(-7, hospital=Hospital(7)), 2)
    assert hospital.value.code == "already_in_hospital"


def test_F7_healed_to_zero_or_more_wakes_and_clears_the_roll() -> None:
    pending = character(-2)
    result = give_first_aid(medic(), pending, 2)
    assert result.patient.after.health == 1
    assert not result.patient.after.roll_pending
    assert RollCleared() in result.patient.events
    assert inconsistencies(result.patient.after) == ()


def test_F7_healed_but_still_below_zero_keeps_the_roll() -> None:
    result = give_first_aid(medic(), character(-5, max_health=15), 1)
    assert result.patient.after.health == -3
    assert result.patient.after.roll_pending


def test_P1_first_aid_pool_never_goes_below_zero() -> None:
    empty = character(10, first_aid=3, pool=0)
    with pytest.raises(NotEnoughFirstAid) as refused:
        give_first_aid(empty, character(5), 1)
    assert refused.value.params == {"available": 0, "needed": 1}


# --- First Aid results (F1, F4, F6, F7) compared whole: both outcomes, before and after -----------
def test_F6_a_medic_with_exactly_2_points_stabilizes() -> None:
    healer = medic(first_aid=2)
    patient = character(-8)
    result = give_first_aid(healer, patient, 5)
    assert result == FirstAidResult(
        medic=Outcome(
            before=healer, after=character(10, first_aid=2, pool=0), events=(FirstAidSpent(2),)
        ),
        patient=Outcome(
            before=patient, after=character(-8, stabilized=True), events=(Stabilized(),)
        ),
        spent=2,
        restored=0,
        stabilized=True,
    )


def test_F1_C1_healing_that_leaves_health_below_0_makes_no_roll_due() -> None:
    healer = medic()
    patient = character(-4, roll_pending=False, scene_start_health=0)
    result = give_first_aid(healer, patient, 1)
    healed = character(-2, roll_pending=False, scene_start_health=0, first_aid_received=2)
    assert result == FirstAidResult(
        medic=Outcome(
            before=healer,
            after=character(10, first_aid=6, pool=5),
            events=(FirstAidSpent(points=1),),
        ),
        patient=Outcome(before=patient, after=healed, events=(HealthRestored(points=2),)),
        spent=1,
        restored=2,
        stabilized=False,
    )
    assert result.patient.after.roll_pending is False
