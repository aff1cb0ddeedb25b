"""A GM's corrections (G1–G4) at the points mutmut found untested: exact values and events."""

from __future__ import annotations

from rules import Corrected, RollCleared, apply_damage, correct, rest
from tests.rules.factories import character


def test_G1_a_given_pool_below_the_rating_is_set() -> None:
    outcome = correct(character(5, first_aid=4), first_aid_pool=1)
    assert outcome.after == character(5, first_aid=4, pool=1)
    assert outcome.events == (Corrected(field="first_aid_pool", before=4, after=1),)


def test_G1_a_corrected_maximum_is_reported_as_max_health() -> None:
    outcome = correct(character(5), max_health=12)
    assert outcome.after == character(5, max_health=12, scene_start_health=10)
    assert outcome.events == (Corrected(field="max_health", before=10, after=12),)


def test_G3_a_gm_knocks_out_a_character_at_health_0() -> None:
    outcome = correct(character(0), conscious=False)
    assert outcome.after == character(0, conscious=False)
    assert outcome.events == (Corrected(field="conscious", before=True, after=False),)


def test_C7_a_knocked_out_character_stays_out_when_hit_and_wakes_when_healed() -> None:
    knocked = correct(character(5), conscious=False).after
    hit = apply_damage(knocked, 3).after
    assert hit.health == 2 and not hit.conscious and not hit.roll_pending
    rested = rest(hit, 1, hospital=False)
    assert rested.after.health == 4 and rested.after.conscious


def test_G3_awake_given_to_an_awake_character_without_a_roll_is_no_change() -> None:
    outcome = correct(character(5), conscious=True)
    assert outcome.events == ()
    assert not outcome.changed


def test_G3_awake_clears_the_pending_roll_exactly() -> None:
    outcome = correct(character(-3), conscious=True)
    assert outcome.after == character(-3, roll_pending=False)
    assert outcome.after.roll_pending is False
    assert outcome.events == (RollCleared(),)


def test_G3_knocked_out_means_unconscious_with_no_roll_pending_exactly() -> None:
    outcome = correct(character(-3), conscious=False)
    assert outcome.after == character(-3, conscious=False)
    assert outcome.after.roll_pending is False
    assert outcome.events == (
        Corrected(field="conscious", before=True, after=False),
        RollCleared(),
    )
