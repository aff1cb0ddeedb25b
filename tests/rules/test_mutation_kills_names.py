"""Name length limits (COMMANDS.md Names) exactly at their boundaries."""

from __future__ import annotations

import pytest

from rules import InvalidName, clean_name
from rules.names import MAX_NAME_LENGTH

#: The raw-text guard: 4 × max_length + 64 characters are still looked at.
RAW_LIMIT = 4 * MAX_NAME_LENGTH + 64


def test_name_of_exactly_the_maximum_length_is_kept() -> None:
    name = "a" * MAX_NAME_LENGTH
    assert clean_name(name) == name
    with pytest.raises(InvalidName) as refused:
        clean_name(name + "a")
    assert refused.value.params == {"reason": "too_long", "max_length": MAX_NAME_LENGTH}


@pytest.mark.parametrize("length", [100, RAW_LIMIT])
def test_raw_text_up_to_the_guard_is_trimmed_not_refused(length: int) -> None:
    assert clean_name("Ana".ljust(length)) == "Ana"


def test_raw_text_beyond_the_guard_is_refused_as_too_long() -> None:
    with pytest.raises(InvalidName) as refused:
        clean_name("Ana".ljust(RAW_LIMIT + 1))
    assert refused.value.params == {"reason": "too_long", "max_length": MAX_NAME_LENGTH}
