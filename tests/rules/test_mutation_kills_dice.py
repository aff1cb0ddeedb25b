"""Dice parsing limits (D1) and the test roller, at the points mutmut found untested."""

from __future__ import annotations

import pytest

from rules import DiceSyntaxError, FixedAmount, ScriptedRoller, parse_amount
from rules.dice import DICE_EXPECTED, MAX_TEXT_LENGTH


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
