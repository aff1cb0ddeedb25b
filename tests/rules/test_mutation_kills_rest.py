"""Rest and convalescence (R1–R7) at the points mutmut found untested.

Each test pins a whole value or the exact events, so that a flag left at ``None``, a stray
event or a boundary moved by one is noticed.
"""

from __future__ import annotations

from dataclasses import replace

from rules import (
    Admitted,
    ConvalescenceProgressed,
    Discharged,
    HealthState,
    Hospital,
    Rested,
    RollCleared,
    Stabilized,
    StateChanged,
    rest,
)
from tests.rules.factories import character

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
