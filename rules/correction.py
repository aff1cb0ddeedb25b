"""A GM's corrections (RULES.md G1–G4, M13): set values directly, also on the dead."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rules._moves import move_health, move_stability
from rules.character import MAX_HEALTH_RATING, MAX_POOL_RATING, CharacterHealth
from rules.errors import NoStability, RuleError, check_range
from rules.events import Corrected, Event, RollCleared, RollDue
from rules.outcome import Outcome
from rules.stability import MAX_STABILITY_RATING, CharacterStability, StabilityOutcome
from rules.stability_events import LucidityEnded, StabilityAdded, StabilityRemoved, WentInsane

__all__ = [
    "MAX_CORRECTED_HEALTH",
    "MAX_CORRECTED_STABILITY",
    "MIN_CORRECTED_HEALTH",
    "MIN_CORRECTED_STABILITY",
    "StabilityRemovalConflict",
    "correct",
    "correct_stability",
]

#: Range of a corrected Health (COMMANDS.md ``/character set health``).
MIN_CORRECTED_HEALTH = -99
MAX_CORRECTED_HEALTH = 99
#: Range of a corrected Stability pool (COMMANDS.md ``/character set stability``).
MIN_CORRECTED_STABILITY = -99
MAX_CORRECTED_STABILITY = 99


class StabilityRemovalConflict(RuleError):
    """M13: a rating of 0 removes Stability, so it cannot come with another Stability value
    (params: field, ``stability`` or ``mental_illness``)."""

    code: ClassVar[str] = "stability_removal_conflict"


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


def correct_stability(
    stability: CharacterStability | None,
    *,
    pool: int | None = None,
    rating: int | None = None,
    mental_illness: bool | None = None,
) -> StabilityOutcome:
    """M13: apply the given values; omitted ones stay. Exactly what they say: no rating
    point lost, no mental illness given (M3 is for falls, not corrections); the state follows
    the pool (M2), and a pool at -12 or less clears a due test (M4). Works on the dead and
    the incurably insane.

    A ``rating`` of 0 removes Stability with its marks, scene counters and due test (with
    another Stability value: ``stability_removal_conflict``). A rating given to a character
    without Stability gives it, its pool full unless ``pool`` is given; a pool or a mark alone
    for such a character is refused (``no_stability``). A pool above the rating is cut to
    it, and lowering the rating lowers the pool. Clearing the illness ends lucidity (M10).
    """
    if pool is not None:
        check_range("stability", pool, MIN_CORRECTED_STABILITY, MAX_CORRECTED_STABILITY)
    if rating is not None:
        check_range("max_stability", rating, 0, MAX_STABILITY_RATING)
    if rating == 0:
        return _remove_stability(stability, pool=pool, mental_illness=mental_illness)
    if stability is None:
        return _add_stability(pool=pool, rating=rating, mental_illness=mental_illness)

    new_rating = stability.rating if rating is None else rating
    new_pool = min(stability.pool if pool is None else pool, new_rating)
    events: list[Event] = []
    if new_rating != stability.rating:
        events.append(Corrected(field="max_stability", before=stability.rating, after=new_rating))
    current = replace(stability, rating=new_rating)
    if new_pool != stability.pool:
        events.append(Corrected(field="stability", before=stability.pool, after=new_pool))
        current = move_stability(current, new_pool, events, correction=True)
    if mental_illness is not None and mental_illness != stability.mental_illness:
        events.append(
            Corrected(field="mental_illness", before=stability.mental_illness, after=mental_illness)
        )
        current = replace(current, mental_illness=mental_illness)
        if current.lucid and not mental_illness:
            events.append(LucidityEnded())
            current = replace(current, lucid=False)
    return StabilityOutcome(before=stability, after=current, events=tuple(events))


def _remove_stability(
    stability: CharacterStability | None, *, pool: int | None, mental_illness: bool | None
) -> StabilityOutcome:
    if pool is not None:
        raise StabilityRemovalConflict(field="stability")
    if mental_illness is not None:
        raise StabilityRemovalConflict(field="mental_illness")
    if stability is None:
        return StabilityOutcome(before=None, after=None, events=())
    removed = StabilityRemoved(rating=stability.rating, pool=stability.pool)
    return StabilityOutcome(before=stability, after=None, events=(removed,))


def _add_stability(
    *, pool: int | None, rating: int | None, mental_illness: bool | None
) -> StabilityOutcome:
    if rating is None:
        if pool is None and mental_illness is None:
            return StabilityOutcome(before=None, after=None, events=())
        raise NoStability()
    added = CharacterStability(
        pool=rating if pool is None else min(pool, rating),
        rating=rating,
        mental_illness=bool(mental_illness),
    )
    events: list[Event] = [
        StabilityAdded(rating=rating, pool=added.pool, mental_illness=added.mental_illness)
    ]
    if added.is_insane:
        events.append(WentInsane())
    return StabilityOutcome(before=None, after=added, events=tuple(events))
