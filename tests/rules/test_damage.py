"""D1–D5: damage, and the Consciousness roll it makes due (C1)."""

from __future__ import annotations

import pytest

from rules import (
    Damaged,
    Died,
    HealthState,
    Hospital,
    InvalidValue,
    RollDue,
    ScriptedRoller,
    StabilizationEnded,
    StateChanged,
    apply_damage,
    inconsistencies,
    parse_amount,
    roll_amount,
)
from tests.rules.factories import character


def test_D1_damage_lowers_health_by_its_amount() -> None:
    outcome = apply_damage(character(10), 4)
    assert outcome.after.health == 6
    assert outcome.events == (Damaged(amount=4),)
    assert outcome.changed


@pytest.mark.parametrize("amount", [0, -3])
def test_D1_amount_is_at_least_one(amount: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        apply_damage(character(10), amount)
    assert refused.value.params["field"] == "amount"
    assert refused.value.params["min"] == 1


def test_D1_damage_from_a_dice_expression() -> None:
    rolled = roll_amount(parse_amount("1d6+2"), ScriptedRoller([3]))
    assert apply_damage(character(10), rolled.dealt).after.health == 5


def test_D2_rolled_total_below_one_deals_one() -> None:
    rolled = roll_amount(parse_amount("d6-2"), ScriptedRoller([1]))
    assert (rolled.dice, rolled.modifier, rolled.raw_total, rolled.dealt) == ((1,), -2, -1, 1)


def test_D3_damage_below_zero_makes_a_roll_due() -> None:
    outcome = apply_damage(character(1), 3)
    assert outcome.after.roll_pending
    assert outcome.events == (
        Damaged(amount=3),
        StateChanged(before=HealthState.HEALTHY, after=HealthState.HURT),
        RollDue(difficulty=2),
    )


def test_D3_damage_to_zero_makes_no_roll_due() -> None:
    outcome = apply_damage(character(3), 3)
    assert outcome.after.health == 0
    assert not outcome.after.roll_pending


def test_D3_unconscious_character_gets_no_roll() -> None:
    outcome = apply_damage(character(-3, conscious=False), 1)
    assert not outcome.after.roll_pending
    assert not any(isinstance(event, RollDue) for event in outcome.events)


def test_D3_each_loss_below_zero_makes_a_new_roll_due() -> None:
    outcome = apply_damage(character(-2), 1)
    assert outcome.events[-1] == RollDue(difficulty=3)


def test_D3_damage_that_kills_leaves_no_roll_pending() -> None:
    outcome = apply_damage(character(-10), 5)
    assert outcome.after.health == -15
    assert not outcome.after.roll_pending
    assert Died() in outcome.events
    assert inconsistencies(outcome.after) == ()


def test_D4_fresh_damage_undoes_stabilization() -> None:
    outcome = apply_damage(character(-7, stabilized=True), 1)
    assert not outcome.after.stabilized
    assert StabilizationEnded() in outcome.events
    assert outcome.after.is_bleeding


def test_D4_fresh_damage_cancels_the_recovery_due_after_discharge() -> None:
    outcome = apply_damage(character(5, full_recovery_due=True), 1)
    assert not outcome.after.full_recovery_due


def test_D5_lowest_health_is_kept_through_the_spell() -> None:
    wounded = apply_damage(character(0), 8).after
    assert wounded.lowest_health == -8
    assert apply_damage(wounded, 2).after.lowest_health == -10


def test_D5_spell_starts_when_entering_seriously_wounded() -> None:
    assert apply_damage(character(-3), 2).after.lowest_health is None
    assert apply_damage(character(-3), 3).after.lowest_health == -6


def test_R8_damage_in_hospital_keeps_the_stay_and_its_length() -> None:
    patient = character(-8, hospital=Hospital(length_days=8, days_served=3))
    after = apply_damage(patient, 2).after
    assert after.hospital == Hospital(length_days=8, days_served=3)
    assert after.lowest_health == -10
    assert not after.is_bleeding


def test_R8_damage_that_kills_in_hospital_ends_the_stay() -> None:
    patient = character(-8, hospital=Hospital(length_days=8))
    after = apply_damage(patient, 4).after
    assert after.hospital is None
    assert inconsistencies(after) == ()
