"""First Aid: healing and stabilization (RULES.md F1–F7, P1 for the pool, M4)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from rules._healing import FIXED_COST, POINTS_PER_POINT, fixed_spend, healing_spend
from rules._moves import move_health, refuse_dead
from rules.character import CharacterHealth
from rules.errors import MedicRefusal, RuleError, check_range
from rules.events import Event, FirstAidSpent, HealthRestored, Stabilized
from rules.outcome import Outcome
from rules.state import HealthState

if TYPE_CHECKING:
    from rules.stability import CharacterStability

__all__ = [
    "HEALTH_PER_POINT",
    "MAX_FIRST_AID_POINTS",
    "STABILIZE_COST",
    "AlreadyInHospital",
    "AlreadyStabilized",
    "FirstAidCapReached",
    "FirstAidResult",
    "MedicDead",
    "MedicInsane",
    "MedicUnconscious",
    "NotEnoughFirstAid",
    "NothingToHeal",
    "SelfFirstAid",
    "StabilizeNeedsTwo",
    "first_aid_cap",
    "first_aid_room",
    "give_first_aid",
]

#: F1: Health restored per First Aid point (the 2:1 healer shared with Psychoanalysis).
HEALTH_PER_POINT = POINTS_PER_POINT
#: F6: First Aid points a stabilization costs.
STABILIZE_COST = FIXED_COST
#: Highest number of points offered at once (COMMANDS.md ``points``).
MAX_FIRST_AID_POINTS = 99


class SelfFirstAid(RuleError):
    """F1: a character cannot give itself First Aid (no params)."""

    code: ClassVar[str] = "self_first_aid"


class MedicDead(MedicRefusal):
    """F1: the medic is dead (no params)."""

    code: ClassVar[str] = "medic_dead"


class MedicUnconscious(MedicRefusal):
    """F1: the medic is unconscious (no params)."""

    code: ClassVar[str] = "medic_unconscious"


class MedicInsane(MedicRefusal):
    """M4: an incurably insane medic gives no First Aid (no params)."""

    code: ClassVar[str] = "medic_insane"


class NothingToHeal(RuleError):
    """F2: no Health lost this scene is left to restore (params: health,
    scene_start_health)."""

    code: ClassVar[str] = "nothing_to_heal"


class FirstAidCapReached(RuleError):
    """F3: First Aid already restored a third of the maximum this scene (params: cap,
    received)."""

    code: ClassVar[str] = "first_aid_cap_reached"


class NotEnoughFirstAid(MedicRefusal):
    """F1/F6: the medic lacks the points that would be spent (params: available, needed)."""

    code: ClassVar[str] = "not_enough_first_aid"


class StabilizeNeedsTwo(RuleError):
    """F6: fewer than 2 points offered to stabilize (params: offered, needed)."""

    code: ClassVar[str] = "stabilize_needs_two"


class AlreadyStabilized(RuleError):
    """F6: the patient is stabilized already (no params)."""

    code: ClassVar[str] = "already_stabilized"


class AlreadyInHospital(RuleError):
    """F6: a patient in hospital needs no stabilization (no params)."""

    code: ClassVar[str] = "already_in_hospital"


@dataclass(frozen=True)
class FirstAidResult:
    """Both sides of one First Aid: what the medic spent and what the patient gained."""

    medic: Outcome
    patient: Outcome
    spent: int
    restored: int
    stabilized: bool


def first_aid_cap(patient: CharacterHealth) -> int:
    """F3: the most First Aid may restore to ``patient`` in one scene (a third, rounded
    down)."""
    return patient.max_health // 3


def first_aid_room(patient: CharacterHealth) -> int:
    """F2/F3/H6: the Health First Aid may still restore to ``patient`` this scene (may be
    0 or less)."""
    lost_this_scene = min(patient.scene_start_health, patient.max_health) - patient.health
    return min(lost_this_scene, first_aid_cap(patient) - patient.first_aid_received)


def give_first_aid(
    medic: CharacterHealth,
    patient: CharacterHealth,
    points: int,
    *,
    same_character: bool = False,
    medic_stability: CharacterStability | None = None,
) -> FirstAidResult:
    """F1–F7: stabilize a Seriously wounded patient, heal any other.

    Only the points needed are spent (F4, F6); a refusal changes neither character. A medic
    whose ``medic_stability`` is incurable insanity gives none (M4); the patient's Stability
    does not matter (First Aid aimed at the insane still applies to its Health).
    """
    if same_character:
        raise SelfFirstAid()
    check_range("points", points, 1, MAX_FIRST_AID_POINTS)
    if medic.is_dead:
        raise MedicDead()
    if not medic.conscious:
        raise MedicUnconscious()
    if medic_stability is not None and medic_stability.is_insane:
        raise MedicInsane()
    refuse_dead(patient)
    if patient.state is HealthState.SERIOUSLY_WOUNDED:
        return _stabilize(medic, patient, points)
    return _heal(medic, patient, points)


def _spend(medic: CharacterHealth, points: int) -> Outcome:
    after = replace(medic, first_aid_pool=medic.first_aid_pool - points)
    return Outcome(before=medic, after=after, events=(FirstAidSpent(points=points),))


def _stabilize(medic: CharacterHealth, patient: CharacterHealth, points: int) -> FirstAidResult:
    if patient.hospital is not None:
        raise AlreadyInHospital()
    if patient.stabilized:
        raise AlreadyStabilized()
    spent = fixed_spend(points, medic.first_aid_pool, StabilizeNeedsTwo, NotEnoughFirstAid)
    # F6 ruling: the pending Consciousness roll stays; T2: the bleeding clock restarts.
    after = replace(patient, stabilized=True, bleed_minutes=0)
    return FirstAidResult(
        medic=_spend(medic, spent),
        patient=Outcome(before=patient, after=after, events=(Stabilized(),)),
        spent=spent,
        restored=0,
        stabilized=True,
    )


def _heal(medic: CharacterHealth, patient: CharacterHealth, points: int) -> FirstAidResult:
    lost_this_scene = min(patient.scene_start_health, patient.max_health) - patient.health
    cap = first_aid_cap(patient)
    if lost_this_scene <= 0:
        raise NothingToHeal(health=patient.health, scene_start_health=patient.scene_start_health)
    if cap - patient.first_aid_received <= 0:
        raise FirstAidCapReached(cap=cap, received=patient.first_aid_received)
    room = first_aid_room(patient)
    spent, restored = healing_spend(points, room, medic.first_aid_pool, NotEnoughFirstAid)
    events: list[Event] = [HealthRestored(points=restored)]
    after = move_health(patient, patient.health + restored, events, roll_due=False)
    after = replace(after, first_aid_received=patient.first_aid_received + restored)
    return FirstAidResult(
        medic=_spend(medic, spent),
        patient=Outcome(before=patient, after=after, events=tuple(events)),
        spent=spent,
        restored=restored,
        stabilized=False,
    )
