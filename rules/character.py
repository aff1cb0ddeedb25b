"""The values: a character's Health and everything the health rules remember about it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.errors import check_range
from rules.state import DEATH_THRESHOLD, HealthState, state_of

__all__ = [
    "BLEED_INTERVAL_MINUTES",
    "MAX_HEALTH_RATING",
    "MAX_POOL_RATING",
    "CharacterHealth",
    "Gender",
    "Hospital",
    "inconsistencies",
]

#: Highest maximum Health (COMMANDS.md ``/character create``, ``/character set``).
MAX_HEALTH_RATING = 99
#: Highest First Aid rating or pool.
MAX_POOL_RATING = 99
#: T1: game minutes per point of bleeding.
BLEED_INTERVAL_MINUTES = 30


class Gender(StrEnum):
    """A character's grammatical gender, when its player gave one: the bot's Spanish
    sentences agree with it and its English ones say she/he. No rule depends on it; it lives
    here because it is a fact about the character that every layer above may read."""

    FEMININE = "feminine"
    MASCULINE = "masculine"


@dataclass(frozen=True)
class Hospital:
    """A hospital stay (R3–R6); its length is fixed at admission (R4, R8)."""

    length_days: int
    days_served: int = 0

    @property
    def days_left(self) -> int:
        """Days of convalescence still to serve before discharge."""
        return self.length_days - self.days_served


@dataclass(frozen=True)
class CharacterHealth:
    """Health, the First Aid pool and the flags the rules keep about one character."""

    health: int
    max_health: int
    first_aid_pool: int
    first_aid_rating: int
    scene_start_health: int  # S1/S2
    conscious: bool = True
    roll_pending: bool = False  # C1
    stabilized: bool = False  # F6
    hospital: Hospital | None = None  # R3
    lowest_health: int | None = None  # D5: lowest Health of the current spell of serious wounds
    first_aid_received: int = 0  # F3: Health restored by First Aid this scene
    bleed_minutes: int = 0  # T1: minutes carried towards the next half hour
    full_recovery_due: bool = False  # R5: the next day of rest brings Health to its maximum

    @property
    def state(self) -> HealthState:
        """H2: derived from Health alone, never stored."""
        return state_of(self.health)

    @property
    def is_dead(self) -> bool:
        """H5."""
        return self.health <= DEATH_THRESHOLD

    @property
    def is_bleeding(self) -> bool:
        """T1: living, Seriously wounded, neither stabilized nor in hospital."""
        return (
            self.state is HealthState.SERIOUSLY_WOUNDED
            and not self.stabilized
            and self.hospital is None
        )

    @property
    def consciousness_difficulty(self) -> int:
        """C2: the Difficulty a Consciousness roll would have now (0 at Health 0 or more)."""
        return max(0, -self.health)

    @classmethod
    def new(cls, max_health: int, first_aid_rating: int) -> CharacterHealth:
        """A fresh character with both pools full (S2: its scene starts at full Health)."""
        check_range("max_health", max_health, 1, MAX_HEALTH_RATING)
        check_range("first_aid_rating", first_aid_rating, 0, MAX_POOL_RATING)
        return cls(
            health=max_health,
            max_health=max_health,
            first_aid_pool=first_aid_rating,
            first_aid_rating=first_aid_rating,
            scene_start_health=max_health,
        )


def inconsistencies(character: CharacterHealth) -> tuple[str, ...]:
    """Every invariant the rules keep that ``character`` breaks (empty when consistent).

    The actions never produce an inconsistent character from a consistent one; the bot may
    use this to check rows it loads, the tests use it after every action. (Unconscious at
    Health 0 or more is not listed: only a GM's knock-out (G3) makes it, and healing or a GM
    ends it; the property tests check that no other action does.)
    """
    c = character
    state = c.state
    problems: list[str] = []
    if c.max_health < 1:
        problems.append("max_health below 1")
    if c.health > c.max_health:
        problems.append("health above max_health")
    if not 0 <= c.first_aid_pool <= c.first_aid_rating:
        problems.append("first_aid_pool outside 0..first_aid_rating")
    if c.roll_pending and not (c.conscious and DEATH_THRESHOLD < c.health < 0):
        problems.append("roll pending while not conscious, living and below 0")
    if c.stabilized and state is not HealthState.SERIOUSLY_WOUNDED:
        problems.append("stabilized while not seriously wounded")
    if c.hospital is not None:
        if state is not HealthState.SERIOUSLY_WOUNDED:
            problems.append("in hospital while not seriously wounded")
        if not 0 <= c.hospital.days_served < c.hospital.length_days:
            problems.append("hospital days_served outside 0..length_days-1")
        if c.full_recovery_due:
            problems.append("full recovery due while in hospital")
    if (c.lowest_health is not None) != (state is HealthState.SERIOUSLY_WOUNDED):
        problems.append("lowest_health set exactly when not in a spell of serious wounds")
    if c.lowest_health is not None and c.lowest_health > c.health:
        problems.append("lowest_health above health")
    if not 0 <= c.bleed_minutes < BLEED_INTERVAL_MINUTES:
        problems.append("bleed_minutes outside 0..29")
    if c.bleed_minutes and not c.is_bleeding:
        problems.append("bleed_minutes kept while not bleeding")
    if c.first_aid_received < 0:
        problems.append("first_aid_received below 0")
    return tuple(problems)
