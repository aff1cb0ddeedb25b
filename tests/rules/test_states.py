"""H1–H6: Health, its states, and what each state means for the actions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import (
    DEATH_THRESHOLD,
    CharacterDead,
    CharacterHealth,
    HealthState,
    InvalidValue,
    ScriptedRoller,
    apply_damage,
    give_first_aid,
    inconsistencies,
    rest,
    roll_consciousness,
    state_of,
)
from tests.rules.factories import character, medic


def test_H1_health_is_a_pool_with_a_maximum_that_may_go_below_zero() -> None:
    fresh = CharacterHealth.new(max_health=9, first_aid_rating=3)
    assert (fresh.health, fresh.max_health) == (9, 9)
    assert (fresh.first_aid_pool, fresh.first_aid_rating) == (3, 3)
    assert apply_damage(fresh, 12).after.health == -3
    assert inconsistencies(fresh) == ()


def test_H1_maximum_is_at_least_one() -> None:
    with pytest.raises(InvalidValue) as refused:
        CharacterHealth.new(max_health=0, first_aid_rating=0)
    assert refused.value.code == "invalid_value"
    assert refused.value.params == {"field": "max_health", "min": 1, "max": 99}


@pytest.mark.parametrize(
    ("health", "state"),
    [
        (10, HealthState.HEALTHY),
        (1, HealthState.HEALTHY),
        (0, HealthState.HURT),
        (-5, HealthState.HURT),
        (-6, HealthState.SERIOUSLY_WOUNDED),
        (-11, HealthState.SERIOUSLY_WOUNDED),
        (-12, HealthState.DEAD),
        (-40, HealthState.DEAD),
    ],
)
def test_H2_state_follows_from_health(health: int, state: HealthState) -> None:
    assert state_of(health) is state
    assert character(health).state is state
    assert DEATH_THRESHOLD == -12


def test_H2_state_ignores_every_other_field() -> None:
    hurt = character(-3, max_health=20, conscious=False, first_aid_received=5)
    assert hurt.state is HealthState.HURT
    assert replace(hurt, max_health=5).state is HealthState.HURT


def test_H3_hurt_character_still_rolls_consciousness_without_penalty() -> None:
    # H3's +1 is for tests and contests (abilities); C2 excludes it from this roll.
    result = roll_consciousness(character(-3), 0, ScriptedRoller([3]))
    assert result.difficulty == 3
    assert result.success


def test_H4_seriously_wounded_must_roll_and_bleeds() -> None:
    outcome = apply_damage(character(2), 9)
    assert outcome.after.state is HealthState.SERIOUSLY_WOUNDED
    assert outcome.after.roll_pending
    assert outcome.after.is_bleeding


def test_H5_dead_character_refuses_damage_rolls_first_aid_and_rest() -> None:
    dead = character(-12)
    with pytest.raises(CharacterDead) as refused:
        apply_damage(dead, 1)
    assert refused.value.code == "dead"
    with pytest.raises(CharacterDead):
        roll_consciousness(dead, 0, ScriptedRoller([6]))
    with pytest.raises(CharacterDead):
        give_first_aid(medic(), dead, 2)
    with pytest.raises(CharacterDead):
        rest(dead, 1, hospital=False)
    with pytest.raises(CharacterDead):
        rest(dead, 1, hospital=True)


def test_H6_health_never_exceeds_maximum_through_rest_or_first_aid() -> None:
    assert rest(character(9), 5, hospital=False).after.health == 10
    healed = give_first_aid(medic(), character(9, max_health=10), 5)
    assert healed.patient.after.health == 10
    assert healed.spent == 1
