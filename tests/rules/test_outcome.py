"""``Outcome.roll_fell_due``: the one answer to "did a Consciousness roll fall due?" that the
bot asks to call the player and to offer the roll's buttons (C1, G2)."""

from __future__ import annotations

from rules import ScriptedRoller, apply_damage, correct, rest, roll_consciousness
from tests.rules.factories import character


def test_a_loss_that_ends_below_zero_makes_a_roll_fall_due() -> None:
    assert apply_damage(character(2), 5).roll_fell_due
    assert not apply_damage(character(9), 5).roll_fell_due


def test_a_correction_below_zero_makes_one_fall_due_unless_it_knocks_out() -> None:
    assert correct(character(5), health=-3).roll_fell_due
    assert not correct(character(5), health=-3, conscious=False).roll_fell_due
    assert not correct(character(5), max_health=12).roll_fell_due


def test_the_roll_itself_and_healing_make_none_fall_due() -> None:
    made = roll_consciousness(character(-3), 2, ScriptedRoller([1]))
    assert not made.outcome.roll_fell_due
    assert not rest(character(-3), 2, hospital=False).roll_fell_due
