"""Hypothesis properties of the Stability rules (RULES.md M; ids in the names)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import (
    INSANITY_THRESHOLD,
    Ability,
    AbilityKind,
    AlreadyLucid,
    CharacterDead,
    CharacterHealth,
    CharacterStability,
    CharacterUnconscious,
    IncurablyInsane,
    LucidityNeedsTwo,
    MentalIllnessAcquired,
    NoComposureTest,
    NoStability,
    NoStabilityTestDue,
    NotEnoughPsychoanalysis,
    NotMentallyIll,
    PsychoanalystDead,
    PsychoanalystInsane,
    PsychoanalystUnconscious,
    ScriptedRoller,
    SelfPsychoanalysis,
    SpendWouldMadden,
    StabilityFull,
    StabilityOutcome,
    StabilityState,
    StabilityStateChanged,
    WentInsane,
    apply_damage,
    call_stability_test,
    correct,
    correct_stability,
    max_stability_spend,
    refresh_stability,
    roll_stability_test,
    spend_with_composure,
    stability_inconsistencies,
    stability_state_of,
    start_stability_scene,
    treat_stability,
)
from rules.abilities import InvestigativeWhileHurt, NotEnoughPool
from tests.rules.factories import character, stability
from tests.rules.test_properties import Refusal, attempt

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MACHINE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HEALTHY = character(10)
LIBRARY_USE = Ability("Library Use", AbilityKind.INVESTIGATIVE, rating=9, pool=9)
PSYCHOANALYSIS = Ability("Psychoanalysis", AbilityKind.GENERAL, rating=9, pool=9)
SHAKEN = StabilityState.SHAKEN

dice = st.integers(1, 6)
losses = st.integers(1, 30)


# --- when each rule must refuse (RULES.md M), so that a property never swallows a wrong refusal -


def untestable_refusal(health: CharacterHealth, value: CharacterStability | None) -> Refusal:
    """M1, M13, M4."""
    if value is None:
        return NoStability
    if health.is_dead:
        return CharacterDead
    if not health.conscious:
        return CharacterUnconscious
    return IncurablyInsane if value.pool <= INSANITY_THRESHOLD else None


def roll_refusal(health: CharacterHealth, value: CharacterStability | None, spend: int) -> Refusal:
    """M5, M7."""
    refusal = untestable_refusal(health, value)
    if refusal is not None or value is None:
        return refusal
    if value.due_test is None:
        return NoStabilityTestDue
    return SpendWouldMadden if value.pool - spend <= INSANITY_THRESHOLD else None


def strain_refusal(
    health: CharacterHealth, value: CharacterStability | None, points: int, strain: int
) -> Refusal:
    """P1, H3, M4, M7, M8 for an investigative spend with ``LIBRARY_USE``."""
    if health.is_dead:
        return CharacterDead
    if not health.conscious:
        return CharacterUnconscious
    if value is not None and value.pool <= INSANITY_THRESHOLD:
        return IncurablyInsane
    if health.health <= 0:
        return InvestigativeWhileHurt
    if points > LIBRARY_USE.pool:
        return NotEnoughPool
    if value is None or value.pool >= 1:
        return NoComposureTest if strain else None
    return SpendWouldMadden if value.pool - strain <= INSANITY_THRESHOLD else None


def treat_refusal(
    medic: tuple[CharacterHealth, CharacterStability | None],
    patient: tuple[CharacterHealth, CharacterStability | None],
    points: int,
    pool: int,
    *,
    lucidity: bool,
    same: bool,
) -> Refusal:
    """M9, M10."""
    if same:
        return SelfPsychoanalysis
    if medic[0].is_dead:
        return PsychoanalystDead
    if not medic[0].conscious:
        return PsychoanalystUnconscious
    if medic[1] is not None and medic[1].pool <= INSANITY_THRESHOLD:
        return PsychoanalystInsane
    health, value = patient
    if health.is_dead:
        return CharacterDead
    if value is None:
        return NoStability
    if value.pool <= INSANITY_THRESHOLD:
        return IncurablyInsane
    if lucidity:
        if not value.mental_illness:
            return NotMentallyIll
        if value.lucid:
            return AlreadyLucid
        if points < 2:
            return LucidityNeedsTwo
        return NotEnoughPsychoanalysis if pool < 2 else None
    room = value.rating - value.pool
    if room <= 0:
        return StabilityFull
    return NotEnoughPsychoanalysis if pool < min(points, (room + 1) // 2) else None


def _with_due(value: CharacterStability, loss: int, difficulty: int) -> CharacterStability:
    return call_stability_test(HEALTHY, value, loss, difficulty).after  # type: ignore[return-value]


# --- M6 ------------------------------------------------------------------------------------------


@FAST
@given(
    st.integers(1, 30),
    st.lists(
        st.tuples(losses, st.integers(1, 10), dice, st.integers(0, 4)), min_size=1, max_size=12
    ),
)
def test_M6_property_one_scene_never_loses_more_than_its_worst_incident(
    rating: int, tests: list[tuple[int, int, int, int]]
) -> None:
    value: CharacterStability = start_stability_scene(stability(rating, rating=rating)).after  # type: ignore[assignment]
    worst = taken = spent = 0
    for loss, difficulty, die, spend in tests:
        if value.is_insane:
            break
        value = _with_due(value, loss, difficulty)
        spend = min(spend, max_stability_spend(value))
        result = roll_stability_test(HEALTHY, value, spend, ScriptedRoller([die]))
        worst, taken, spent = max(worst, loss), taken + result.lost, spent + spend
        assert result.lost <= loss
        assert taken <= worst
        after = result.outcome.after
        assert after is not None
        assert (after.scene_worst_loss, after.scene_lost) == (worst, taken)
        assert after.pool == value.pool - spend - result.lost
        value = after
    assert value.pool == rating - spent - taken


# --- M7 ------------------------------------------------------------------------------------------


@FAST
@given(st.integers(-11, 20), st.integers(0, 99), losses, dice)
def test_M7_property_a_test_spend_never_pushes_the_pool_past_minus_11(
    pool: int, spend: int, loss: int, die: int
) -> None:
    value = stability(pool, rating=20, due=(loss, 4))
    result = attempt(
        roll_refusal(HEALTHY, value, spend),
        roll_stability_test,
        HEALTHY,
        value,
        spend,
        ScriptedRoller([die]),
    )
    if result is None:
        assert pool - spend <= INSANITY_THRESHOLD
        return
    after = result.outcome.after
    assert after is not None
    assert after.pool + result.lost == pool - spend > INSANITY_THRESHOLD
    if result.success:
        assert not after.is_insane


@FAST
@given(st.integers(-11, 5), st.integers(0, 99), dice)
def test_M7_property_a_strain_never_pushes_the_pool_past_minus_11(
    pool: int, strain: int, die: int
) -> None:
    value = stability(pool)
    result = attempt(
        strain_refusal(HEALTHY, value, 1, strain),
        spend_with_composure,
        HEALTHY,
        LIBRARY_USE,
        1,
        stability=value,
        strain=strain,
        roller=ScriptedRoller([die]),
    )
    if result is None:
        return
    after = result.stability.after
    assert after is not None
    assert after.pool == pool - strain > INSANITY_THRESHOLD
    assert result.ability_after.pool == LIBRARY_USE.pool - 1
    if result.composure is not None:
        assert result.composure.difficulty == -pool
        assert result.composure.kept is (die + strain >= -pool)


# --- M9 ------------------------------------------------------------------------------------------


@FAST
@given(st.integers(1, 40), st.data(), st.integers(1, 99), st.integers(0, 99))
def test_M9_property_psychoanalysis_never_passes_the_rating(
    rating: int, data: st.DataObject, points: int, held: int
) -> None:
    pool = data.draw(st.integers(-11, rating))
    value = stability(pool, rating=rating)
    ability = replace(PSYCHOANALYSIS, rating=99, pool=held)
    patient = (HEALTHY, value)
    result = attempt(
        treat_refusal((HEALTHY, None), patient, points, held, lucidity=False, same=False),
        treat_stability,
        HEALTHY,
        HEALTHY,
        points,
        psychoanalysis=ability,
        patient_stability=value,
    )
    if result is None:
        return
    after = result.patient.after
    assert after is not None
    room = rating - pool
    assert after.pool == pool + result.restored <= rating
    assert result.spent == min(points, (room + 1) // 2) <= points
    assert result.restored == min(2 * result.spent, room)
    assert result.psychoanalysis_after.pool == held - result.spent


# --- M2, M3, M4, M13: random legal actions keep Stability consistent --------------------------


ACTIONS = st.sampled_from(
    [
        "call",
        "roll",
        "test",
        "strain",
        "treat",
        "lucid",
        "refresh",
        "scene",
        "set_pool",
        "set_rating",
        "set_illness",
        "hurt",
        "heal",
        "knock_out",
    ]
)


@st.composite
def stabilities(draw: st.DrawFn) -> CharacterStability:
    """A consistent Stability, with random marks its pool allows."""
    rating = draw(st.integers(1, 12))
    pool = draw(st.integers(-14, rating))
    illness = draw(st.booleans())
    worst = draw(st.integers(0, 10))
    return stability(
        pool,
        rating=rating,
        mental_illness=illness,
        lucid=illness and draw(st.booleans()),
        scene_worst_loss=worst,
        scene_lost=draw(st.integers(0, worst)),
    )


@MACHINE
@given(
    st.lists(
        st.tuples(ACTIONS, st.integers(0, 2), st.integers(0, 2), st.integers(-15, 30), dice),
        min_size=5,
        max_size=40,
    ),
    st.lists(stabilities(), min_size=3, max_size=3),
    st.booleans(),
)
def test_M2_property_random_legal_actions_keep_stability_consistent(
    actions: list[tuple[str, int, int, int, int]],
    drawn: list[CharacterStability],
    third_without_stability: bool,
) -> None:
    values: list[CharacterStability | None] = list(drawn)
    if third_without_stability:
        values[2] = None
    healths = [CharacterHealth.new(10, 2) for _ in range(3)]
    held = [9, 9, 9]
    for kind, first, second, number, die in actions:
        health, value = healths[first], values[first]
        outcome: StabilityOutcome | None = None
        if kind == "call":
            loss = abs(number) % 30 + 1
            outcome = attempt(
                untestable_refusal(health, value), call_stability_test, health, value, loss
            )
        elif kind in {"roll", "test"}:
            spend = abs(number) % 5
            if kind == "test" and untestable_refusal(health, value) is None:
                value = call_stability_test(health, value, abs(number) % 30 + 1).after
            rolled = attempt(
                roll_refusal(health, value, spend),
                roll_stability_test,
                health,
                value,
                spend,
                ScriptedRoller([die]),
            )
            outcome = None if rolled is None else rolled.outcome
        elif kind == "strain":
            strain = abs(number) % 5
            spent = attempt(
                strain_refusal(health, value, 1, strain),
                spend_with_composure,
                health,
                LIBRARY_USE,
                1,
                stability=value,
                strain=strain,
                roller=ScriptedRoller([die]),
            )
            outcome = None if spent is None else spent.stability
        elif kind in {"treat", "lucid"}:
            points, lucidity = abs(number) % 6 + 1, kind == "lucid"
            patient = (healths[second], values[second])
            treated = attempt(
                treat_refusal(
                    (health, value),
                    patient,
                    points,
                    held[first],
                    lucidity=lucidity,
                    same=first == second,
                ),
                treat_stability,
                health,
                healths[second],
                points,
                psychoanalysis=replace(PSYCHOANALYSIS, pool=held[first]),
                patient_stability=values[second],
                medic_stability=value,
                lucidity=lucidity,
                same_character=first == second,
            )
            if treated is not None:
                held[first] = treated.psychoanalysis_after.pool
                outcome, first = treated.patient, second
        elif kind == "refresh":
            outcome = refresh_stability(value)
            held[first] = PSYCHOANALYSIS.rating
        elif kind == "scene":
            outcome = start_stability_scene(value)
        elif kind == "set_pool":
            outcome = attempt(
                NoStability if value is None else None, correct_stability, value, pool=number
            )
        elif kind == "set_rating":
            outcome = correct_stability(value, rating=abs(number) % 13)
        elif kind == "set_illness":
            outcome = attempt(
                NoStability if value is None else None,
                correct_stability,
                value,
                mental_illness=number % 2 == 0,
            )
        else:
            if kind == "hurt" and not health.is_dead:
                healths[first] = apply_damage(health, abs(number) % 8 + 1).after
            elif kind == "heal":
                healths[first] = correct(health, health=abs(number) % 10 + 1).after
            elif kind == "knock_out":
                healths[first] = correct(health, conscious=False).after
            continue
        event(f"{kind}: {'refused' if outcome is None else 'applied'}")
        if outcome is None:
            continue
        before, after = outcome.before, outcome.after
        values[first] = after
        if after is None:
            continue
        assert stability_inconsistencies(after) == (), (kind, outcome)
        assert after.state is stability_state_of(after.pool)
        assert after.rating >= 1
        changes = [e for e in outcome.events if isinstance(e, StabilityStateChanged)]
        if before is None or before.state is after.state:
            assert changes == [], (kind, outcome)
        else:
            assert changes == [StabilityStateChanged(before.state, after.state)], (kind, outcome)
        if before is None:
            continue
        fell_ill = before.pool > -6 >= after.pool > INSANITY_THRESHOLD and kind != "set_pool"
        illnesses = [e for e in outcome.events if isinstance(e, MentalIllnessAcquired)]
        assert len(illnesses) == (1 if fell_ill else 0), (kind, outcome)
        if fell_ill:
            assert after.mental_illness
            assert after.rating == max(1, before.rating - 1)
        went_insane = [e for e in outcome.events if isinstance(e, WentInsane)]
        assert len(went_insane) == (1 if after.is_insane and not before.is_insane else 0)
        if after.state is SHAKEN and before.state is SHAKEN and kind in {"roll", "strain"}:
            assert after.pool <= before.pool


def test_M2_property_oracles_refuse_what_the_rules_refuse() -> None:
    """The oracles above are themselves checked: a wrong one would make the properties lie."""
    with pytest.raises(pytest.fail.Exception):
        attempt(NoStability, call_stability_test, HEALTHY, stability(3), 4)
    assert untestable_refusal(HEALTHY, stability(-12)) is IncurablyInsane
    assert roll_refusal(HEALTHY, stability(-9, due=(2, 4)), 3) is SpendWouldMadden
    assert strain_refusal(character(0), stability(-3), 1, 0) is InvestigativeWhileHurt
    assert strain_refusal(HEALTHY, stability(1), 1, 1) is NoComposureTest
