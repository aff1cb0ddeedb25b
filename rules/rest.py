"""Recovery: natural rest and hospital convalescence (RULES.md R1–R8)."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rules._moves import move_health, refuse_dead
from rules.character import CharacterHealth, Hospital
from rules.errors import RuleError, check_range
from rules.events import (
    Admitted,
    ConvalescenceProgressed,
    Discharged,
    Event,
    HospitalNotNeeded,
    RecoveredFully,
    Rested,
    Stabilized,
)
from rules.outcome import Outcome
from rules.state import HealthState

__all__ = [
    "HEALTH_PER_DAY",
    "MAX_DAYS",
    "NeedsHospital",
    "discharge_health",
    "rest",
]

#: R1: Health restored per day of natural rest.
HEALTH_PER_DAY = 2
#: Most days in one request (COMMANDS.md ``/rest``).
MAX_DAYS = 365


class NeedsHospital(RuleError):
    """R2: natural rest does nothing for a Seriously wounded character (no params)."""

    code: ClassVar[str] = "needs_hospital"


def discharge_health(character: CharacterHealth) -> int:
    """R5: half the maximum, rounded down, at least 1."""
    return max(1, character.max_health // 2)


def rest(character: CharacterHealth, days: int, *, hospital: bool) -> Outcome:
    """R1–R8: ``days`` of rest, in hospital or not.

    A character already in hospital convalesces whatever ``hospital`` says (R6); a
    Seriously wounded one sent to hospital is admitted (R3, R4); days beyond discharge go
    on as natural rest (R6). A Seriously wounded character outside hospital cannot rest
    naturally (R2); one that is not Seriously wounded rests naturally even in hospital.
    """
    check_range("days", days, 1, MAX_DAYS)
    refuse_dead(character)
    events: list[Event] = []
    current = character
    if current.hospital is None and current.state is HealthState.SERIOUSLY_WOUNDED:
        if not hospital:
            raise NeedsHospital()
        lowest = current.health if current.lowest_health is None else current.lowest_health
        stay = Hospital(length_days=-min(lowest, current.health))
        events.append(Admitted(length_days=stay.length_days))
        if not current.stabilized:
            events.append(Stabilized())
        # R3: admission stabilizes (no bleeding in hospital); T2: the clock restarts.
        current = replace(
            current, hospital=stay, stabilized=True, bleed_minutes=0, full_recovery_due=False
        )
    elif current.hospital is None and hospital:
        events.append(HospitalNotNeeded())

    if current.hospital is not None:
        current, days = _convalesce(current, days, events)
    if days:
        current = _natural_rest(current, days, events)
    return Outcome(before=character, after=current, events=tuple(events))


def _convalesce(
    character: CharacterHealth, days: int, events: list[Event]
) -> tuple[CharacterHealth, int]:
    """R4–R6: serve days of the stay; return the character and the days left over."""
    stay = character.hospital
    assert stay is not None
    served = min(days, stay.days_left)
    stay = replace(stay, days_served=stay.days_served + served)
    events.append(ConvalescenceProgressed(days_served=stay.days_served, days_left=stay.days_left))
    if stay.days_left:
        return replace(character, hospital=stay), days - served
    # R5, R7: discharged at half the maximum, awake, no roll pending, the spell over.
    health = discharge_health(character)
    events.append(Discharged(health=health))
    left = replace(character, hospital=None, stabilized=False)
    after = move_health(left, health, events, roll_due=False)
    after = replace(after, full_recovery_due=health < after.max_health)
    return after, days - served


def _natural_rest(character: CharacterHealth, days: int, events: list[Event]) -> CharacterHealth:
    """R1, R5, R7: 2 Health a day up to the maximum; the day after discharge, all of it."""
    if character.full_recovery_due:
        target = character.max_health
    else:
        target = min(character.max_health, character.health + HEALTH_PER_DAY * days)
    target = max(target, character.health)
    events.append(Rested(days=days, restored=target - character.health))
    full = character.full_recovery_due
    after = move_health(character, target, events, roll_due=False)
    after = replace(after, full_recovery_due=False)
    if full:
        events.append(RecoveredFully(health=after.health))
    return after
