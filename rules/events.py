"""What happened during an action, in order, for the bot to render (never text).

Every event is a frozen dataclass deriving from ``Event``; a result carries a tuple of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.state import HealthState

__all__ = [
    "Admitted",
    "Bled",
    "ConvalescenceProgressed",
    "Corrected",
    "Damaged",
    "Died",
    "Discharged",
    "Event",
    "FellUnconscious",
    "FirstAidSpent",
    "HealthRestored",
    "HealthSpent",
    "HospitalEnded",
    "HospitalNotNeeded",
    "PoolRefreshed",
    "RecoveredFully",
    "Rested",
    "RollCleared",
    "RollDue",
    "SceneStarted",
    "StabilizationEnded",
    "Stabilized",
    "StateChanged",
    "StayedConscious",
    "Woke",
]


@dataclass(frozen=True)
class Event:
    """Base class, so that results can be typed ``tuple[Event, ...]``."""


@dataclass(frozen=True)
class Damaged(Event):
    """D1: Health lowered by ``amount``."""

    amount: int


@dataclass(frozen=True)
class StateChanged(Event):
    """H2: the Health state moved (said in words by the bot)."""

    before: HealthState
    after: HealthState


@dataclass(frozen=True)
class RollDue(Event):
    """C1: a Consciousness roll is now pending, against ``difficulty``."""

    difficulty: int


@dataclass(frozen=True)
class RollCleared(Event):
    """A pending Consciousness roll is no longer needed (Health back at 0 or more, G3)."""


@dataclass(frozen=True)
class FellUnconscious(Event):
    """C5: the Consciousness roll failed."""


@dataclass(frozen=True)
class Woke(Event):
    """C7/F7/R7: Health back at 0 or more, or a GM said so."""


@dataclass(frozen=True)
class StayedConscious(Event):
    """C5: the Consciousness roll succeeded."""


@dataclass(frozen=True)
class Stabilized(Event):
    """F6: the patient no longer bleeds."""


@dataclass(frozen=True)
class StabilizationEnded(Event):
    """D4/T2: fresh damage, or leaving Seriously wounded, ended a stabilization."""


@dataclass(frozen=True)
class Bled(Event):
    """T1: ``points`` of Health lost to bleeding."""

    points: int


@dataclass(frozen=True)
class Died(Event):
    """H5: Health reached -12 or less."""


@dataclass(frozen=True)
class Admitted(Event):
    """R3/R4: admitted to hospital for ``length_days``."""

    length_days: int


@dataclass(frozen=True)
class ConvalescenceProgressed(Event):
    """R6: days of convalescence served so far and still to serve."""

    days_served: int
    days_left: int


@dataclass(frozen=True)
class Discharged(Event):
    """R5: discharged from hospital with ``health``."""

    health: int


@dataclass(frozen=True)
class HospitalEnded(Event):
    """G2: a GM's correction ended a hospital stay before discharge."""


@dataclass(frozen=True)
class Rested(Event):
    """R1: ``days`` of natural rest restored ``restored`` Health (possibly 0)."""

    days: int
    restored: int


@dataclass(frozen=True)
class HospitalNotNeeded(Event):
    """R2: sent to hospital without being Seriously wounded; rests at the natural rate."""


@dataclass(frozen=True)
class RecoveredFully(Event):
    """R5: the day after discharge brought Health to its maximum, ``health``."""

    health: int


@dataclass(frozen=True)
class FirstAidSpent(Event):
    """F4/F6: ``points`` left the medic's First Aid pool."""

    points: int


@dataclass(frozen=True)
class HealthRestored(Event):
    """F1/F4: the patient gained ``points`` of Health."""

    points: int


@dataclass(frozen=True)
class HealthSpent(Event):
    """C3: ``points`` of Health spent on a Consciousness roll."""

    points: int


@dataclass(frozen=True)
class SceneStarted(Event):
    """S1: ``scene_start_health`` is the Health First Aid may restore up to."""

    scene_start_health: int


@dataclass(frozen=True)
class PoolRefreshed(Event):
    """P1: the First Aid pool went from ``before`` back to its rating ``after``."""

    before: int
    after: int


@dataclass(frozen=True)
class Corrected(Event):
    """G1, M13: a GM set ``field`` ("health", "max_health", "first_aid_pool",
    "first_aid_rating", "conscious"; for Stability "stability", "max_stability" or
    "mental_illness") from ``before`` to ``after``."""

    field: str
    before: int | bool
    after: int | bool
