"""The First Aid pool (RULES.md P1) and Stability (M11): only a GM's refresh fills them."""

from __future__ import annotations

from dataclasses import replace

from rules._moves import move_stability
from rules.character import CharacterHealth
from rules.events import Event, PoolRefreshed
from rules.outcome import Outcome
from rules.stability import CharacterStability, StabilityOutcome
from rules.stability_events import StabilityRefreshed

__all__ = ["refresh", "refresh_stability"]


def refresh(character: CharacterHealth) -> Outcome:
    """P1: the First Aid pool back to its rating; a full pool is no change (no events)."""
    if character.first_aid_pool == character.first_aid_rating:
        return Outcome(before=character, after=character, events=())
    after = replace(character, first_aid_pool=character.first_aid_rating)
    return Outcome(
        before=character,
        after=after,
        events=(PoolRefreshed(before=character.first_aid_pool, after=after.first_aid_pool),),
    )


def refresh_stability(stability: CharacterStability | None) -> StabilityOutcome:
    """M11: the Stability pool back to its rating; a full pool, an incurably insane
    character (M4) or one without Stability is no change (no events)."""
    if stability is None or stability.is_insane or stability.pool == stability.rating:
        return StabilityOutcome(before=stability, after=stability, events=())
    events: list[Event] = [StabilityRefreshed(before=stability.pool, after=stability.rating)]
    after = move_stability(stability, stability.rating, events)
    return StabilityOutcome(before=stability, after=after, events=tuple(events))
