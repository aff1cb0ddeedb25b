"""Invariants of ``inconsistencies`` and ``CharacterHealth.new``, one broken at a time.

Written against mutmut's survivors: each case breaks exactly one invariant, at its boundary,
and checks the exact message, so that a loosened bound or a changed text is noticed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import CharacterHealth, Hospital, InvalidValue, inconsistencies
from tests.rules.factories import character


def test_H1_max_health_below_1_is_reported() -> None:
    broken = replace(character(0, max_health=1), max_health=0)
    assert inconsistencies(broken) == ("max_health below 1",)


def test_H6_health_above_max_health_is_reported() -> None:
    assert inconsistencies(replace(character(10), health=11)) == ("health above max_health",)


@pytest.mark.parametrize("pool", [-1, 5])
def test_P1_pool_outside_its_rating_is_reported(pool: int) -> None:
    broken = replace(character(10, first_aid=4), first_aid_pool=pool)
    assert inconsistencies(broken) == ("first_aid_pool outside 0..first_aid_rating",)


def test_C7_unconscious_below_0_is_consistent() -> None:
    # A GM's knock-out (G3) may leave a character unconscious at any Health.
    assert inconsistencies(replace(character(-1), conscious=False, roll_pending=False)) == ()
    assert inconsistencies(replace(character(0), conscious=False)) == ()


@pytest.mark.parametrize(
    ("health", "conscious"),
    [(0, True), (-3, False), (-12, True)],
    ids=["at-0", "unconscious", "dead"],
)
def test_C1_roll_pending_only_while_conscious_living_and_below_0(
    health: int, conscious: bool
) -> None:
    broken = replace(character(health, conscious=conscious, roll_pending=False), roll_pending=True)
    problems = inconsistencies(broken)
    assert "roll pending while not conscious, living and below 0" in problems
    assert inconsistencies(character(-1, roll_pending=True)) == ()
    assert inconsistencies(character(-11, roll_pending=True)) == ()


def test_C1_roll_pending_on_the_unconscious_is_the_only_problem() -> None:
    broken = replace(character(-3, conscious=False, roll_pending=False), roll_pending=True)
    assert inconsistencies(broken) == ("roll pending while not conscious, living and below 0",)


def test_F6_stabilized_while_not_seriously_wounded_is_reported() -> None:
    assert inconsistencies(replace(character(5), stabilized=True)) == (
        "stabilized while not seriously wounded",
    )
    assert inconsistencies(character(-8, stabilized=True)) == ()


def test_R3_hospital_while_not_seriously_wounded_is_reported() -> None:
    broken = replace(character(5), hospital=Hospital(length_days=8))
    assert inconsistencies(broken) == ("in hospital while not seriously wounded",)


@pytest.mark.parametrize(("served", "ok"), [(-1, False), (0, True), (7, True), (8, False)])
def test_R4_days_served_stay_within_the_length(served: int, ok: bool) -> None:
    stay = Hospital(length_days=8, days_served=served)
    problems = inconsistencies(character(-8, stabilized=True, hospital=stay))
    assert problems == (() if ok else ("hospital days_served outside 0..length_days-1",))


def test_R5_full_recovery_due_while_in_hospital_is_reported() -> None:
    broken = character(-8, stabilized=True, hospital=Hospital(8), full_recovery_due=True)
    assert inconsistencies(broken) == ("full recovery due while in hospital",)


def test_D5_lowest_health_kept_exactly_during_serious_wounds() -> None:
    message = "lowest_health set exactly when not in a spell of serious wounds"
    assert inconsistencies(replace(character(-3), lowest_health=-3)) == (message,)
    assert inconsistencies(replace(character(-8), lowest_health=None)) == (message,)


def test_D5_lowest_health_above_health_is_reported() -> None:
    assert inconsistencies(character(-8, lowest_health=-7)) == ("lowest_health above health",)


@pytest.mark.parametrize(("minutes", "ok"), [(-1, False), (0, True), (29, True), (30, False)])
def test_T1_bleed_minutes_stay_below_a_half_hour(minutes: int, ok: bool) -> None:
    problems = inconsistencies(character(-8, bleed_minutes=minutes))
    assert problems == (() if ok else ("bleed_minutes outside 0..29",))


def test_T2_bleed_minutes_kept_while_not_bleeding_is_reported() -> None:
    message = "bleed_minutes kept while not bleeding"
    assert inconsistencies(character(5, bleed_minutes=5)) == (message,)
    assert inconsistencies(character(-8, stabilized=True, bleed_minutes=5)) == (message,)


def test_F3_first_aid_received_below_0_is_reported() -> None:
    assert inconsistencies(character(5, first_aid_received=-1)) == ("first_aid_received below 0",)


def test_new_names_the_first_aid_rating_it_refuses() -> None:
    with pytest.raises(InvalidValue) as refused:
        CharacterHealth.new(10, 100)
    assert refused.value.params == {"field": "first_aid_rating", "min": 0, "max": 99}
    with pytest.raises(InvalidValue) as refused:
        CharacterHealth.new(0, 4)
    assert refused.value.params == {"field": "max_health", "min": 1, "max": 99}
