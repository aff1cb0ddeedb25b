"""Character names: trimmed, visible, free of control characters (COMMANDS.md Names)."""

from __future__ import annotations

import unicodedata
from typing import ClassVar

from rules.errors import RuleError

__all__ = ["MAX_NAME_LENGTH", "InvalidName", "clean_name", "name_key"]

#: Longest name, in characters (COMMANDS.md ``/character create``).
MAX_NAME_LENGTH = 40

#: Categories that are never shown: controls, format characters, surrogates.
_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
#: Categories that show nothing on their own (spaces, combining marks, unassigned).
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Mn", "Me", "Cn"})
#: Letters and symbols that render as blank space.
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u2800\u3164\uffa0")
#: Raw texts longer than FACTOR * max_length + SLACK are refused before any work.
_MAX_RAW_FACTOR = 4
_MAX_RAW_SLACK = 64


class InvalidName(RuleError):
    """The name cannot be used (params: reason — "empty", "too_long", "control" or
    "invisible" — and max_length)."""

    code: ClassVar[str] = "invalid_name"


def clean_name(text: str, max_length: int = MAX_NAME_LENGTH) -> str:
    """The name to store: NFC, trimmed; refused when empty, too long, with a Cc/Cf
    character, or with nothing visible in it."""
    if len(text) > _MAX_RAW_FACTOR * max_length + _MAX_RAW_SLACK:
        # Cheap guard before normalizing: no trimmed name of max_length comes near it.
        raise InvalidName(reason="too_long", max_length=max_length)
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise InvalidName(reason="empty", max_length=max_length)
    if len(name) > max_length:
        raise InvalidName(reason="too_long", max_length=max_length)
    if any(unicodedata.category(char) in _CONTROL_CATEGORIES for char in name):
        raise InvalidName(reason="control", max_length=max_length)
    if all(
        char in _BLANK_CHARACTERS or unicodedata.category(char) in _BLANK_CATEGORIES
        for char in name
    ):
        raise InvalidName(reason="invisible", max_length=max_length)
    return name


def name_key(name: str) -> str:
    """The key names are compared by: NFC, then ``casefold`` (COMMANDS.md)."""
    return unicodedata.normalize("NFC", name).casefold()
