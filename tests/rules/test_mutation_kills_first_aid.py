"""First Aid results (F1, F4, F6, F7) compared whole: both outcomes, before and after."""

from __future__ import annotations

from rules import (
    FirstAidSpent,
    HealthRestored,
    Stabilized,
    give_first_aid,
)
from rules.first_aid import FirstAidResult
from rules.outcome import Outcome
from tests.rules.factories import character, medic


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
