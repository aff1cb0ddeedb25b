"""Character names: trimmed, visible, free of control characters (COMMANDS.md Names)."""

from __future__ import annotations

import re
import unicodedata
from typing import ClassVar

from rules.errors import RuleError

__all__ = [
    "CONTROL_CATEGORIES",
    "MAX_NAME_LENGTH",
    "InvalidName",
    "clean_name",
    "fold_name",
    "name_key",
    "reading_key",
    "starts_a_word",
]

#: Longest name, in characters (COMMANDS.md ``/character create``).
MAX_NAME_LENGTH = 40

#: Categories that are never shown: controls, format characters, surrogates.
CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
#: Categories that show nothing on their own (spaces, combining marks, unassigned).
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Mn", "Me", "Cn"})
#: Letters and symbols that render as blank space.
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u2800\u3164\uffa0")
#: Raw texts longer than FACTOR * max_length + SLACK are refused before any work.
_MAX_RAW_FACTOR = 4
#: A run of space separators (every character of category Zs), kept as one plain space.
_SPACE_RUN = re.compile("[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
_MAX_RAW_SLACK = 64


class InvalidName(RuleError):
    """The name cannot be used (params: reason — "empty", "too_long", "control" or
    "invisible" — and max_length)."""

    code: ClassVar[str] = "invalid_name"


def clean_name(text: str, max_length: int = MAX_NAME_LENGTH) -> str:
    """The name to store: NFC, trimmed, each run of spaces one space; refused when empty,
    too long, with a Cc/Cf character, or with nothing visible in it."""
    if len(text) > _MAX_RAW_FACTOR * max_length + _MAX_RAW_SLACK:
        # Cheap guard before normalizing: no trimmed name of max_length comes near it.
        raise InvalidName(reason="too_long", max_length=max_length)
    name = _one_space(unicodedata.normalize("NFC", text)).strip()
    if not name:
        raise InvalidName(reason="empty", max_length=max_length)
    if len(name) > max_length:
        raise InvalidName(reason="too_long", max_length=max_length)
    if any(unicodedata.category(char) in CONTROL_CATEGORIES for char in name):
        raise InvalidName(reason="control", max_length=max_length)
    if all(
        char in _BLANK_CHARACTERS or unicodedata.category(char) in _BLANK_CATEGORIES
        for char in name
    ):
        raise InvalidName(reason="invisible", max_length=max_length)
    return name


def _one_space(text: str) -> str:
    """Each run of space characters (category Zs: ``U+0020``, no-break space …) as one
    ``U+0020``; tabs and other controls are left for ``clean_name`` to refuse."""
    return _SPACE_RUN.sub(" ", text)


def name_key(name: str) -> str:
    """The key names are compared by: NFC, then ``casefold`` (COMMANDS.md)."""
    return unicodedata.normalize("NFC", name).casefold()


def fold_name(name: str) -> str:
    """The key two character names are the same name by (COMMANDS.md Names): equal ignoring
    case, accents and width, with runs of spaces as one space.

    ``Amelia Rios``, ``AMELIA RÍOS`` and ``Ａｍｅｌｉａ Ríos`` all fold to ``amelia rios``.
    NFKC first (full-width letters become plain ones), then case folding, then the accents
    (combining marks after NFD) are dropped.
    """
    wide = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(
        char for char in unicodedata.normalize("NFD", wide) if unicodedata.category(char) != "Mn"
    )
    return unicodedata.normalize("NFC", " ".join(bare.split()))


#: ``ñ`` in a Spanish reading key: ``n`` and then DEL, which follows every letter a folded
#: Latin name holds and which no name may contain (a control character, refused).
_SPANISH_ENYE = "n\x7f"


def reading_key(name: str, language: str = "en") -> str:
    """The key that puts names in the order a reader of ``language`` (``es`` or ``en``)
    expects (COMMANDS.md Lists): case, accents and width ignored, as ``fold_name`` does
    (``Cónsul Britton`` before ``Criada Úrsula``); in Spanish ``ñ`` is a letter of its own,
    after ``n`` (``Nuño`` before ``Ñaque``). Names equal but for case or accents get one
    key: the caller ties them (by id)."""
    wide = unicodedata.normalize("NFKC", name).casefold()
    if language == "es":
        wide = wide.replace("ñ", _SPANISH_ENYE)
    bare = "".join(
        char for char in unicodedata.normalize("NFD", wide) if unicodedata.category(char) != "Mn"
    )
    return " ".join(bare.split())


def starts_a_word(folded_name: str, folded_typed: str) -> bool:
    """Whether ``folded_typed`` begins one of the words of ``folded_name`` (both folded):
    ``rios`` and ``amelia r`` start words of ``amelia rios``, ``elia`` does not."""
    if not folded_typed:
        return False
    start = folded_name.find(folded_typed)
    while start >= 0:
        if start == 0 or not folded_name[start - 1].isalnum():
            return True
        start = folded_name.find(folded_typed, start + 1)
    return False
