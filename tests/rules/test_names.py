"""Character names (COMMANDS.md Names)."""

from __future__ import annotations

import pytest

from rules import InvalidName, clean_name, name_key
from rules.names import MAX_NAME_LENGTH


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Ana  ", "Ana"),
        ("José Ñúñez", "José Ñúñez"),
        ("@everyone", "@everyone"),
        ("Li 李", "Li 李"),
    ],
)
def test_clean_name_trims(text: str, expected: str) -> None:
    assert clean_name(text) == expected


def test_clean_name_normalizes_to_nfc() -> None:
    assert clean_name("Jose\u0301") == "José"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("a" * 41, "too_long"),
        ("x" * 100_000, "too_long"),
        ("Ana\x00", "control"),
        ("An\u200ba", "control"),
        ("A\u202enna", "control"),
        ("\u3164", "invisible"),
        ("\u2800\u2800", "invisible"),
        ("\u0301", "invisible"),
    ],
)
def test_clean_name_refuses(text: str, reason: str) -> None:
    with pytest.raises(InvalidName) as refused:
        clean_name(text)
    assert refused.value.code == "invalid_name"
    assert refused.value.params == {"reason": reason, "max_length": 40}


def test_name_key_ignores_case() -> None:
    assert name_key("STRASSE") == name_key("straße")
    assert name_key("Ana") == name_key("aNA")


# --- Name length limits (COMMANDS.md Names) exactly at their boundaries ---------------------------
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
