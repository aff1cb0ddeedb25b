"""S1–S2 (scenes) and T1–T2 (game time and bleeding)."""

from __future__ import annotations

import pytest

from rules import (
    Bled,
    CharacterHealth,
    Died,
    HealthState,
    Hospital,
    InvalidValue,
    NothingToHeal,
    RollDue,
    SceneStarted,
    StateChanged,
    apply_damage,
    correct,
    give_first_aid,
    inconsistencies,
    pass_time,
    start_scene,
)
from rules.outcome import Outcome
from tests.rules.factories import character, medic


def test_S1_new_scene_takes_current_health_and_resets_first_aid_received() -> None:
    patient = character(2, scene_start_health=10, first_aid_received=3)
    outcome = start_scene(patient)
    assert outcome.after.scene_start_health == 2
    assert outcome.after.first_aid_received == 0
    assert outcome.events == (SceneStarted(scene_start_health=2),)
    with pytest.raises(NothingToHeal):
        give_first_aid(medic(), outcome.after, 1)


def test_S1_new_scene_allows_first_aid_again() -> None:
    hurt = apply_damage(start_scene(character(10)).after, 4).after
    assert give_first_aid(medic(), hurt, 2).restored == 3


def test_S2_character_created_in_a_scene_starts_it_with_its_health() -> None:
    fresh = CharacterHealth.new(max_health=8, first_aid_rating=2)
    assert fresh.scene_start_health == 8
    assert fresh.first_aid_received == 0


def test_T1_every_half_hour_bleeding_costs_one() -> None:
    outcome = pass_time(character(-6), 90)
    assert outcome.after.health == -9
    assert outcome.after.bleed_minutes == 0
    assert outcome.events[0] == Bled(points=3)


def test_T1_minutes_carry_over() -> None:
    first = pass_time(character(-6), 20)
    assert first.after.health == -6
    assert first.after.bleed_minutes == 20
    assert first.events == ()
    second = pass_time(first.after, 10)
    assert second.after.health == -7
    assert second.after.bleed_minutes == 0


@pytest.mark.parametrize(
    "patient",
    [
        character(-7, stabilized=True),
        character(-7, hospital=Hospital(length_days=7)),
        character(-5),
        character(3),
        character(-12),
    ],
)
def test_T1_only_living_unstabilized_seriously_wounded_bleed(patient: CharacterHealth) -> None:
    outcome = pass_time(patient, 600)
    assert not outcome.changed
    assert outcome.events == ()


def test_T1_minutes_range_is_checked() -> None:
    with pytest.raises(InvalidValue) as refused:
        pass_time(character(-7), 0)
    assert refused.value.params == {"field": "minutes", "min": 1, "max": 1440}


def test_T2_bleeding_kills_and_stops_at_minus_twelve() -> None:
    outcome = pass_time(character(-10), 1440)
    assert outcome.after.health == -12
    assert outcome.after.bleed_minutes == 0
    assert outcome.events == (
        Bled(points=2),
        StateChanged(before=HealthState.SERIOUSLY_WOUNDED, after=HealthState.DEAD),
        Died(),
    )
    assert inconsistencies(outcome.after) == ()


def test_T2_bleeding_makes_a_roll_due() -> None:
    outcome = pass_time(character(-8, roll_pending=False), 30)
    assert outcome.events[-1] == RollDue(difficulty=9)


def test_T2_clock_resets_when_stabilized() -> None:
    stabilized = give_first_aid(medic(), character(-7, bleed_minutes=25), 2).patient.after
    assert stabilized.bleed_minutes == 0
    reopened = apply_damage(stabilized, 1).after
    assert pass_time(reopened, 5).after.health == -8


def test_T2_leaving_seriously_wounded_ends_stabilization_and_clock() -> None:
    outcome = correct(character(-7, stabilized=True), health=-3)
    assert not outcome.after.stabilized
    assert outcome.after.bleed_minutes == 0
    assert outcome.after.lowest_health is None


# --- Game time (T1) returns whole outcomes: ``before`` is the character as it was -----------------
def test_T1_time_for_someone_not_bleeding_is_no_change_with_before_kept() -> None:
    healthy = character(5)
    assert pass_time(healthy, 30) == Outcome(before=healthy, after=healthy, events=())


def test_T1_bleeding_outcome_keeps_before_and_after() -> None:
    bleeding = character(-8)
    assert pass_time(bleeding, 30) == Outcome(
        before=bleeding, after=character(-9), events=(Bled(points=1), RollDue(difficulty=9))
    )


def test_T1_minutes_short_of_a_half_hour_only_carry_over_with_before_kept() -> None:
    bleeding = character(-8)
    assert pass_time(bleeding, 10) == Outcome(
        before=bleeding, after=character(-8, bleed_minutes=10), events=()
    )
