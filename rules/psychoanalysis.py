"""Psychoanalysis: restoring Stability and lucidity (RULES.md M9, M10).

The medic spends points of its Psychoanalysis ability (the SRD's Shrink) as a First Aid
medic spends First Aid: the 2:1 healer of ``rules/_healing`` (2 Stability a point, only the
points needed; a lucid scene costs exactly 2, as stabilizing does). Unlike First Aid there is
no scene cap: the rating is the only limit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from rules._healing import FIXED_COST, POINTS_PER_POINT, fixed_spend, healing_spend
from rules._moves import move_stability, refuse_dead
from rules.abilities import Ability
from rules.ability_catalog import find_known
from rules.character import CharacterHealth
from rules.errors import MedicRefusal, NoStability, RuleError, check_range
from rules.events import Event
from rules.stability import CharacterStability, StabilityOutcome, refuse_insane
from rules.stability_events import MadeLucid, StabilityRestored

__all__ = [
    "LUCIDITY_COST",
    "MAX_PSYCHOANALYSIS_POINTS",
    "PSYCHOANALYSIS",
    "STABILITY_PER_POINT",
    "AlreadyLucid",
    "LucidityNeedsTwo",
    "NotEnoughPsychoanalysis",
    "NotMentallyIll",
    "NotPsychoanalysis",
    "PsychoanalystDead",
    "PsychoanalystInsane",
    "PsychoanalystUnconscious",
    "SelfPsychoanalysis",
    "StabilityFull",
    "TreatmentResult",
    "is_psychoanalysis",
    "treat_stability",
]

#: M9: the ability's English name in the catalog (``Psicoanálisis`` and ``Shrink`` name it too).
PSYCHOANALYSIS = "Psychoanalysis"
#: M9: Stability restored per Psychoanalysis point.
STABILITY_PER_POINT = POINTS_PER_POINT
#: M10: Psychoanalysis points a lucid scene costs.
LUCIDITY_COST = FIXED_COST
#: Highest number of points offered at once (COMMANDS.md ``/stability treat points``).
MAX_PSYCHOANALYSIS_POINTS = 99


class SelfPsychoanalysis(RuleError):
    """M9: a character cannot treat itself (no params)."""

    code: ClassVar[str] = "self_psychoanalysis"


class NotPsychoanalysis(MedicRefusal):
    """M9: the ability spent is not Psychoanalysis (params: ability)."""

    code: ClassVar[str] = "not_psychoanalysis"


class PsychoanalystDead(MedicRefusal):
    """M9: the medic is dead (no params)."""

    code: ClassVar[str] = "psychoanalyst_dead"


class PsychoanalystUnconscious(MedicRefusal):
    """M9: the medic is unconscious (no params)."""

    code: ClassVar[str] = "psychoanalyst_unconscious"


class PsychoanalystInsane(MedicRefusal):
    """M4, M9: the medic is incurably insane (no params)."""

    code: ClassVar[str] = "psychoanalyst_insane"


class StabilityFull(RuleError):
    """M9: the patient's Stability is at its rating already (params: stability, rating)."""

    code: ClassVar[str] = "stability_full"


class NotEnoughPsychoanalysis(MedicRefusal):
    """M9, M10: the medic lacks the points that would be spent (params: available, needed)."""

    code: ClassVar[str] = "not_enough_psychoanalysis"


class LucidityNeedsTwo(RuleError):
    """M10: fewer than 2 points offered for a lucid scene (params: offered, needed)."""

    code: ClassVar[str] = "lucidity_needs_two"


class NotMentallyIll(RuleError):
    """M10: lucidity is only for a mentally ill patient (no params)."""

    code: ClassVar[str] = "not_mentally_ill"


class AlreadyLucid(RuleError):
    """M10: the patient is lucid already this scene (no params)."""

    code: ClassVar[str] = "already_lucid"


@dataclass(frozen=True)
class TreatmentResult:
    """Both sides of one treatment: the medic's Psychoanalysis after the spend, and the
    patient's Stability."""

    psychoanalysis_after: Ability
    patient: StabilityOutcome
    spent: int
    restored: int
    lucid: bool


def is_psychoanalysis(name: str) -> bool:
    """M9: whether ``name`` is the Psychoanalysis ability (``Psychoanalysis``,
    ``Psicoanálisis`` or ``Shrink``; case, accents and extra spaces ignored)."""
    known = find_known(name)
    return known is not None and known.english == PSYCHOANALYSIS


def treat_stability(
    medic: CharacterHealth,
    patient: CharacterHealth,
    points: int,
    *,
    psychoanalysis: Ability,
    patient_stability: CharacterStability | None,
    medic_stability: CharacterStability | None = None,
    lucidity: bool = False,
    same_character: bool = False,
) -> TreatmentResult:
    """M9: restore 2 Stability a point, never above the rating, spending only the points
    needed; with ``lucidity`` (M10), make a mentally ill patient lucid for 2 points.

    Checked in this order: not to oneself, ``points`` 1–99, the ability is Psychoanalysis,
    the medic alive, conscious and not incurably insane, the patient alive (unconscious is
    fine), with Stability and not incurably insane; then lucidity's or healing's own
    refusals. A refusal changes nothing.
    """
    if same_character:
        raise SelfPsychoanalysis()
    check_range("points", points, 1, MAX_PSYCHOANALYSIS_POINTS)
    if not is_psychoanalysis(psychoanalysis.name):
        raise NotPsychoanalysis(ability=psychoanalysis.name)
    if medic.is_dead:
        raise PsychoanalystDead()
    if not medic.conscious:
        raise PsychoanalystUnconscious()
    if medic_stability is not None and medic_stability.is_insane:
        raise PsychoanalystInsane()
    refuse_dead(patient)
    if patient_stability is None:
        raise NoStability()
    refuse_insane(patient_stability, "treatment")
    if lucidity:
        return _make_lucid(psychoanalysis, patient_stability, points)
    return _restore(psychoanalysis, patient_stability, points)


def _make_lucid(
    psychoanalysis: Ability, patient: CharacterStability, points: int
) -> TreatmentResult:
    if not patient.mental_illness:
        raise NotMentallyIll()
    if patient.lucid:
        raise AlreadyLucid()
    spent = fixed_spend(points, psychoanalysis.pool, LucidityNeedsTwo, NotEnoughPsychoanalysis)
    after = replace(patient, lucid=True)
    return TreatmentResult(
        psychoanalysis_after=replace(psychoanalysis, pool=psychoanalysis.pool - spent),
        patient=StabilityOutcome(before=patient, after=after, events=(MadeLucid(),)),
        spent=spent,
        restored=0,
        lucid=True,
    )


def _restore(psychoanalysis: Ability, patient: CharacterStability, points: int) -> TreatmentResult:
    room = patient.rating - patient.pool
    if room <= 0:
        raise StabilityFull(stability=patient.pool, rating=patient.rating)
    spent, restored = healing_spend(points, room, psychoanalysis.pool, NotEnoughPsychoanalysis)
    events: list[Event] = [StabilityRestored(points=restored)]
    after = move_stability(patient, patient.pool + restored, events)
    return TreatmentResult(
        psychoanalysis_after=replace(psychoanalysis, pool=psychoanalysis.pool - spent),
        patient=StabilityOutcome(before=patient, after=after, events=tuple(events)),
        spent=spent,
        restored=restored,
        lucid=False,
    )
