"""M5–M7 (with M3, M4, M13 as a roll meets them): calling and rolling a Stability test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import (
    DEFAULT_STABILITY_DIFFICULTY,
    CharacterDead,
    CharacterHealth,
    CharacterStability,
    CharacterUnconscious,
    DueTest,
    DuplicateTestTarget,
    IncurablyInsane,
    InvalidValue,
    MentalIllnessAcquired,
    NoStability,
    NoStabilityTestDue,
    RuleError,
    ScriptedRoller,
    SpendWouldMadden,
    StabilityOutcome,
    StabilitySpent,
    StabilityState,
    StabilityStateChanged,
    StabilityTestDue,
    StabilityTestFailed,
    StabilityTestPassed,
    StabilityTestReplaced,
    StabilityTestRoll,
    UntestableCharacter,
    WentInsane,
    call_stability_test,
    check_stability_test_call,
    legal_stability_spends,
    max_stability_spend,
    roll_stability_test,
)
from tests.rules.factories import character, stability

STEADY = StabilityState.STEADY
SHAKEN = StabilityState.SHAKEN
INSANE = StabilityState.INCURABLY_INSANE

HEALTHY = character(10)
HURT = character(-2)
SERIOUSLY_WOUNDED = character(-8)


def roll(
    pool_or_value: int | CharacterStability,
    *,
    die: int,
    spend: int = 0,
    due: tuple[int, int] = (4, 4),
    who: CharacterHealth = HEALTHY,
) -> StabilityTestRoll:
    value = stability(pool_or_value, due=due) if isinstance(pool_or_value, int) else pool_or_value
    return roll_stability_test(who, value, spend, ScriptedRoller([die]))


# --- M5: calling a test --------------------------------------------------------------------------


def test_M5_a_call_makes_a_test_due_with_the_gms_difficulty() -> None:
    before = stability(5)
    outcome = call_stability_test(HEALTHY, before, 4, 5)
    assert outcome == StabilityOutcome(
        before=before,
        after=stability(5, due=(4, 5)),
        events=(StabilityTestDue(loss=4, difficulty=5),),
    )


def test_M5_the_difficulty_is_4_unless_the_gm_says_otherwise() -> None:
    assert DEFAULT_STABILITY_DIFFICULTY == 4
    assert call_stability_test(HEALTHY, stability(5), 7).after == stability(5, due=(7, 4))


def test_M5_a_new_call_replaces_the_due_test() -> None:
    before = stability(5, due=(8, 3))
    outcome = call_stability_test(HEALTHY, before, 2)
    assert outcome.after == stability(5, due=(2, 4))
    assert outcome.events == (
        StabilityTestReplaced(loss=8, difficulty=3),
        StabilityTestDue(loss=2, difficulty=4),
    )


def test_M5_a_call_leaves_the_scene_counters_alone() -> None:
    before = stability(5, scene_worst_loss=6, scene_lost=3)
    after = call_stability_test(HEALTHY, before, 8).after
    assert after == stability(5, scene_worst_loss=6, scene_lost=3, due=(8, 4))


@pytest.mark.parametrize(
    ("loss", "difficulty", "field", "low", "high"),
    [
        (0, 4, "loss", 1, 30),
        (31, 4, "loss", 1, 30),
        (4, 0, "difficulty", 1, 10),
        (4, 11, "difficulty", 1, 10),
    ],
)
def test_M5_loss_and_difficulty_out_of_range_are_refused(
    loss: int, difficulty: int, field: str, low: int, high: int
) -> None:
    with pytest.raises(InvalidValue) as refused:
        call_stability_test(HEALTHY, stability(5), loss, difficulty)
    assert refused.value.params == {"field": field, "min": low, "max": high}
    with pytest.raises(InvalidValue) as whole:
        check_stability_test_call([(1, HEALTHY, stability(5))], loss, difficulty)
    assert whole.value.params == {"field": field, "min": low, "max": high}


@pytest.mark.parametrize(("loss", "difficulty"), [(1, 1), (30, 10)])
def test_M5_loss_and_difficulty_at_the_ends_of_their_ranges_are_accepted(
    loss: int, difficulty: int
) -> None:
    check_stability_test_call([(1, HEALTHY, stability(5))], loss, difficulty)
    after = call_stability_test(HEALTHY, stability(5), loss, difficulty).after
    assert after == stability(5, due=(loss, difficulty))


@pytest.mark.parametrize(
    ("who", "value", "refusal", "code"),
    [
        (HEALTHY, None, NoStability, "no_stability"),
        (character(-12), stability(5), CharacterDead, "dead"),
        (character(-3, conscious=False), stability(5), CharacterUnconscious, "unconscious"),
        (HEALTHY, stability(-12), IncurablyInsane, "incurably_insane"),
        # The first reason wins: no Stability, then dead, then unconscious, then insane.
        (character(-12), None, NoStability, "no_stability"),
        (character(-12), stability(-12), CharacterDead, "dead"),
        (character(-3, conscious=False), stability(-12), CharacterUnconscious, "unconscious"),
    ],
)
def test_M13_M4_who_cannot_be_tested(
    who: CharacterHealth,
    value: CharacterStability | None,
    refusal: type[RuleError],
    code: str,
) -> None:
    with pytest.raises(refusal) as called:
        call_stability_test(who, value, 4)
    assert called.value.code == code
    with pytest.raises(refusal):
        roll_stability_test(who, value, 0, ScriptedRoller([6]))
    with pytest.raises(UntestableCharacter) as whole:
        check_stability_test_call([(7, HEALTHY, stability(5)), (9, who, value)], 4)
    assert whole.value.code == "untestable_character"
    assert whole.value.params == {"index": 1, "character_id": 9, "reason": code}


def test_M13_an_unconscious_character_with_a_test_due_cannot_roll_it_until_awake() -> None:
    with pytest.raises(CharacterUnconscious):
        roll(stability(3, due=(4, 4)), die=6, who=character(-3, conscious=False))


def test_M5_a_call_naming_a_character_twice_is_refused_whole() -> None:
    targets = [(3, HEALTHY, stability(5)), (4, HURT, stability(1)), (3, HEALTHY, stability(5))]
    with pytest.raises(DuplicateTestTarget) as refused:
        check_stability_test_call(targets, 4, 5)
    assert refused.value.code == "duplicate_test_target"
    assert refused.value.params == {"index": 2, "character_id": 3, "first_index": 0}


def test_M5_a_call_is_judged_in_its_order() -> None:
    targets = [
        (3, HEALTHY, stability(5)),
        (5, HEALTHY, None),
        (3, HEALTHY, stability(5)),
    ]
    with pytest.raises(UntestableCharacter) as refused:
        check_stability_test_call(targets, 4)
    assert refused.value.params == {"index": 1, "character_id": 5, "reason": "no_stability"}


def test_M5_a_call_of_testable_characters_passes_and_each_can_then_be_called() -> None:
    targets: list[tuple[int, CharacterHealth, CharacterStability | None]] = [
        (1, HEALTHY, stability(5)),
        (2, HURT, stability(-4)),
        (3, HEALTHY, stability(8)),
    ]
    check_stability_test_call(targets, 6)
    for _, who, value in targets:
        assert value is not None
        assert call_stability_test(who, value, 6).after == replace(value, due_test=DueTest(6, 4))


# --- M5: rolling it ------------------------------------------------------------------------------


def test_M5_success_when_die_plus_spend_reaches_the_difficulty() -> None:
    result = roll(6, die=3, spend=1, due=(5, 4))
    assert result == StabilityTestRoll(
        outcome=StabilityOutcome(
            before=stability(6, due=(5, 4)),
            after=stability(5, scene_worst_loss=5),
            events=(StabilitySpent(points=1), StabilityTestPassed()),
        ),
        die=3,
        spend=1,
        total=4,
        base_difficulty=4,
        wound_penalty=0,
        shaken_penalty=0,
        difficulty=4,
        success=True,
        loss=5,
        lost=0,
    )
    assert not result.capped


def test_M5_failure_loses_the_potential_loss_and_the_spend() -> None:
    result = roll(7, die=2, spend=1, due=(3, 5))
    assert (result.total, result.difficulty, result.success, result.lost) == (3, 5, False, 3)
    assert result.outcome.after == stability(3, scene_worst_loss=3, scene_lost=3)
    assert result.outcome.events == (
        StabilitySpent(points=1),
        StabilityTestFailed(loss=3, lost=3),
    )
    assert not result.capped


def test_M5_a_roll_without_a_spend_says_no_spend() -> None:
    result = roll(7, die=1, due=(2, 4))
    assert result.spend == 0
    assert result.outcome.after == stability(5, scene_worst_loss=2, scene_lost=2)
    assert result.outcome.events == (StabilityTestFailed(loss=2, lost=2),)


def test_M5_the_roll_clears_the_due_test() -> None:
    rolled = roll(7, die=6).outcome.after
    assert rolled.due_test is None
    with pytest.raises(NoStabilityTestDue) as refused:
        roll_stability_test(HEALTHY, rolled, 0, ScriptedRoller([6]))
    assert refused.value.code == "no_stability_test_due"
    assert refused.value.params == {}


def test_M5_hurt_raises_the_difficulty_by_1() -> None:
    result = roll(5, die=4, who=HURT)
    assert (result.base_difficulty, result.wound_penalty, result.shaken_penalty) == (4, 1, 0)
    assert (result.difficulty, result.success) == (5, False)


def test_M5_seriously_wounded_raises_the_difficulty_by_1() -> None:
    result = roll(5, die=5, who=SERIOUSLY_WOUNDED)
    assert (result.wound_penalty, result.difficulty, result.success) == (1, 5, True)


def test_M8_shaken_raises_the_difficulty_of_the_test_by_1() -> None:
    result = roll(0, die=5, due=(2, 4))
    assert (result.base_difficulty, result.wound_penalty, result.shaken_penalty) == (4, 0, 1)
    assert (result.difficulty, result.success) == (5, True)


def test_M5_hurt_and_shaken_test_at_plus_2() -> None:
    result = roll(-3, die=6, due=(2, 5), who=HURT)
    assert (result.base_difficulty, result.wound_penalty, result.shaken_penalty) == (5, 1, 1)
    assert (result.difficulty, result.success) == (7, False)


def test_M5_shaken_is_judged_before_the_spend() -> None:
    steady = roll(2, die=3, spend=3, due=(2, 4))
    assert (steady.shaken_penalty, steady.difficulty, steady.success) == (0, 4, True)
    assert steady.outcome.after.pool == -1
    assert steady.outcome.events == (
        StabilitySpent(points=3),
        StabilityTestPassed(),
        StabilityStateChanged(before=STEADY, after=SHAKEN),
    )


def test_M5_the_die_is_a_d6_and_a_refusal_rolls_none() -> None:
    roller = ScriptedRoller([6])
    with pytest.raises(NoStabilityTestDue):
        roll_stability_test(HEALTHY, stability(5), 0, roller)
    assert roller.remaining == 1
    with pytest.raises(ValueError, match="not a roll of a d6"):
        roll_stability_test(HEALTHY, stability(5, due=(2, 4)), 0, ScriptedRoller([7]))


@pytest.mark.parametrize("spend", [-1, 100])
def test_M5_spend_outside_0_to_99_is_refused(spend: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        roll(5, die=6, spend=spend)
    assert refused.value.params == {"field": "spend", "min": 0, "max": 99}


def test_M5_a_spend_of_99_is_accepted_from_a_pool_of_88() -> None:
    result = roll(stability(88, rating=99, due=(2, 4)), die=1, spend=99)
    assert result.outcome.after.pool == -11
    assert result.success


# --- M6: the scene's cap -------------------------------------------------------------------------


def test_M6_failures_in_one_scene_take_no_more_than_the_worst_incident() -> None:
    first = roll(stability(8, due=(4, 4)), die=1)
    assert (first.lost, first.capped) == (4, False)
    assert first.outcome.after == stability(4, scene_worst_loss=4, scene_lost=4)
    second = roll(call_stability_test(HEALTHY, first.outcome.after, 3).after, die=1)
    assert (second.loss, second.lost, second.capped) == (3, 0, True)
    assert second.outcome.after == stability(4, scene_worst_loss=4, scene_lost=4)
    assert second.outcome.events == (StabilityTestFailed(loss=3, lost=0),)
    third = roll(call_stability_test(HEALTHY, second.outcome.after, 6).after, die=1)
    assert (third.loss, third.lost, third.capped) == (6, 2, True)
    assert third.outcome.after == stability(2, scene_worst_loss=6, scene_lost=6)


def test_M6_a_passed_test_counts_toward_the_worst_incident() -> None:
    passed = roll(stability(8, due=(6, 4)), die=6)
    assert passed.outcome.after == stability(8, scene_worst_loss=6)
    failed = roll(call_stability_test(HEALTHY, passed.outcome.after, 4).after, die=1)
    assert (failed.lost, failed.capped) == (4, False)
    assert failed.outcome.after == stability(4, scene_worst_loss=6, scene_lost=4)


def test_M6_a_smaller_incident_after_a_worse_one_keeps_the_worst() -> None:
    result = roll(stability(8, scene_worst_loss=6, scene_lost=1, due=(3, 4)), die=1)
    assert result.lost == 3
    assert result.outcome.after == stability(5, scene_worst_loss=6, scene_lost=4)


def test_M6_spends_are_always_lost_and_do_not_count_toward_the_cap() -> None:
    result = roll(stability(8, scene_worst_loss=4, scene_lost=4, due=(4, 4)), die=1, spend=2)
    assert (result.success, result.lost) == (False, 0)
    assert result.outcome.after == stability(6, scene_worst_loss=4, scene_lost=4)
    assert result.outcome.events == (StabilitySpent(points=2), StabilityTestFailed(loss=4, lost=0))


# --- M7: the limit on spends ---------------------------------------------------------------------


def test_M7_a_spend_that_would_leave_minus_12_or_less_is_refused() -> None:
    value = stability(-8, due=(2, 4))
    assert max_stability_spend(value) == 3
    assert list(legal_stability_spends(value)) == [0, 1, 2, 3]
    roller = ScriptedRoller([6])
    with pytest.raises(SpendWouldMadden) as refused:
        roll_stability_test(HEALTHY, value, 4, roller)
    assert refused.value.code == "spend_would_madden"
    assert refused.value.params == {"spend": 4, "max_spend": 3}
    assert roller.remaining == 1
    assert roll_stability_test(HEALTHY, value, 3, roller).outcome.after.pool == -11


def test_M7_a_spend_larger_than_a_positive_pool_is_legal() -> None:
    value = stability(2, due=(2, 4))
    assert max_stability_spend(value) == 13
    result = roll_stability_test(HEALTHY, value, 5, ScriptedRoller([1]))
    assert result.outcome.after.pool == -3


def test_M7_at_minus_11_no_spend_is_legal() -> None:
    value = stability(-11, mental_illness=True, due=(2, 4))
    assert max_stability_spend(value) == 0
    assert list(legal_stability_spends(value)) == [0]
    with pytest.raises(SpendWouldMadden) as refused:
        roll_stability_test(HEALTHY, value, 1, ScriptedRoller([6]))
    assert refused.value.params == {"spend": 1, "max_spend": 0}


def test_M7_the_largest_legal_spend_is_at_most_99() -> None:
    assert max_stability_spend(stability(99, rating=99)) == 99
    assert max_stability_spend(stability(88, rating=99)) == 99
    assert max_stability_spend(stability(87, rating=99)) == 98


# --- M3, M4 on a roll: judged on the pool before and after the whole roll ------------------


def test_M3_a_spend_and_a_loss_together_give_the_illness_once() -> None:
    result = roll(stability(-3, due=(4, 4)), die=1, spend=2)
    assert result.outcome.after == stability(
        -9, rating=7, mental_illness=True, scene_worst_loss=4, scene_lost=4
    )
    assert result.outcome.events == (
        StabilitySpent(points=2),
        StabilityTestFailed(loss=4, lost=4),
        MentalIllnessAcquired(rating_before=8, rating_after=7),
    )


def test_M3_a_spend_alone_can_give_the_illness() -> None:
    result = roll(stability(-4, due=(4, 4)), die=6, spend=2)
    assert result.success
    assert result.outcome.after == stability(-6, rating=7, mental_illness=True, scene_worst_loss=4)
    assert result.outcome.events == (
        StabilitySpent(points=2),
        StabilityTestPassed(),
        MentalIllnessAcquired(rating_before=8, rating_after=7),
    )


def test_M3_a_steady_character_can_fall_into_the_illness_in_one_roll() -> None:
    result = roll(stability(1, due=(8, 4)), die=1)
    assert result.outcome.after == stability(
        -7, rating=7, mental_illness=True, scene_worst_loss=8, scene_lost=8
    )
    assert result.outcome.events == (
        StabilityTestFailed(loss=8, lost=8),
        StabilityStateChanged(before=STEADY, after=SHAKEN),
        MentalIllnessAcquired(rating_before=8, rating_after=7),
    )


def test_M4_a_failure_to_minus_12_or_less_is_insanity_only() -> None:
    result = roll(stability(-4, due=(8, 4)), die=1)
    assert result.outcome.after == stability(-12, scene_worst_loss=8, scene_lost=8)
    assert result.outcome.events == (
        StabilityTestFailed(loss=8, lost=8),
        StabilityStateChanged(before=SHAKEN, after=INSANE),
        WentInsane(),
    )
    with pytest.raises(IncurablyInsane):
        call_stability_test(HEALTHY, result.outcome.after, 2)


def test_M4_from_the_band_a_failure_to_insanity_gives_no_new_illness() -> None:
    before = stability(-10, rating=7, mental_illness=True, due=(5, 4))
    result = roll(before, die=1)
    assert result.outcome.after == stability(
        -15, rating=7, mental_illness=True, scene_worst_loss=5, scene_lost=5
    )
    assert result.outcome.events == (
        StabilityTestFailed(loss=5, lost=5),
        StabilityStateChanged(before=SHAKEN, after=INSANE),
        WentInsane(),
    )
