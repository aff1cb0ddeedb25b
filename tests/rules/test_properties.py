"""Hypothesis properties of the health rules (issue requirements; ids in the names)."""

from __future__ import annotations

import contextlib
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import (
    DEATH_THRESHOLD,
    CharacterHealth,
    HealthState,
    RuleError,
    ScriptedRoller,
    SpendWouldKill,
    StateChanged,
    apply_damage,
    correct,
    give_first_aid,
    inconsistencies,
    pass_time,
    refresh,
    rest,
    roll_consciousness,
    start_scene,
    state_of,
)
from tests.rules.factories import character, medic

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MACHINE = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

living_health = st.integers(min_value=DEATH_THRESHOLD + 1, max_value=20)


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
    with contextlib.suppress(RuleError):
        assert rest(someone, days, hospital=hospital).after.health <= someone.max_health
    try:
        healed = give_first_aid(medic(first_aid=10), someone, points).patient.after
    except RuleError:
        return
    assert healed.health <= someone.max_health


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
        try:
            if kind == "damage":
                patient = apply_damage(patient, value).after
            else:
                result = give_first_aid(medic(first_aid=6), patient, value)
                restored += result.restored
                patient = result.patient.after
                assert patient.health <= patient.scene_start_health
        except RuleError:
            continue
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
        try:
            if kind == "damage":
                patient = apply_damage(patient, abs(value) or 1).after
            elif kind == "set":
                patient = correct(patient, health=value).after
            else:
                roll = roll_consciousness(patient, abs(value) % 4, ScriptedRoller([6]))
                patient = roll.outcome.after
        except RuleError:
            continue
        if patient.state is HealthState.SERIOUSLY_WOUNDED:
            lowest = patient.health if lowest is None else min(lowest, patient.health)
        else:
            lowest = None
    if patient.state is not HealthState.SERIOUSLY_WOUNDED:
        return
    assert lowest is not None
    admitted = rest(patient, 1, hospital=True).after
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
        try:
            if kind == "damage":
                outcome = apply_damage(someone, abs(value) or 1)
            elif kind == "roll":
                roll = roll_consciousness(someone, abs(value) % 5, ScriptedRoller([value % 6 + 1]))
                outcome = roll.outcome
            elif kind == "aid":
                result = give_first_aid(
                    someone, party[second], abs(value) or 1, same_character=first == second
                )
                assert result.medic.before == someone
                party[first] = result.medic.after
                outcome = result.patient
                first = second
            elif kind == "scene":
                outcome = start_scene(someone)
            elif kind == "time":
                outcome = pass_time(someone, abs(value) * 7 or 1)
            elif kind in {"rest", "hospital"}:
                outcome = rest(someone, abs(value) % 5 + 1, hospital=kind == "hospital")
            elif kind == "refresh":
                outcome = refresh(someone)
            elif kind == "correct":
                outcome = correct(someone, health=value)
            else:
                outcome = correct(someone, conscious=value % 2 == 0)
        except RuleError:
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
