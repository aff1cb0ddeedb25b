"""Character names (COMMANDS.md Names)."""

from __future__ import annotations

import pytest

from rules import InvalidName, clean_name, name_key


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
