"""R1–R8: natural rest and hospital convalescence."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import (
    Admitted,
    CharacterDead,
    ConvalescenceProgressed,
    Discharged,
    HealthState,
    Hospital,
    HospitalNotNeeded,
    InvalidValue,
    NeedsHospital,
    RecoveredFully,
    Rested,
    RollCleared,
    Stabilized,
    StateChanged,
    Woke,
    apply_damage,
    inconsistencies,
    pass_time,
    rest,
)
from tests.rules.factories import character


def test_R1_two_health_per_day_up_to_the_maximum() -> None:
    outcome = rest(character(2), 3, hospital=False)
    assert outcome.after.health == 8
    assert outcome.events == (Rested(days=3, restored=6),)
    capped = rest(character(7), 3, hospital=False)
    assert capped.after.health == 10
    assert capped.events == (Rested(days=3, restored=3),)


def test_R1_days_range_is_checked() -> None:
    with pytest.raises(InvalidValue) as refused:
        rest(character(2), 0, hospital=False)
    assert refused.value.params == {"field": "days", "min": 1, "max": 365}


def test_R1_rest_at_maximum_changes_nothing() -> None:
    outcome = rest(character(10), 2, hospital=False)
    assert not outcome.changed
    assert outcome.events == (Rested(days=2, restored=0),)


def test_R2_seriously_wounded_natural_rest_is_refused() -> None:
    with pytest.raises(NeedsHospital) as refused:
        rest(character(-7), 1, hospital=False)
    assert refused.value.code == "needs_hospital"


def test_R2_not_seriously_wounded_in_hospital_rests_naturally() -> None:
    outcome = rest(character(-3), 2, hospital=True)
    assert outcome.after.health == 1
    assert outcome.after.hospital is None
    assert outcome.events[:2] == (HospitalNotNeeded(), Rested(days=2, restored=4))


def test_R3_admission_stabilizes() -> None:
    outcome = rest(character(-7, bleed_minutes=10), 1, hospital=True)
    assert outcome.after.hospital == Hospital(length_days=7, days_served=1)
    assert outcome.after.stabilized
    assert Stabilized() in outcome.events
    assert outcome.after.bleed_minutes == 0
    assert not outcome.after.is_bleeding
    assert pass_time(outcome.after, 600).after.health == -7


def test_R4_length_is_absolute_lowest_health_fixed_at_admission() -> None:
    patient = character(-6, lowest_health=-8)
    outcome = rest(patient, 2, hospital=True)
    assert outcome.events == (
        Admitted(length_days=8),
        Stabilized(),
        ConvalescenceProgressed(days_served=2, days_left=6),
    )
    assert outcome.after.health == -6


def test_R5_discharged_at_half_maximum_then_full_the_next_day() -> None:
    admitted = rest(character(-6, max_health=9), 6, hospital=True)
    after = admitted.after
    assert after.health == 4
    assert after.hospital is None
    assert after.full_recovery_due
    assert admitted.events[:4] == (
        Admitted(length_days=6),
        Stabilized(),
        ConvalescenceProgressed(days_served=6, days_left=0),
        Discharged(health=4),
    )
    next_day = rest(after, 1, hospital=False)
    assert next_day.after.health == 9
    assert not next_day.after.full_recovery_due
    assert next_day.events == (Rested(days=1, restored=5), RecoveredFully(health=9))


def test_R5_discharge_health_rounds_down_and_is_at_least_one() -> None:
    assert rest(character(-6, max_health=1), 6, hospital=True).after.health == 1
    assert rest(character(-6, max_health=3), 6, hospital=True).after.health == 1


def test_R5_health_stays_put_until_discharge() -> None:
    outcome = rest(character(-9), 8, hospital=True)
    assert outcome.after.health == -9
    assert outcome.after.hospital == Hospital(length_days=9, days_served=8)


def test_R5_fresh_damage_before_the_next_day_cancels_the_full_recovery() -> None:
    discharged = rest(character(-6), 6, hospital=True).after
    hurt = apply_damage(discharged, 1).after
    assert rest(hurt, 1, hospital=False).after.health == 6


def test_R6_days_add_up_over_several_requests() -> None:
    first = rest(character(-8), 3, hospital=True).after
    second = rest(first, 4, hospital=False)
    assert second.after.hospital == Hospital(length_days=8, days_served=7)
    assert second.events == (ConvalescenceProgressed(days_served=7, days_left=1),)
    third = rest(second.after, 1, hospital=True)
    assert third.after.health == 5
    assert third.after.hospital is None


def test_R6_more_days_than_remain_go_on_as_natural_rest() -> None:
    outcome = rest(character(-6, max_health=10), 8, hospital=True)
    assert outcome.after.health == 10
    assert not outcome.after.full_recovery_due
    assert outcome.events[-2:] == (Rested(days=2, restored=5), RecoveredFully(health=10))


def test_R7_discharged_character_is_awake_with_no_roll_pending() -> None:
    knocked_out = character(-8, conscious=False)
    outcome = rest(knocked_out, 8, hospital=True)
    assert outcome.after.conscious
    assert Woke() in outcome.events
    pending = rest(character(-8), 8, hospital=True)
    assert not pending.after.roll_pending
    assert RollCleared() in pending.events
    assert (
        StateChanged(before=HealthState.SERIOUSLY_WOUNDED, after=HealthState.HEALTHY)
        in pending.events
    )


def test_R7_rest_to_zero_or_more_wakes_and_clears_the_roll() -> None:
    outcome = rest(character(-4), 2, hospital=False)
    assert outcome.after.health == 0
    assert not outcome.after.roll_pending
    assert inconsistencies(outcome.after) == ()


def test_R8_dead_character_cannot_rest() -> None:
    with pytest.raises(CharacterDead):
        rest(character(-12), 3, hospital=True)


def test_R8_fresh_damage_in_hospital_keeps_the_fixed_length() -> None:
    staying = rest(character(-6), 2, hospital=True).after
    hurt = apply_damage(staying, 4).after
    assert hurt.hospital == Hospital(length_days=6, days_served=2)
    discharged = rest(hurt, 4, hospital=False)
    assert discharged.after.health == 5
    assert any(isinstance(event, Discharged) for event in discharged.events)


# --- Rest and convalescence (R1–R7) at their edges: whole values and exact events ----------------
SERIOUS = HealthState.SERIOUSLY_WOUNDED


def test_R4_without_a_recorded_lowest_health_the_stay_lasts_abs_health() -> None:
    # A row saved before D5 was tracked: admission falls back on the current Health.
    outcome = rest(replace(character(-8), lowest_health=None), 1, hospital=True)
    assert outcome.events[0] == Admitted(length_days=8)
    assert outcome.after.hospital == Hospital(length_days=8, days_served=1)


def test_R3_admission_drops_a_pending_day_after_discharge_recovery() -> None:
    # G4: a correction keeps full_recovery_due, so a discharged character corrected back to
    # Seriously wounded may still carry it; in hospital it must not.
    outcome = rest(character(-8, full_recovery_due=True), 1, hospital=True)
    stay = Hospital(length_days=8, days_served=1)
    assert outcome.after == character(-8, stabilized=True, hospital=stay)
    assert outcome.after.full_recovery_due is False
    assert outcome.events == (
        Admitted(length_days=8),
        Stabilized(),
        ConvalescenceProgressed(days_served=1, days_left=7),
    )


def test_R5_discharge_leaves_exactly_the_discharged_character_and_events() -> None:
    patient = character(-8, stabilized=True, hospital=Hospital(length_days=8, days_served=7))
    outcome = rest(patient, 1, hospital=False)
    assert outcome.after == character(5, full_recovery_due=True)
    assert outcome.after.stabilized is False
    assert outcome.events == (
        ConvalescenceProgressed(days_served=8, days_left=0),
        Discharged(health=5),
        StateChanged(before=SERIOUS, after=HealthState.HEALTHY),
        RollCleared(),
    )


def test_R5_discharged_at_the_maximum_has_no_recovery_left_to_do() -> None:
    # Maximum 1: half of it, at least 1, is already the maximum.
    patient = character(
        -6, max_health=1, stabilized=True, hospital=Hospital(length_days=6, days_served=5)
    )
    discharged = rest(patient, 1, hospital=False)
    assert discharged.after == character(1, max_health=1)
    assert discharged.after.full_recovery_due is False
    next_day = rest(discharged.after, 1, hospital=False)
    assert next_day.events == (Rested(days=1, restored=0),)
    assert not next_day.changed


def test_R1_C1_rest_that_leaves_health_below_0_makes_no_roll_due() -> None:
    outcome = rest(character(-4, roll_pending=False), 1, hospital=False)
    assert outcome.after == character(-2, roll_pending=False)
    assert outcome.events == (Rested(days=1, restored=2),)
