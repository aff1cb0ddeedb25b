"""Damage (RULES.md D1–D5, with C1 for the Consciousness roll it makes due)."""

from __future__ import annotations

from rules._moves import move_health, refuse_dead
from rules.character import CharacterHealth
from rules.dice import MAX_COUNT, MAX_MODIFIER, MAX_SIDES
from rules.errors import check_range
from rules.events import Damaged, Event
from rules.outcome import Outcome

__all__ = ["MAX_DAMAGE", "apply_damage"]

#: Highest amount of damage in one hit: the most the largest legal dice expression can roll.
MAX_DAMAGE = MAX_COUNT * MAX_SIDES + MAX_MODIFIER


def apply_damage(character: CharacterHealth, amount: int) -> Outcome:
    """Lower Health by ``amount`` (already rolled, D2) and let the flags follow.

    Fresh damage ends a stabilization (D4) and the pending day-after-discharge recovery
    (R5); a character in hospital stays there with its stay unchanged (R8), unless it dies.
    """
    check_range("amount", amount, 1, MAX_DAMAGE)
    refuse_dead(character)
    events: list[Event] = [Damaged(amount=amount)]
    after = move_health(
        character, character.health - amount, events, roll_due=True, fresh_damage=True
    )
    return Outcome(before=character, after=after, events=tuple(events))
