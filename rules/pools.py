"""The First Aid pool (RULES.md P1): only a GM's refresh fills it again."""

from __future__ import annotations

from dataclasses import replace

from rules.character import CharacterHealth
from rules.events import PoolRefreshed
from rules.outcome import Outcome

__all__ = ["refresh"]


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
