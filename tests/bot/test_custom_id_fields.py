"""``CustomId.read`` gives back the fields its id declares, typed as declared (issue 25 point
4): a number an ``int``, a word a ``str``, an optional field left out None; no caller turns a
field back into a number (``int(str(found["character_id"]))``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.features.characters.delete import DELETE_ID
from bot.features.rolls.consciousness import CONSCIOUSNESS_ID
from bot.features.rolls.stability import STABILITY_TEST_ID

ROOT = Path(__file__).resolve().parents[2]


def test_numbers_come_back_as_numbers_and_words_as_words() -> None:
    found = CONSCIOUSNESS_ID.read("salud:cons:12:3:7")
    assert found == {"character_id": 12, "spend": 3, "roll": 7}
    assert found is not None
    assert [type(value) for value in found.values()] == [int, int, int]
    assert (found.number("character_id"), found.optional_number("roll")) == (12, 7)
    answer = DELETE_ID.read("salud:del:5:yes")
    assert answer == {"character_id": 5, "answer": "yes"}


def test_an_optional_field_left_out_is_none() -> None:
    old = CONSCIOUSNESS_ID.read("salud:cons:12:0")
    assert old is not None
    assert old.optional_number("roll") is None
    with pytest.raises(KeyError):
        old.number("roll")  # a number the id left out is refused, not read as 0
    with pytest.raises(KeyError):
        DELETE_ID.read("salud:del:5:no").number("answer")  # type: ignore[union-attr]


def test_an_id_of_another_kind_reads_as_none() -> None:
    assert STABILITY_TEST_ID.read("salud:cons:12:3:7") is None
    assert STABILITY_TEST_ID.read("salud:stab:12:3:7") == {
        "character_id": 12,
        "spend": 3,
        "test": 7,
    }


def test_no_caller_turns_a_field_back_into_a_number() -> None:
    again = re.compile(r"int\(str\(found\[")
    written = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for match in again.finditer(path.read_text(encoding="utf-8"))
    ]
    assert written == []
