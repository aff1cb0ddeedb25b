"""A GM's corrections (RULES.md G1–G4): set values directly, also on the dead."""

from __future__ import annotations

from dataclasses import replace

from rules._moves import move_health
from rules.character import MAX_HEALTH_RATING, MAX_POOL_RATING, CharacterHealth
from rules.errors import check_range
from rules.events import Corrected, Event, RollCleared, RollDue
from rules.outcome import Outcome

__all__ = [
    "MAX_CORRECTED_HEALTH",
    "MIN_CORRECTED_HEALTH",
    "correct",
]

#: Range of a corrected Health (COMMANDS.md ``/character set health``).
MIN_CORRECTED_HEALTH = -99
MAX_CORRECTED_HEALTH = 99


def correct(
    character: CharacterHealth,
    *,
    health: int | None = None,
    max_health: int | None = None,
    first_aid_pool: int | None = None,
    first_aid_rating: int | None = None,
    conscious: bool | None = None,
) -> Outcome:
    """G1–G4: apply the given values; omitted ones stay.

    The rating comes before the pool and the maximum before Health, so that a pool above
    its rating and Health above its maximum are cut down to them (G1). When Health moves,
    the flags follow it as if it had moved there (G2), and then a given ``conscious`` wins
    (G3), at any Health: a GM may knock out a Healthy character, who then wakes when healed
    (C7) or when a GM says so. Health at the start of the scene and ``full_recovery_due``
    are never touched (G4).
    """
    if health is not None:
        check_range("health", health, MIN_CORRECTED_HEALTH, MAX_CORRECTED_HEALTH)
    if max_health is not None:
        check_range("max_health", max_health, 1, MAX_HEALTH_RATING)
    if first_aid_pool is not None:
        check_range("first_aid_pool", first_aid_pool, 0, MAX_POOL_RATING)
    if first_aid_rating is not None:
        check_range("first_aid_rating", first_aid_rating, 0, MAX_POOL_RATING)

    events: list[Event] = []
    rating = character.first_aid_rating if first_aid_rating is None else first_aid_rating
    pool = character.first_aid_pool if first_aid_pool is None else first_aid_pool
    pool = min(pool, rating)
    maximum = character.max_health if max_health is None else max_health
    new_health = character.health if health is None else health
    new_health = min(new_health, maximum)
    for field, before, after in (
        ("first_aid_rating", character.first_aid_rating, rating),
        ("first_aid_pool", character.first_aid_pool, pool),
        ("max_health", character.max_health, maximum),
        ("health", character.health, new_health),
    ):
        if before != after:
            events.append(Corrected(field=field, before=before, after=after))

    current = replace(character, first_aid_rating=rating, first_aid_pool=pool, max_health=maximum)
    if new_health != character.health:
        current = move_health(current, new_health, events, roll_due=True)

    if conscious is not None:
        if conscious != current.conscious:
            events.append(Corrected(field="conscious", before=current.conscious, after=conscious))
        # G3: either way no roll is pending; a roll that G2 just made due never was.
        events = [event for event in events if not isinstance(event, RollDue)]
        if character.roll_pending and not any(isinstance(e, RollCleared) for e in events):
            events.append(RollCleared())
        current = replace(current, conscious=conscious, roll_pending=False)
    return Outcome(before=character, after=current, events=tuple(events))
