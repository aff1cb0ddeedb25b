"""How the flags follow Health (rules/_moves.py), checked on whole values.

Written against mutmut's survivors: a flag that ends up ``None`` instead of ``False`` reads
the same in an ``if`` but is a different stored value, so these tests compare the whole
character (and every event) with what the rules must leave.
"""

from __future__ import annotations

from rules import (
    Corrected,
    Damaged,
    Died,
    HealthRestored,
    HealthState,
    RollCleared,
    RollDue,
    StabilizationEnded,
    StateChanged,
    apply_damage,
    correct,
    give_first_aid,
)
from tests.rules.factories import character, medic

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
