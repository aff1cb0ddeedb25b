"""Game time and bleeding (RULES.md T1, T2; C1 for the roll bleeding makes due)."""

from __future__ import annotations

from dataclasses import replace

from rules._moves import move_health
from rules.character import BLEED_INTERVAL_MINUTES, CharacterHealth
from rules.errors import check_range
from rules.events import Bled, Event
from rules.outcome import Outcome
from rules.state import DEATH_THRESHOLD

__all__ = ["MAX_MINUTES", "pass_time"]

#: Most minutes in one call (COMMANDS.md ``/time``).
MAX_MINUTES = 1440


def pass_time(character: CharacterHealth, minutes: int) -> Outcome:
    """T1: every full half hour spent bleeding costs 1 Health; minutes carry over.

    Only a bleeding character (``is_bleeding``) counts minutes; bleeding stops at death,
    leaving Health at -12 (T2). Anyone else is unchanged, with no events.
    """
    check_range("minutes", minutes, 1, MAX_MINUTES)
    if not character.is_bleeding:
        return Outcome(before=character, after=character, events=())
    half_hours, carried = divmod(character.bleed_minutes + minutes, BLEED_INTERVAL_MINUTES)
    points = min(half_hours, character.health - DEATH_THRESHOLD)
    if points == 0:
        after = replace(character, bleed_minutes=carried)
        return Outcome(before=character, after=after, events=())
    events: list[Event] = [Bled(points=points)]
    after = replace(character, bleed_minutes=carried)
    after = move_health(after, character.health - points, events, roll_due=True)
    return Outcome(before=character, after=after, events=tuple(events))
