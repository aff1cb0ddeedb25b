"""The damage amount parser and the dice (D1, D2; COMMANDS.md Numbers)."""

from __future__ import annotations

import time

import pytest

from rules import (
    DiceExpression,
    DiceOutOfRange,
    DiceSyntaxError,
    FixedAmount,
    ScriptedRoller,
    SystemRoller,
    parse_amount,
    roll_amount,
)
from rules.dice import DICE_EXPECTED, MAX_TEXT_LENGTH


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", FixedAmount(5)),
        ("1", FixedAmount(1)),
        ("999", FixedAmount(999)),
        (" 7 ", FixedAmount(7)),
        ("d6", DiceExpression(1, 6, 0)),
        ("D6", DiceExpression(1, 6, 0)),
        ("2d6", DiceExpression(2, 6, 0)),
        ("1d6+2", DiceExpression(1, 6, 2)),
        ("1d6-1", DiceExpression(1, 6, -1)),
        ("1d6 + 2", DiceExpression(1, 6, 2)),
        ("  1D6 -  2  ", DiceExpression(1, 6, -2)),
        ("20d100+100", DiceExpression(20, 100, 100)),
        ("1d2-100", DiceExpression(1, 2, -100)),
        ("3d8+0", DiceExpression(3, 8, 0)),
    ],
)
def test_D1_parse_amount_accepts(text: str, expected: object) -> None:
    assert parse_amount(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "-5",
        "+5",
        "abc",
        "1d",
        "d",
        "1d6+",
        "1d6+2+1",
        "1 d6",
        "1d 6",
        "1d6*2",
        "1.5",
        "５",
        "٣",
        "1d٦",
        "1d6\u00a0+2",
        "1e3",
        "5 5",
        "1d6-+2",
    ],
)
def test_D1_parse_amount_refuses_syntax(text: str) -> None:
    with pytest.raises(DiceSyntaxError) as refused:
        parse_amount(text)
    assert refused.value.code == "dice_syntax"
    assert refused.value.params["expected"] == "N, dS, NdS, NdS+K, NdS-K"
    assert "text" in refused.value.params


@pytest.mark.parametrize(
    ("text", "which", "low", "high"),
    [
        ("0", "amount", 1, 999),
        ("1000", "amount", 1, 999),
        ("0d6", "count", 1, 20),
        ("21d6", "count", 1, 20),
        ("1d1", "sides", 2, 100),
        ("1d101", "sides", 2, 100),
        ("1d6+101", "modifier", -100, 100),
        ("1d6-101", "modifier", -100, 100),
    ],
)
def test_D1_parse_amount_refuses_out_of_range(text: str, which: str, low: int, high: int) -> None:
    with pytest.raises(DiceOutOfRange) as refused:
        parse_amount(text)
    assert refused.value.code == "dice_out_of_range"
    assert refused.value.params == {"which": which, "min": low, "max": high}


@pytest.mark.parametrize("text", ["9" * 5000, "1d6" + " " * 10_000, "x" * 10_000])
def test_D1_huge_input_is_refused_quickly(text: str) -> None:
    started = time.perf_counter()
    with pytest.raises(DiceSyntaxError) as refused:
        parse_amount(text)
    assert time.perf_counter() - started < 0.05
    assert len(str(refused.value.params["text"])) <= 20


def test_D2_roll_amount_reports_dice_modifier_and_total() -> None:
    rolled = roll_amount(DiceExpression(2, 6, 1), ScriptedRoller([4, 5]))
    assert (rolled.dice, rolled.modifier, rolled.raw_total, rolled.dealt) == ((4, 5), 1, 10, 10)


def test_D2_fixed_amount_rolls_nothing() -> None:
    rolled = roll_amount(FixedAmount(7), ScriptedRoller([]))
    assert (rolled.dice, rolled.modifier, rolled.raw_total, rolled.dealt) == ((), 0, 7, 7)


def test_scripted_roller_refuses_when_exhausted_or_out_of_range() -> None:
    roller = ScriptedRoller([3])
    with pytest.raises(ValueError):
        roller.roll(2)
    assert roller.roll(6) == 3
    assert roller.remaining == 0
    with pytest.raises(LookupError):
        roller.roll(6)


def test_system_roller_stays_within_the_die() -> None:
    roller = SystemRoller()
    assert {roller.roll(3) for _ in range(200)} == {1, 2, 3}


# --- Dice parsing limits (D1) at their boundaries, and the test roller's contract ---------------
def test_D1_text_of_exactly_the_maximum_length_is_parsed() -> None:
    assert parse_amount("12".rjust(MAX_TEXT_LENGTH)) == FixedAmount(12)
    with pytest.raises(DiceSyntaxError):
        parse_amount("12".rjust(MAX_TEXT_LENGTH + 1))


def test_D1_syntax_error_quotes_a_short_text_whole() -> None:
    with pytest.raises(DiceSyntaxError) as refused:
        parse_amount("  " + "x" * 20 + "  ")
    assert refused.value.params == {"text": "x" * 20, "expected": DICE_EXPECTED}


def test_D1_syntax_error_cuts_a_long_text_to_20_characters() -> None:
    with pytest.raises(DiceSyntaxError) as refused:
        parse_amount("x" * 25)
    assert refused.value.params == {"text": "x" * 19 + "…", "expected": DICE_EXPECTED}


def test_scripted_roller_returns_its_values_in_order() -> None:
    roller = ScriptedRoller([1, 2, 3])
    assert [roller.roll(6), roller.roll(6), roller.roll(6)] == [1, 2, 3]
    assert roller.remaining == 0


def test_scripted_roller_says_why_it_refuses() -> None:
    roller = ScriptedRoller([7])
    with pytest.raises(ValueError, match=r"^scripted value 7 is not a roll of a d6$"):
        roller.roll(6)
    assert roller.roll(8) == 7
    with pytest.raises(LookupError, match=r"^ScriptedRoller has no values left$") as exhausted:
        roller.roll(8)
    assert type(exhausted.value) is LookupError
