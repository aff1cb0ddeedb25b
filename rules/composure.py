"""The composure test (RULES.md M8): a Shaken character's investigative spend.

Before spending points of an investigative ability, a Shaken character rolls 1d6 + strain
against the absolute value of its Stability pool (taken before the strain); the strain is
Stability given up whatever the outcome (M7 limits it). Failing does not stop the spend. The
throw is the one every test shares (``rules/_throw``); the checks of the spend itself (P1,
H3 first, M4) are ``spend_ability``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rules._moves import move_stability
from rules._throw import throw
from rules.abilities import Ability, AbilityKind, spend_ability
from rules.errors import RuleError, check_range
from rules.events import Event
from rules.stability import (
    MAX_STABILITY_SPEND,
    CharacterStability,
    StabilityOutcome,
    StabilityState,
    refuse_madness,
)
from rules.stability_events import Faltered, KeptComposure, Strained

if TYPE_CHECKING:
    from rules.character import CharacterHealth
    from rules.dice import Roller

__all__ = [
    "AbilitySpend",
    "ComposureTest",
    "NoComposureTest",
    "composure_needed",
    "spend_with_composure",
]


class NoComposureTest(RuleError):
    """M8: a strain was offered but there is no composure test to make. Params: ``reason``:
    ``no_stability`` (the character has none), ``general`` (not an investigative ability) or
    ``steady`` (not Shaken)."""

    code: ClassVar[str] = "no_composure_test"


@dataclass(frozen=True)
class ComposureTest:
    """M8: ``die + strain = total`` against ``difficulty`` (|pool| before the strain)."""

    die: int
    strain: int
    total: int
    difficulty: int
    kept: bool  # False: the character falters, and the spend is made all the same


@dataclass(frozen=True)
class AbilitySpend:
    """A spend outside a test: the ability after it and, for a Shaken character's
    investigative spend, the composure test with what it did to Stability (``stability``
    unchanged, with no events, otherwise)."""

    ability_after: Ability
    composure: ComposureTest | None
    stability: StabilityOutcome


def _no_test_reason(stability: CharacterStability | None, ability: Ability) -> str | None:
    """Why there is no composure test to make, or None when there is one (M8)."""
    if stability is None:
        return "no_stability"
    if ability.kind is not AbilityKind.INVESTIGATIVE:
        return "general"
    if stability.state is not StabilityState.SHAKEN:
        return "steady"
    return None


def composure_needed(stability: CharacterStability | None, ability: Ability) -> bool:
    """M8: whether spending ``ability`` makes a composure test (a Shaken character and an
    investigative ability), so that the bot asks for a strain only then."""
    return _no_test_reason(stability, ability) is None


def spend_with_composure(
    character: CharacterHealth,
    ability: Ability,
    points: int,
    *,
    stability: CharacterStability | None,
    strain: int = 0,
    roller: Roller,
) -> AbilitySpend:
    """P1, H3, M4, M8: spend ``points`` as ``spend_ability`` does and, when the character is
    Shaken and the ability investigative, make the composure test with ``strain``.

    Refused, before the die is rolled: whatever ``spend_ability`` refuses (a Hurt character's
    investigative spend first, H3), a strain with no composure test to make
    (``no_composure_test``), a strain that would leave the pool at -12 or less (M7). A strain
    that takes the pool from -5 or above to -6 or below gives a mental illness (M3).
    """
    check_range("strain", strain, 0, MAX_STABILITY_SPEND)
    ability_after = spend_ability(character, ability, points, stability=stability)
    reason = _no_test_reason(stability, ability)
    if reason is not None:
        if strain:
            raise NoComposureTest(reason=reason)
        unchanged = StabilityOutcome(before=stability, after=stability, events=())
        return AbilitySpend(ability_after=ability_after, composure=None, stability=unchanged)
    assert stability is not None  # _no_test_reason said so
    refuse_madness(stability, strain)
    roll = throw(roller, strain, -stability.pool)
    events: list[Event] = []
    if strain:
        events.append(Strained(points=strain))
    events.append(KeptComposure() if roll.success else Faltered())
    after = move_stability(stability, stability.pool - strain, events)
    return AbilitySpend(
        ability_after=ability_after,
        composure=ComposureTest(
            die=roll.die,
            strain=strain,
            total=roll.total,
            difficulty=roll.difficulty,
            kept=roll.success,
        ),
        stability=StabilityOutcome(before=stability, after=after, events=tuple(events)),
    )
