"""Abilities other than Health: pools, spends and tests (RULES.md P1–P3, H3, H4, M4, M8).

Each function takes values and returns new values; a refusal is a ``RuleError`` subclass
raised before anything is computed, so a refused action changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from rules._throw import throw
from rules.ability_catalog import AbilityKind, find_known, known_kind
from rules.errors import CharacterDead, CharacterUnconscious, RuleError, check_range
from rules.stability import refuse_insane, shaken_penalty
from rules.state import HealthState

if TYPE_CHECKING:
    from rules.character import CharacterHealth
    from rules.dice import Roller
    from rules.stability import CharacterStability

__all__ = [
    "DEFAULT_DIFFICULTY",
    "DEFAULT_HIT_THRESHOLD",
    "MAX_ABILITIES",
    "MAX_DIFFICULTY",
    "MAX_POINTS",
    "MAX_RATING",
    "WOUND_PENALTY",
    "Ability",
    "AbilityKind",
    "AbilityRoll",
    "CannotFight",
    "InvestigativeNotTested",
    "InvestigativeWhileHurt",
    "NotEnoughPool",
    "ReservedAbility",
    "TooManyAbilities",
    "check_can_add",
    "difficulty_penalty",
    "is_reserved_ability_name",
    "make_test",
    "refresh_ability",
    "set_ability",
    "spend_ability",
]

#: At most this many abilities a character (COMMANDS.md, /ability set).
MAX_ABILITIES = 60
#: Highest rating (and so pool) of an ability.
MAX_RATING = 99
#: Highest number of points in one spend (/spend ``points``, /check ``spend``).
MAX_POINTS = 99
#: Highest Difficulty or Hit Threshold a test may be given.
MAX_DIFFICULTY = 99
#: The Difficulty of a test when the GM names none.
DEFAULT_DIFFICULTY = 4
#: The Hit Threshold of an attack when the GM names none.
DEFAULT_HIT_THRESHOLD = 3
#: What Hurt and Seriously wounded add to every Difficulty and Hit Threshold (H3, H4 ruling).
WOUND_PENALTY = 1

_WOUNDED = frozenset({HealthState.HURT, HealthState.SERIOUSLY_WOUNDED})


# --- Refusals -------------------------------------------------------------------------------
# Also raised here, from rules.errors: InvalidValue "invalid_value" (field, min, max),
# CharacterDead "dead", CharacterUnconscious "unconscious"; and, when the character's
# Stability is given, IncurablyInsane "incurably_insane" (M4).


class NotEnoughPool(RuleError):
    """A spend beyond what is left in the pool (P1). Params: ``ability``, ``available``,
    ``requested``."""

    code: ClassVar[str] = "not_enough_pool"


class InvestigativeWhileHurt(RuleError):
    """Pain forbids investigative spends (H3; H4 ruling). Params: ``ability``, ``state``
    (the ``HealthState`` value)."""

    code: ClassVar[str] = "investigative_while_hurt"


class InvestigativeNotTested(RuleError):
    """GUMSHOE spends investigative abilities, never rolls them. Params: ``ability``."""

    code: ClassVar[str] = "investigative_not_tested"


class CannotFight(RuleError):
    """A Seriously wounded character may not attack (H4). Params: none."""

    code: ClassVar[str] = "cannot_fight"


class ReservedAbility(RuleError):
    """Health and First Aid are the character's own values, not abilities. Params: ``name``
    (as given)."""

    code: ClassVar[str] = "reserved_ability"


class TooManyAbilities(RuleError):
    """The character already has the most abilities allowed. Params: ``max``."""

    code: ClassVar[str] = "too_many_abilities"


# --- Values ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ability:
    """An ability of a character: a rating and a pool between 0 and the rating (P1)."""

    name: str
    kind: AbilityKind
    rating: int
    pool: int

    def __post_init__(self) -> None:
        # A broken invariant here is a bug (or a corrupt row), never a player's mistake.
        if not 0 <= self.rating <= MAX_RATING:
            raise ValueError(f"rating {self.rating} outside 0..{MAX_RATING}")
        if not 0 <= self.pool <= self.rating:
            raise ValueError(f"pool {self.pool} outside 0..{self.rating}")


@dataclass(frozen=True)
class AbilityRoll:
    """A GUMSHOE test (P3): ``die + spend = total`` against ``difficulty``.

    ``difficulty`` is ``base_difficulty + penalty + shaken_penalty``; ``penalty`` is the
    Hurt / Seriously wounded +1 (H3, H4) and ``shaken_penalty`` the Shaken +1 (M8), each shown
    apart so the reply can print the breakdown. For an attack the Difficulty is the
    opponent's Hit Threshold.
    """

    ability_after: Ability
    die: int
    spend: int
    total: int
    base_difficulty: int
    penalty: int
    difficulty: int
    success: bool
    attack: bool
    shaken_penalty: int = 0


# --- Names and counts -----------------------------------------------------------------------


def is_reserved_ability_name(name: str) -> bool:
    """Whether ``name`` means Health or First Aid (either language; case, accents and extra
    spaces ignored): those are kept as the character's own values, not as abilities."""
    known = find_known(name)
    return known is not None and known.reserved


def check_can_add(count_existing: int) -> None:
    """Refuse a new ability for a character that already has ``MAX_ABILITIES``."""
    if count_existing >= MAX_ABILITIES:
        raise TooManyAbilities(max=MAX_ABILITIES)


# --- Actions --------------------------------------------------------------------------------


def _check_can_act(character: CharacterHealth) -> None:
    if character.state is HealthState.DEAD:
        raise CharacterDead()
    if not character.conscious:
        raise CharacterUnconscious()


def _check_pool(ability: Ability, requested: int) -> None:
    if requested > ability.pool:
        raise NotEnoughPool(ability=ability.name, available=ability.pool, requested=requested)


def set_ability(
    existing: Ability | None,
    name: str,
    rating: int,
    pool: int | None = None,
    kind: AbilityKind | None = None,
) -> Ability:
    """Add an ability (``existing`` None) or correct one, as ``/ability set`` does.

    A new ability starts with a full pool; an existing one keeps its pool, cut down to a
    lowered rating; an explicit ``pool`` must lie within 0 and the rating. An omitted
    ``kind`` keeps the existing kind, else takes the catalog's, else GENERAL. Health and
    First Aid are refused. The name should already be cleaned (``rules.names``).
    """
    name = name.strip()
    if is_reserved_ability_name(name):
        raise ReservedAbility(name=name)
    check_range("rating", rating, 0, MAX_RATING)
    if pool is not None:
        check_range("pool", pool, 0, rating)
    if kind is None and existing is not None:
        kind = existing.kind
    if kind is None:
        kind = known_kind(name)
    if kind is None:
        kind = AbilityKind.GENERAL
    if pool is None:
        pool = rating if existing is None else min(existing.pool, rating)
    return Ability(name=name, kind=kind, rating=rating, pool=pool)


def spend_ability(
    character: CharacterHealth,
    ability: Ability,
    points: int,
    *,
    stability: CharacterStability | None = None,
) -> Ability:
    """Spend ``points`` from the pool outside a test (P1, P2); returns the ability after.

    Refused for a dead or unconscious character, for an incurably insane one (M4, when its
    ``stability`` is given), for an investigative ability while Hurt or Seriously wounded
    (H3), and beyond the pool. A Shaken character's investigative spend also makes a
    composure test (M8): ``rules.composure.spend_with_composure`` makes both.
    """
    check_range("points", points, 1, MAX_POINTS)
    _check_can_act(character)
    refuse_insane(stability, "spend")
    if ability.kind is AbilityKind.INVESTIGATIVE and character.state in _WOUNDED:
        raise InvestigativeWhileHurt(ability=ability.name, state=character.state.value)
    _check_pool(ability, points)
    return replace(ability, pool=ability.pool - points)


def difficulty_penalty(character: CharacterHealth) -> int:
    """What the character's wounds add to the Difficulty of its tests (H3; H4 ruling)."""
    return WOUND_PENALTY if character.state in _WOUNDED else 0


def make_test(
    character: CharacterHealth,
    ability: Ability,
    *,
    difficulty: int | None,
    spend: int,
    attack: bool,
    roller: Roller,
    stability: CharacterStability | None = None,
) -> AbilityRoll:
    """Test a general ability (P3): 1d6 + ``spend`` against the Difficulty.

    ``difficulty`` None means 4, or the Hit Threshold 3 for an ``attack``; Hurt and
    Seriously wounded raise it by 1 (P2), and so does Shaken when the character's
    ``stability`` is given (M8). The spend comes out of the pool. Refused, before the die is
    rolled: an investigative ability, an attack by a Seriously wounded character (H4), a
    dead, unconscious or incurably insane (M4) character, a spend beyond the pool, numbers
    out of range. Any general ability may be tested, First Aid included.
    """
    if difficulty is not None:
        check_range("difficulty", difficulty, 0, MAX_DIFFICULTY)
    check_range("spend", spend, 0, MAX_POINTS)
    _check_can_act(character)
    refuse_insane(stability, "check")
    if ability.kind is AbilityKind.INVESTIGATIVE:
        raise InvestigativeNotTested(ability=ability.name)
    if attack and character.state is HealthState.SERIOUSLY_WOUNDED:
        raise CannotFight()
    _check_pool(ability, spend)

    if difficulty is not None:
        base_difficulty = difficulty
    else:
        base_difficulty = DEFAULT_HIT_THRESHOLD if attack else DEFAULT_DIFFICULTY
    penalty = difficulty_penalty(character)
    shaken = shaken_penalty(stability)
    roll = throw(roller, spend, base_difficulty + penalty + shaken)
    return AbilityRoll(
        ability_after=replace(ability, pool=ability.pool - spend),
        die=roll.die,
        spend=spend,
        total=roll.total,
        base_difficulty=base_difficulty,
        penalty=penalty,
        difficulty=roll.difficulty,
        success=roll.success,
        attack=attack,
        shaken_penalty=shaken,
    )


def refresh_ability(ability: Ability) -> Ability:
    """The ability with its pool back at its rating (P1: only a GM refreshes)."""
    return replace(ability, pool=ability.rating)
