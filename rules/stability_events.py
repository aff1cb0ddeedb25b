"""What happened to a character's Stability during an action, in order (RULES.md M).

Kept apart from ``rules.events`` (Health's events) so that each family can be rendered and
checked on its own; every class still derives from ``rules.events.Event``. A GM's correction
of Stability says ``rules.events.Corrected`` with the fields ``stability``, ``max_stability``
and ``mental_illness``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.events import Event
from rules.stability import StabilityState

__all__ = [
    "Faltered",
    "KeptComposure",
    "LucidityEnded",
    "MadeLucid",
    "MentalIllnessAcquired",
    "StabilityAdded",
    "StabilityRefreshed",
    "StabilityRemoved",
    "StabilityRestored",
    "StabilitySpent",
    "StabilityStateChanged",
    "StabilityTestCleared",
    "StabilityTestDue",
    "StabilityTestFailed",
    "StabilityTestPassed",
    "StabilityTestReplaced",
    "Strained",
    "WentInsane",
]


@dataclass(frozen=True)
class StabilityStateChanged(Event):
    """M2: the Stability state moved (said in words by the bot)."""

    before: StabilityState
    after: StabilityState


@dataclass(frozen=True)
class StabilityTestDue(Event):
    """M5: a GM called a Stability test against an incident of potential ``loss``, at the
    GM's ``difficulty``."""

    loss: int
    difficulty: int


@dataclass(frozen=True)
class StabilityTestReplaced(Event):
    """M5: a new call replaced the test that was due (its ``loss`` and ``difficulty``); the
    old one counts for nothing (M6)."""

    loss: int
    difficulty: int


@dataclass(frozen=True)
class StabilityTestCleared(Event):
    """M4: the character went incurably insane with this test still due; it is cleared."""

    loss: int
    difficulty: int


@dataclass(frozen=True)
class StabilitySpent(Event):
    """M5: ``points`` of Stability spent on the test, lost whatever the outcome."""

    points: int


@dataclass(frozen=True)
class StabilityTestPassed(Event):
    """M5: die + spend reached the Difficulty; no loss."""


@dataclass(frozen=True)
class StabilityTestFailed(Event):
    """M5, M6: the test failed against an incident of potential ``loss``; ``lost`` is what
    it took once the scene's cap (M6) is applied (less than ``loss`` when the cap bit, maybe
    0)."""

    loss: int
    lost: int


@dataclass(frozen=True)
class MentalIllnessAcquired(Event):
    """M3: the pool fell from -5 or above to -6…-11; the rating went from ``rating_before``
    to ``rating_after`` (the same at rating 1)."""

    rating_before: int
    rating_after: int


@dataclass(frozen=True)
class WentInsane(Event):
    """M4: the pool reached -12 or less: incurably insane, out of play."""


@dataclass(frozen=True)
class Strained(Event):
    """M8: ``points`` of Stability given up as strain on a composure test."""

    points: int


@dataclass(frozen=True)
class KeptComposure(Event):
    """M8: the composure test succeeded."""


@dataclass(frozen=True)
class Faltered(Event):
    """M8: the composure test failed; the investigative spend is made all the same."""


@dataclass(frozen=True)
class StabilityRestored(Event):
    """M9: Psychoanalysis restored ``points`` of Stability."""

    points: int


@dataclass(frozen=True)
class MadeLucid(Event):
    """M10: Psychoanalysis made the mentally ill patient lucid for the rest of the scene."""


@dataclass(frozen=True)
class LucidityEnded(Event):
    """M10: lucidity ended: a new scene began, or a GM cleared the mental illness."""


@dataclass(frozen=True)
class StabilityRefreshed(Event):
    """M11: a GM's refresh brought the pool from ``before`` back to its rating ``after``."""

    before: int
    after: int


@dataclass(frozen=True)
class StabilityAdded(Event):
    """M13: a GM gave Stability to a character without it: ``rating``, ``pool`` and the
    mental illness mark as corrected."""

    rating: int
    pool: int
    mental_illness: bool


@dataclass(frozen=True)
class StabilityRemoved(Event):
    """M13: a GM's rating of 0 removed Stability (it had ``rating`` and ``pool``) with its
    marks, scene counters and due test."""

    rating: int
    pool: int
