"""Hypothesis properties of the health rules (issue requirements; ids in the names)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import (
    DEATH_THRESHOLD,
    AlreadyInHospital,
    AlreadyStabilized,
    CharacterDead,
    CharacterHealth,
    CharacterUnconscious,
    FirstAidCapReached,
    HealthState,
    MedicDead,
    MedicUnconscious,
    NeedsHospital,
    NotBelowZero,
    NotEnoughFirstAid,
    NothingToHeal,
    RuleError,
    ScriptedRoller,
    SelfFirstAid,
    SpendWouldKill,
    StabilizeNeedsTwo,
    StateChanged,
    apply_damage,
    correct,
    first_aid_cap,
    first_aid_room,
    give_first_aid,
    inconsistencies,
    max_legal_spend,
    pass_time,
    refresh,
    rest,
    roll_consciousness,
    start_scene,
    state_of,
)
from rules.first_aid import HEALTH_PER_POINT, STABILIZE_COST
from rules.outcome import Outcome
from tests.rules.factories import character, medic

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MACHINE = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

living_health = st.integers(min_value=DEATH_THRESHOLD + 1, max_value=20)
SERIOUS = HealthState.SERIOUSLY_WOUNDED
T = TypeVar("T")
Refusal = type[RuleError] | None


# --- when each rule must refuse (RULES.md), so that a property never swallows a wrong refusal -
def attempt(refusal: Refusal, rule: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """What ``rule(*args, **kwargs)`` returns when the rules must accept it (any refusal then
    fails the test); ``None`` once it has refused with exactly ``refusal``."""
    if refusal is None:
        return rule(*args, **kwargs)
    with pytest.raises(RuleError) as refused:
        rule(*args, **kwargs)
    assert type(refused.value) is refusal, (refusal, refused.value)
    return None


def damage_refusal(someone: CharacterHealth) -> Refusal:
    """H5: only the dead cannot be hurt."""
    return CharacterDead if someone.is_dead else None


def rest_refusal(someone: CharacterHealth, *, hospital: bool) -> Refusal:
    """H5, R2: the dead do not rest; the Seriously wounded rest only in hospital."""
    if someone.is_dead:
        return CharacterDead
    if someone.hospital is None and someone.state is SERIOUS and not hospital:
        return NeedsHospital
    return None


def roll_refusal(someone: CharacterHealth, spend: int) -> Refusal:
    """H5, C2, C4: a living, conscious character below 0 rolls, with a spend that keeps it alive."""
    if someone.is_dead:
        return CharacterDead
    if not someone.conscious:
        return CharacterUnconscious
    if someone.health >= 0:
        return NotBelowZero
    return SpendWouldKill if spend > max_legal_spend(someone) else None


def first_aid_refusal(
    healer: CharacterHealth, patient: CharacterHealth, points: int, *, same: bool = False
) -> Refusal:
    """F1–F7: who may give First Aid, to whom, and with how many points."""
    if same:
        return SelfFirstAid
    if healer.is_dead:
        return MedicDead
    if not healer.conscious:
        return MedicUnconscious
    if patient.is_dead:
        return CharacterDead
    if patient.state is SERIOUS:
        if patient.hospital is not None:
            return AlreadyInHospital
        if patient.stabilized:
            return AlreadyStabilized
        if points < STABILIZE_COST:
            return StabilizeNeedsTwo
        return NotEnoughFirstAid if healer.first_aid_pool < STABILIZE_COST else None
    if patient.health >= min(patient.scene_start_health, patient.max_health):
        return NothingToHeal
    if patient.first_aid_received >= first_aid_cap(patient):
        return FirstAidCapReached
    needed = min(points, -(-first_aid_room(patient) // HEALTH_PER_POINT))
    return NotEnoughFirstAid if healer.first_aid_pool < needed else None


def test_attempt_fails_when_the_rule_refuses_what_it_must_accept() -> None:
    with pytest.raises(CharacterDead):
        attempt(None, apply_damage, character(-12), 1)
    with pytest.raises(AssertionError):
        attempt(NeedsHospital, apply_damage, character(-12), 1)
    with pytest.raises(pytest.fail.Exception):
        attempt(CharacterDead, apply_damage, character(5), 1)
    assert attempt(CharacterDead, apply_damage, character(-12), 1) is None


@st.composite
def characters(draw: st.DrawFn) -> CharacterHealth:
    """A consistent living character, with random flags that its Health allows."""
    max_health = draw(st.integers(1, 20))
    health = draw(st.integers(DEATH_THRESHOLD + 1, max_health))
    rating = draw(st.integers(0, 8))
    below = health < 0
    conscious = draw(st.booleans()) if below else True
    seriously = state_of(health) is HealthState.SERIOUSLY_WOUNDED
    stabilized = draw(st.booleans()) if seriously else False
    return character(
        health,
        max_health=max_health,
        first_aid=rating,
        pool=draw(st.integers(0, rating)),
        scene_start_health=draw(st.integers(health, max_health)),
        conscious=conscious,
        roll_pending=draw(st.booleans()) if below and conscious else False,
        stabilized=stabilized,
        lowest_health=draw(st.integers(DEATH_THRESHOLD + 1, health)) if seriously else None,
        first_aid_received=draw(st.integers(0, max_health // 3)),
        bleed_minutes=draw(st.integers(0, 29)) if seriously and not stabilized else 0,
        full_recovery_due=draw(st.booleans()) if health >= 0 else False,
    )


@FAST
@given(characters(), st.data())
def test_H2_property_state_is_a_function_of_health_alone(
    someone: CharacterHealth, data: st.DataObject
) -> None:
    other = data.draw(characters())
    assert someone.state is state_of(someone.health)
    assert replace(other, health=someone.health).state is someone.state


@FAST
@given(characters(), st.integers(1, 30), st.booleans(), st.integers(1, 10))
def test_H6_property_healing_never_exceeds_the_maximum(
    someone: CharacterHealth, days: int, hospital: bool, points: int
) -> None:
    rested = attempt(
        rest_refusal(someone, hospital=hospital), rest, someone, days, hospital=hospital
    )
    if rested is not None:
        assert rested.after.health <= someone.max_health
    healer = medic(first_aid=10)
    aided = attempt(
        first_aid_refusal(healer, someone, points), give_first_aid, healer, someone, points
    )
    if aided is not None:
        assert aided.patient.after.health <= someone.max_health


@FAST
@given(
    st.integers(1, 20),
    st.lists(
        st.tuples(st.sampled_from(["damage", "aid"]), st.integers(1, 6)),
        min_size=1,
        max_size=15,
    ),
)
def test_F3_property_first_aid_in_one_scene_stays_within_both_caps(
    max_health: int, actions: list[tuple[str, int]]
) -> None:
    patient = start_scene(CharacterHealth.new(max_health, 0)).after
    restored = 0
    for kind, value in actions:
        if kind == "damage":
            hurt = attempt(damage_refusal(patient), apply_damage, patient, value)
            patient = patient if hurt is None else hurt.after
        else:
            healer = medic(first_aid=6)
            result = attempt(
                first_aid_refusal(healer, patient, value), give_first_aid, healer, patient, value
            )
            if result is not None:
                restored += result.restored
                patient = result.patient.after
                assert patient.health <= patient.scene_start_health
        assert restored <= max_health // 3
        assert patient.first_aid_received == restored


@FAST
@given(st.integers(-11, -1), st.integers(0, 99), st.integers(1, 6))
def test_C4_property_no_consciousness_spend_ever_kills(health: int, spend: int, die: int) -> None:
    try:
        result = roll_consciousness(character(health), spend, ScriptedRoller([die]))
    except SpendWouldKill as refused:
        assert refused.params["max_spend"] == health - DEATH_THRESHOLD - 1
        assert spend > refused.params["max_spend"]
        return
    assert result.outcome.after.health > DEATH_THRESHOLD
    assert result.outcome.after.health == health - spend


@FAST
@given(
    st.integers(-11, -6),
    st.integers(0, 29),
    st.lists(st.integers(1, 200), min_size=1, max_size=10),
)
def test_T1_property_any_split_of_the_same_minutes_bleeds_the_same(
    health: int, carried: int, parts: list[int]
) -> None:
    start = character(health, bleed_minutes=carried)
    split = start
    for minutes in parts:
        split = pass_time(split, minutes).after
    whole = start
    total = sum(parts)
    while total:
        chunk = min(total, 1440)
        whole = pass_time(whole, chunk).after
        total -= chunk
    assert split == whole


@FAST
@given(
    st.integers(0, 10),
    st.lists(
        st.tuples(st.sampled_from(["damage", "set", "spend"]), st.integers(-11, 8)),
        max_size=12,
    ),
)
def test_R4_property_hospital_length_is_the_lowest_health_of_the_spell(
    start: int, actions: list[tuple[str, int]]
) -> None:
    patient = character(start)
    lowest: int | None = None
    for kind, value in actions:
        if kind == "damage":
            hurt = attempt(damage_refusal(patient), apply_damage, patient, abs(value) or 1)
            patient = patient if hurt is None else hurt.after
        elif kind == "set":
            patient = correct(patient, health=value).after
        else:
            spend = abs(value) % 4
            roll = attempt(
                roll_refusal(patient, spend),
                roll_consciousness,
                patient,
                spend,
                ScriptedRoller([6]),
            )
            patient = patient if roll is None else roll.outcome.after
        if patient.state is HealthState.SERIOUSLY_WOUNDED:
            lowest = patient.health if lowest is None else min(lowest, patient.health)
        else:
            lowest = None
    if patient.state is not HealthState.SERIOUSLY_WOUNDED:
        return
    assert lowest is not None
    admitted = rest(patient, 1, hospital=True).after  # a refusal here fails the test
    if admitted.hospital is not None:
        assert admitted.hospital.length_days == abs(lowest)
    else:
        assert abs(lowest) == 1  # discharged at once: never happens (lowest <= -6)


ACTIONS = st.sampled_from(
    ["damage", "roll", "aid", "scene", "time", "rest", "hospital", "refresh", "correct", "wake"]
)


@MACHINE
@given(
    st.lists(
        st.tuples(ACTIONS, st.integers(0, 2), st.integers(0, 2), st.integers(-15, 15)),
        max_size=40,
    ),
    st.integers(1, 14),
)
def test_G1_property_random_legal_actions_never_reach_an_inconsistent_state(
    actions: list[tuple[str, int, int, int]], max_health: int
) -> None:
    party = [CharacterHealth.new(max_health, rating) for rating in (0, 3, 6)]
    knocked_out_by_gm: set[int] = set()  # G3: the only way to be unconscious at 0 or more
    for kind, first, second, value in actions:
        someone = party[first]
        outcome: Outcome | None
        if kind == "damage":
            outcome = attempt(damage_refusal(someone), apply_damage, someone, abs(value) or 1)
        elif kind == "roll":
            spend, die = abs(value) % 5, ScriptedRoller([value % 6 + 1])
            roll = attempt(roll_refusal(someone, spend), roll_consciousness, someone, spend, die)
            outcome = None if roll is None else roll.outcome
        elif kind == "aid":
            patient, points, same = party[second], abs(value) or 1, first == second
            result = attempt(
                first_aid_refusal(someone, patient, points, same=same),
                give_first_aid,
                someone,
                patient,
                points,
                same_character=same,
            )
            outcome = None
            if result is not None:
                assert result.medic.before == someone
                party[first] = result.medic.after
                outcome = result.patient
                first = second
        elif kind == "scene":
            outcome = start_scene(someone)
        elif kind == "time":
            outcome = pass_time(someone, abs(value) * 7 or 1)
        elif kind in {"rest", "hospital"}:
            hospital = kind == "hospital"
            outcome = attempt(
                rest_refusal(someone, hospital=hospital),
                rest,
                someone,
                abs(value) % 5 + 1,
                hospital=hospital,
            )
        elif kind == "refresh":
            outcome = refresh(someone)
        elif kind == "correct":
            outcome = correct(someone, health=value)
        else:
            outcome = correct(someone, conscious=value % 2 == 0)
        if outcome is None:
            continue
        party[first] = outcome.after
        problems = inconsistencies(outcome.after)
        assert problems == (), (kind, outcome)
        after = outcome.after
        if kind == "wake" and not after.conscious and after.health >= 0:
            knocked_out_by_gm.add(first)
        elif after.conscious:
            knocked_out_by_gm.discard(first)
        if not after.conscious and after.health >= 0 and not after.is_dead:
            assert first in knocked_out_by_gm, ("unconscious at 0 or more", kind, outcome)
            assert after.health <= outcome.before.health, ("healing wakes (C7)", kind, outcome)
        changes = [event for event in outcome.events if isinstance(event, StateChanged)]
        if outcome.before.state is outcome.after.state:
            assert changes == []
        else:
            assert changes == [StateChanged(outcome.before.state, outcome.after.state)]
        assert outcome.after.health <= outcome.after.max_health
        if outcome.after.is_dead:
            assert outcome.after.hospital is None
