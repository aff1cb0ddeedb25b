"""Stability, the mind's pool (RULES.md M1–M4): its value, its states and its invariants.

A character has Stability only once a rating is given (M1): the rules take a
``CharacterStability | None`` beside the character's ``CharacterHealth``, and ``None`` costs a
character without Stability nothing. What Stability shares with Health (the bands of a pool
that may fall below 0, the d6 test with a spend, the 2:1 healer) lives in the private
``rules/_bands.py``, ``rules/_throw.py`` and ``rules/_healing.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from rules._bands import LOST_THRESHOLD, SERIOUS_THRESHOLD, Band, band_of, max_spend_above_lost
from rules.errors import IncurablyInsane, RuleError, check_range
from rules.events import Event

__all__ = [
    "DEFAULT_STABILITY_DIFFICULTY",
    "ILLNESS_THRESHOLD",
    "INSANITY_THRESHOLD",
    "MAX_LOSS",
    "MAX_STABILITY_DIFFICULTY",
    "MAX_STABILITY_RATING",
    "MAX_STABILITY_SPEND",
    "MIN_LOSS",
    "MIN_STABILITY_DIFFICULTY",
    "SHAKEN_PENALTY",
    "CharacterStability",
    "DueTest",
    "SpendWouldMadden",
    "StabilityOutcome",
    "StabilityState",
    "legal_stability_spends",
    "max_stability_spend",
    "refuse_insane",
    "refuse_madness",
    "shaken_penalty",
    "stability_inconsistencies",
    "stability_state_of",
]

#: M1, COMMANDS.md ``/character create stability``: the highest Stability rating.
MAX_STABILITY_RATING = 99
#: M4: a pool at or below this is incurable insanity (the lost band shared with Health).
INSANITY_THRESHOLD = LOST_THRESHOLD
#: M3: a fall from above this to this or below (but above -12) gives a mental illness.
ILLNESS_THRESHOLD = SERIOUS_THRESHOLD
#: M5: the potential loss of an incident, 1–30.
MIN_LOSS = 1
MAX_LOSS = 30
#: M5: the GM's Difficulty of a Stability test, 1–10, 4 unless the GM says otherwise.
MIN_STABILITY_DIFFICULTY = 1
MAX_STABILITY_DIFFICULTY = 10
DEFAULT_STABILITY_DIFFICULTY = 4
#: M5, M8: the highest Stability spend on a test, or strain on a composure test, accepted
#: (COMMANDS.md ``spend``, ``strain``); M7 may allow less.
MAX_STABILITY_SPEND = 99
#: M8: what Shaken adds to the Difficulty of a general ability's test (and to Hit Thresholds).
SHAKEN_PENALTY = 1


class StabilityState(Enum):
    """The three states of RULES.md M2, from best to worst."""

    STEADY = "steady"
    SHAKEN = "shaken"
    INCURABLY_INSANE = "incurably_insane"


#: M2: Shaken is both middle bands; the -6 to -11 band is Shaken plus a mental illness (M3).
_STATE_OF_BAND = {
    Band.ABOVE_ZERO: StabilityState.STEADY,
    Band.LOW: StabilityState.SHAKEN,
    Band.SERIOUS: StabilityState.SHAKEN,
    Band.LOST: StabilityState.INCURABLY_INSANE,
}


def stability_state_of(pool: int) -> StabilityState:
    """The state that a Stability pool means (M2)."""
    return _STATE_OF_BAND[band_of(pool)]


@dataclass(frozen=True)
class DueTest:
    """A Stability test the GM called (M5): the incident's potential loss and the GM's
    Difficulty (the Hurt and Shaken +1s are added when it is rolled)."""

    loss: int
    difficulty: int


@dataclass(frozen=True)
class CharacterStability:
    """A character's Stability and everything the Stability rules remember about it."""

    pool: int  # M1: may go below 0, never above the rating
    rating: int  # M1: at least 1 (a rating of 0 removes Stability, M13)
    mental_illness: bool = False  # M3: a lasting mark, kept when the pool recovers
    lucid: bool = False  # M10: lucid for the rest of this scene
    scene_worst_loss: int = 0  # M6: the highest potential loss tested this scene
    scene_lost: int = 0  # M6: what failed tests took this scene
    due_test: DueTest | None = None  # M5: the test the GM called and nobody rolled yet

    @property
    def state(self) -> StabilityState:
        """M2: derived from the pool alone, never stored."""
        return stability_state_of(self.pool)

    @property
    def is_insane(self) -> bool:
        """M4: the pool is at -12 or less."""
        return self.pool <= INSANITY_THRESHOLD

    @classmethod
    def new(cls, rating: int) -> CharacterStability:
        """M1: Stability given at creation, with its pool full."""
        check_range("max_stability", rating, 1, MAX_STABILITY_RATING)
        return cls(pool=rating, rating=rating)


@dataclass(frozen=True)
class StabilityOutcome:
    """The result of an action on one character's Stability: ``before`` and ``after`` are
    whole values (``None``: no Stability), so the bot can store and undo them."""

    before: CharacterStability | None
    after: CharacterStability | None
    events: tuple[Event, ...]

    @property
    def changed(self) -> bool:
        """Whether any stored value changed (COMMANDS.md: what counts as a change)."""
        return self.before != self.after


class SpendWouldMadden(RuleError):
    """M7: a Stability spend (on a test) or strain (on a composure test) would leave the pool
    at -12 or less (params: spend — the spend or the strain —, max_spend)."""

    code: ClassVar[str] = "spend_would_madden"


def max_stability_spend(stability: CharacterStability) -> int:
    """M7: the largest spend or strain that leaves the pool above -12 (0 when none is)."""
    return max_spend_above_lost(stability.pool, MAX_STABILITY_SPEND)


def legal_stability_spends(stability: CharacterStability) -> range:
    """Every spend M7 allows, from 0 (for the buttons, as ``legal_spends``)."""
    return range(max_stability_spend(stability) + 1)


def refuse_madness(stability: CharacterStability, spend: int) -> None:
    """M7: refuse a spend or strain that would leave the pool at -12 or less."""
    limit = max_stability_spend(stability)
    if spend > limit:
        raise SpendWouldMadden(spend=spend, max_spend=limit)


def refuse_insane(stability: CharacterStability | None, action: str) -> None:
    """M4: the incurably insane make no tests, rolls or spends and receive no treatment (a
    character without Stability never is); ``action`` is what was asked (``roll``,
    ``spend``, ``check``, ``treatment``), so that the refusal says that, once."""
    if stability is not None and stability.is_insane:
        raise IncurablyInsane(reason=action)


def shaken_penalty(stability: CharacterStability | None) -> int:
    """M8: what being Shaken adds to the Difficulty of a test (0 without Stability)."""
    if stability is not None and stability.state is StabilityState.SHAKEN:
        return SHAKEN_PENALTY
    return 0


def stability_inconsistencies(stability: CharacterStability) -> tuple[str, ...]:
    """Every invariant of the Stability rules that ``stability`` breaks (empty when
    consistent); the actions never produce an inconsistent value from a consistent one."""
    s = stability
    problems: list[str] = []
    if not 1 <= s.rating <= MAX_STABILITY_RATING:
        problems.append("rating outside 1..99")
    if s.pool > s.rating:
        problems.append("pool above rating")
    if s.lucid and not s.mental_illness:
        problems.append("lucid without a mental illness")
    if not 0 <= s.scene_worst_loss <= MAX_LOSS:
        problems.append("scene_worst_loss outside 0..30")
    if not 0 <= s.scene_lost <= s.scene_worst_loss:
        problems.append("scene_lost outside 0..scene_worst_loss")
    if s.due_test is not None:
        if s.is_insane:
            problems.append("test due while incurably insane")
        if not MIN_LOSS <= s.due_test.loss <= MAX_LOSS:
            problems.append("due test loss outside 1..30")
        if not MIN_STABILITY_DIFFICULTY <= s.due_test.difficulty <= MAX_STABILITY_DIFFICULTY:
            problems.append("due test difficulty outside 1..10")
    return tuple(problems)
