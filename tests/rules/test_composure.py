"""M8 (Shaken: the +1 on tests and the composure test before an investigative spend) and M4
(the incurably insane make no tests, rolls or spends, give no First Aid) where Stability meets
the Health and ability rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import (
    Ability,
    AbilityKind,
    AbilitySpend,
    CharacterHealth,
    CharacterStability,
    ComposureTest,
    Faltered,
    IncurablyInsane,
    InvalidValue,
    KeptComposure,
    MedicInsane,
    MentalIllnessAcquired,
    NoComposureTest,
    RuleError,
    ScriptedRoller,
    SpendWouldMadden,
    StabilityOutcome,
    Strained,
    composure_needed,
    give_first_aid,
    make_test,
    roll_consciousness,
    spend_ability,
    spend_with_composure,
)
from rules.abilities import AbilityRoll, CannotFight, InvestigativeWhileHurt, NotEnoughPool
from tests.rules.factories import character, medic, stability

LIBRARY_USE = Ability("Library Use", AbilityKind.INVESTIGATIVE, rating=3, pool=3)
ATHLETICS = Ability("Athletics", AbilityKind.GENERAL, rating=6, pool=4)

HEALTHY = character(10)
HURT = character(-2)
SHAKEN = stability(-3)
STEADY = stability(2)
INSANE = stability(-12)


def spend(
    value: CharacterStability | None,
    *,
    ability: Ability = LIBRARY_USE,
    points: int = 1,
    strain: int = 0,
    die: int = 6,
    who: CharacterHealth = HEALTHY,
) -> AbilitySpend:
    return spend_with_composure(
        who, ability, points, stability=value, strain=strain, roller=ScriptedRoller([die])
    )


# --- M8: the composure test --------------------------------------------------------------------


def test_M8_a_shaken_investigative_spend_makes_a_composure_test_against_the_pool() -> None:
    result = spend(SHAKEN, die=3)
    assert result == AbilitySpend(
        ability_after=replace(LIBRARY_USE, pool=2),
        composure=ComposureTest(die=3, strain=0, total=3, difficulty=3, kept=True),
        stability=StabilityOutcome(before=SHAKEN, after=SHAKEN, events=(KeptComposure(),)),
    )


def test_M8_failing_the_composure_test_does_not_stop_the_spend() -> None:
    result = spend(stability(-5), die=4, points=2)
    assert result.ability_after == replace(LIBRARY_USE, pool=1)
    assert result.composure == ComposureTest(die=4, strain=0, total=4, difficulty=5, kept=False)
    assert result.stability.events == (Faltered(),)
    assert result.stability.after == stability(-5)


def test_M8_strain_is_added_to_the_die_and_lost_whatever_the_outcome() -> None:
    kept = spend(stability(-3), strain=2, die=1)
    assert kept.composure == ComposureTest(die=1, strain=2, total=3, difficulty=3, kept=True)
    assert kept.stability == StabilityOutcome(
        before=stability(-3), after=stability(-5), events=(Strained(points=2), KeptComposure())
    )
    faltered = spend(stability(-4), strain=1, die=2)
    assert faltered.composure == ComposureTest(die=2, strain=1, total=3, difficulty=4, kept=False)
    assert faltered.stability.after == stability(-5)
    assert faltered.stability.events == (Strained(points=1), Faltered())


def test_M8_the_composure_difficulty_is_taken_before_the_strain() -> None:
    result = spend(stability(-2), strain=3, die=1)
    assert result.composure is not None
    assert (result.composure.difficulty, result.composure.total, result.composure.kept) == (
        2,
        4,
        True,
    )
    assert result.stability.after == stability(-5)


def test_M8_at_pool_0_the_composure_difficulty_is_0_and_it_is_still_rolled() -> None:
    roller = ScriptedRoller([1])
    result = spend_with_composure(
        HEALTHY, LIBRARY_USE, 1, stability=stability(0), strain=0, roller=roller
    )
    assert roller.remaining == 0
    assert result.composure == ComposureTest(die=1, strain=0, total=1, difficulty=0, kept=True)


def test_M3_a_strain_into_the_band_gives_a_mental_illness() -> None:
    result = spend(stability(-5), strain=1, die=6)
    assert result.stability.after == stability(-6, rating=7, mental_illness=True)
    assert result.stability.events == (
        Strained(points=1),
        KeptComposure(),
        MentalIllnessAcquired(rating_before=8, rating_after=7),
    )


def test_M8_a_strain_from_0_to_minus_4_stays_shaken_without_illness() -> None:
    result = spend(stability(0), strain=4, die=1)
    assert result.stability.after == stability(-4)
    assert result.stability.events == (Strained(points=4), KeptComposure())


def test_M7_a_strain_that_would_leave_minus_12_or_less_is_refused() -> None:
    roller = ScriptedRoller([6])
    with pytest.raises(SpendWouldMadden) as refused:
        spend_with_composure(
            HEALTHY, LIBRARY_USE, 1, stability=stability(-9), strain=3, roller=roller
        )
    assert refused.value.params == {"spend": 3, "max_spend": 2}
    assert roller.remaining == 1
    assert spend(stability(-9), strain=2).stability.after.pool == -11  # type: ignore[union-attr]


@pytest.mark.parametrize("strain", [-1, 100])
def test_M8_strain_outside_0_to_99_is_refused(strain: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        spend(SHAKEN, strain=strain)
    assert refused.value.params == {"field": "strain", "min": 0, "max": 99}


@pytest.mark.parametrize(
    ("value", "ability", "reason"),
    [
        (None, LIBRARY_USE, "no_stability"),
        (SHAKEN, ATHLETICS, "general"),
        (STEADY, LIBRARY_USE, "steady"),
        (None, ATHLETICS, "no_stability"),
        (STEADY, ATHLETICS, "general"),
    ],
)
def test_M8_no_composure_test_without_a_shaken_investigative_spend(
    value: CharacterStability | None, ability: Ability, reason: str
) -> None:
    assert not composure_needed(value, ability)
    roller = ScriptedRoller([6])
    result = spend_with_composure(HEALTHY, ability, 1, stability=value, strain=0, roller=roller)
    assert result == AbilitySpend(
        ability_after=replace(ability, pool=ability.pool - 1),
        composure=None,
        stability=StabilityOutcome(before=value, after=value, events=()),
    )
    assert roller.remaining == 1
    with pytest.raises(NoComposureTest) as refused:
        spend_with_composure(HEALTHY, ability, 1, stability=value, strain=1, roller=roller)
    assert refused.value.code == "no_composure_test"
    assert refused.value.params == {"reason": reason}


def test_M8_composure_is_needed_for_a_shaken_investigative_spend_only() -> None:
    assert composure_needed(SHAKEN, LIBRARY_USE)
    assert composure_needed(stability(0), LIBRARY_USE)
    assert composure_needed(stability(-11), LIBRARY_USE)


def test_M8_H3_a_hurt_character_cannot_spend_investigative_points_checked_first() -> None:
    with pytest.raises(InvestigativeWhileHurt):
        spend(SHAKEN, who=HURT, strain=50)
    with pytest.raises(InvestigativeWhileHurt):
        spend(SHAKEN, who=HURT)


def test_M8_the_spend_is_refused_beyond_the_pool_before_any_composure() -> None:
    roller = ScriptedRoller([6])
    with pytest.raises(NotEnoughPool):
        spend_with_composure(HEALTHY, LIBRARY_USE, 4, stability=SHAKEN, strain=1, roller=roller)
    assert roller.remaining == 1


def test_M4_the_incurably_insane_spend_nothing() -> None:
    for ability in (LIBRARY_USE, ATHLETICS):
        with pytest.raises(IncurablyInsane):
            spend(INSANE, ability=ability)
        with pytest.raises(IncurablyInsane):
            spend_ability(HEALTHY, ability, 1, stability=INSANE)
    assert spend_ability(HEALTHY, ATHLETICS, 1, stability=stability(-11)).pool == 3


# --- M8: the Shaken +1 on tests of general abilities ---------------------------------------------


def check(
    value: CharacterStability | None,
    *,
    die: int,
    who: CharacterHealth = HEALTHY,
    attack: bool = False,
    difficulty: int | None = None,
) -> AbilityRoll:
    return make_test(
        who,
        ATHLETICS,
        difficulty=difficulty,
        spend=0,
        attack=attack,
        roller=ScriptedRoller([die]),
        stability=value,
    )


def test_M8_shaken_raises_the_difficulty_of_a_test_by_1() -> None:
    result = check(SHAKEN, die=4)
    assert result == AbilityRoll(
        ability_after=ATHLETICS,
        die=4,
        spend=0,
        total=4,
        base_difficulty=4,
        penalty=0,
        difficulty=5,
        success=False,
        attack=False,
        shaken_penalty=1,
    )


def test_M8_shaken_raises_the_hit_threshold_by_1() -> None:
    result = check(stability(0), die=4, attack=True)
    assert (result.base_difficulty, result.penalty, result.shaken_penalty) == (3, 0, 1)
    assert (result.difficulty, result.success) == (4, True)


def test_M8_hurt_and_shaken_test_at_plus_2() -> None:
    result = check(stability(-11), die=6, who=HURT, difficulty=5)
    assert (result.base_difficulty, result.penalty, result.shaken_penalty) == (5, 1, 1)
    assert (result.difficulty, result.success) == (7, False)


@pytest.mark.parametrize("value", [None, STEADY], ids=["no_stability", "steady"])
def test_M8_steady_or_no_stability_adds_nothing(value: CharacterStability | None) -> None:
    result = check(value, die=4)
    assert (result.shaken_penalty, result.difficulty, result.success) == (0, 4, True)


def test_M4_the_incurably_insane_make_no_test() -> None:
    roller = ScriptedRoller([6])
    with pytest.raises(IncurablyInsane):
        make_test(
            HEALTHY,
            ATHLETICS,
            difficulty=None,
            spend=0,
            attack=False,
            roller=roller,
            stability=INSANE,
        )
    assert roller.remaining == 1


def test_M4_H4_a_seriously_wounded_insane_character_is_refused_as_insane_first() -> None:
    with pytest.raises(IncurablyInsane):
        check(INSANE, die=6, who=character(-8), attack=True)
    with pytest.raises(CannotFight):
        check(SHAKEN, die=6, who=character(-8), attack=True)


# --- M4, M8 and the Consciousness roll -----------------------------------------------------------


def test_M4_the_incurably_insane_make_no_consciousness_roll() -> None:
    roller = ScriptedRoller([6])
    with pytest.raises(IncurablyInsane) as refused:
        roll_consciousness(character(-3), 0, roller, stability=INSANE)
    assert refused.value.code == "incurably_insane"
    assert roller.remaining == 1


def test_M8_shaken_adds_nothing_to_the_consciousness_roll() -> None:
    result = roll_consciousness(character(-3), 0, ScriptedRoller([3]), stability=stability(-11))
    assert (result.difficulty, result.success) == (3, True)


def test_M4_the_unconscious_and_the_dead_are_refused_as_before() -> None:
    refusals: list[type[RuleError]] = []
    for who in (character(-12), character(-3, conscious=False)):
        with pytest.raises(RuleError) as refused:
            roll_consciousness(who, 0, ScriptedRoller([6]), stability=INSANE)
        refusals.append(type(refused.value))
    assert [cls.__name__ for cls in refusals] == ["CharacterDead", "CharacterUnconscious"]


# --- M4 and First Aid ----------------------------------------------------------------------------


def test_M4_an_incurably_insane_medic_gives_no_first_aid() -> None:
    with pytest.raises(MedicInsane) as refused:
        give_first_aid(medic(), character(4), 1, medic_stability=INSANE)
    assert refused.value.code == "medic_insane"
    assert refused.value.params == {}


def test_M4_a_shaken_medic_still_gives_first_aid() -> None:
    result = give_first_aid(medic(), character(4), 1, medic_stability=stability(-11))
    assert result.restored == 2


def test_M4_a_dead_or_unconscious_medic_is_refused_first() -> None:
    codes = []
    for healer in (character(-12, first_aid=4), character(-3, conscious=False)):
        with pytest.raises(RuleError) as refused:
            give_first_aid(healer, character(4), 1, medic_stability=INSANE)
        codes.append(refused.value.code)
    assert codes == ["medic_dead", "medic_unconscious"]


def test_M8_by_default_no_strain_is_given() -> None:
    result = spend_with_composure(
        HEALTHY, LIBRARY_USE, 1, stability=stability(-4), roller=ScriptedRoller([4])
    )
    assert result.composure == ComposureTest(die=4, strain=0, total=4, difficulty=4, kept=True)
    assert result.stability.after == stability(-4)
