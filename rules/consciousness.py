"""The Consciousness roll (RULES.md C1–C7; M4, M8 for Stability)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from rules._bands import max_spend_above_lost
from rules._moves import move_health, refuse_dead
from rules._throw import TEST_DIE, throw
from rules.character import CharacterHealth
from rules.dice import Roller
from rules.errors import CharacterUnconscious, RuleError, check_range
from rules.events import Event, FellUnconscious, HealthSpent, StayedConscious
from rules.outcome import Outcome
from rules.stability import refuse_insane

if TYPE_CHECKING:
    from rules.stability import CharacterStability

__all__ = [
    "CONSCIOUSNESS_DIE",
    "MAX_SPEND",
    "ConsciousnessRoll",
    "NotBelowZero",
    "SpendWouldKill",
    "legal_spends",
    "max_legal_spend",
    "roll_consciousness",
]

#: C2: the roll is 1d6.
CONSCIOUSNESS_DIE = TEST_DIE
#: Highest spend the command accepts (COMMANDS.md ``spend``); C4 may allow less.
MAX_SPEND = 99


class NotBelowZero(RuleError):
    """C6: only a character below 0 Health makes the roll (params: health)."""

    code: ClassVar[str] = "not_below_zero"


class SpendWouldKill(RuleError):
    """C4: the spend would leave Health at -12 or less (params: spend, max_spend)."""

    code: ClassVar[str] = "spend_would_kill"


@dataclass(frozen=True)
class ConsciousnessRoll:
    """The roll and its arithmetic: ``die + spend = total vs difficulty``."""

    outcome: Outcome
    die: int
    spend: int
    total: int
    difficulty: int
    success: bool


def max_legal_spend(character: CharacterHealth) -> int:
    """C4: the largest spend that leaves Health above -12 (0 when none is possible)."""
    return max_spend_above_lost(character.health, MAX_SPEND)


def legal_spends(character: CharacterHealth) -> range:
    """Every spend C4 allows, from 0 (for the buttons)."""
    return range(max_legal_spend(character) + 1)


def roll_consciousness(
    character: CharacterHealth,
    spend: int,
    roller: Roller,
    *,
    stability: CharacterStability | None = None,
) -> ConsciousnessRoll:
    """C2–C6: roll 1d6 + ``spend`` against |Health| taken before the spend.

    The spend is lost from Health first (C3) and may move the character into Seriously
    wounded; it is not damage, so it keeps a stabilization and makes no new roll due
    (C1). Success or failure, no roll is pending afterwards. An incurably insane character
    (its ``stability`` given) makes no roll (M4); being Shaken changes nothing here (M8).
    """
    check_range("spend", spend, 0, MAX_SPEND)
    refuse_dead(character)
    if not character.conscious:
        raise CharacterUnconscious()
    refuse_insane(stability, "roll")
    if character.health >= 0:
        raise NotBelowZero(health=character.health)
    if spend > max_legal_spend(character):
        raise SpendWouldKill(spend=spend, max_spend=max_legal_spend(character))

    roll = throw(roller, spend, -character.health)

    events: list[Event] = []
    after = character
    if spend:
        events.append(HealthSpent(points=spend))
        after = move_health(after, after.health - spend, events, roll_due=False)
    if roll.success:
        events.append(StayedConscious())
        after = replace(after, roll_pending=False)
    else:
        events.append(FellUnconscious())
        after = replace(after, conscious=False, roll_pending=False)
    return ConsciousnessRoll(
        outcome=Outcome(before=character, after=after, events=tuple(events)),
        die=roll.die,
        spend=spend,
        total=roll.total,
        difficulty=roll.difficulty,
        success=roll.success,
    )
