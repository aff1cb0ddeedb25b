"""Character names: trimmed, visible, free of control and invisible characters (COMMANDS.md
Names), and the folding by which two names are the same name."""

from __future__ import annotations

import re
import unicodedata
from typing import ClassVar

from rules.errors import RuleError

__all__ = [
    "CONTROL_CATEGORIES",
    "FILLERS",
    "MAX_MARKS",
    "MAX_NAME_LENGTH",
    "InvalidName",
    "clean_name",
    "fold_name",
    "fold_punctuation",
    "is_default_ignorable",
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
#: Letters and symbols that render as blank space: the Hangul fillers and the Braille blank
#: (``Pia`` and ``Pia\u3164`` look the same).
FILLERS = frozenset("\u115f\u1160\u2800\u3164\uffa0")
#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1): code
#: points a renderer shows as nothing when it does not support them. Ranges, inclusive.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Text and emoji presentation selectors: after a symbol (``❤️``) they choose how it is drawn,
#: which is visible; after a letter they add nothing to see.
_PRESENTATION = frozenset("\ufe0e\ufe0f")
#: Most combining marks one character may carry (Vietnamese ``ệ`` carries 2).
MAX_MARKS = 2
_MARK_CATEGORIES = frozenset({"Mn", "Mc", "Me"})
#: Raw texts longer than FACTOR * max_length + SLACK are refused before any work.
_MAX_RAW_FACTOR = 4
#: A run of space separators (every character of category Zs), kept as one plain space.
_SPACE_RUN = re.compile("[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
_MAX_RAW_SLACK = 64
#: Typographic apostrophes, quotes and dashes, as the plain ones a keyboard types (a phone
#: types ``O’Malley`` for ``O'Malley``).
_PLAIN_PUNCTUATION = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035\u2039\u203a", "'"),
        **dict.fromkeys("\u02b9\u02bc\u0060\u00b4\uff07", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb", '"'),
        **dict.fromkeys("\u301d\u301e\uff02", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212", "-"),
        **dict.fromkeys("\u2e3a\u2e3b\ufe58\ufe63\uff0d", "-"),
    }
)


class InvalidName(RuleError):
    """The name cannot be used (params: reason — "empty", "too_long", "control",
    "invisible" or "marks" — and max_length)."""

    code: ClassVar[str] = "invalid_name"


def is_default_ignorable(char: str) -> bool:
    """Whether ``char`` is a Default_Ignorable_Code_Point of Unicode."""
    code = ord(char)
    return any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)


def _invisible(name: str) -> bool:
    """Whether ``name`` holds a filler, or a default-ignorable code point other than a
    presentation selector right after a symbol (``❤️``)."""
    for index, char in enumerate(name):
        previous = name[index - 1] if index else " "
        if char in FILLERS:
            return True
        if is_default_ignorable(char) and not (
            char in _PRESENTATION and unicodedata.category(previous) == "So"
        ):
            return True
    return False


def _too_many_marks(name: str) -> bool:
    """Whether a character of ``name`` (decomposed) carries more than ``MAX_MARKS`` marks."""
    marks = 0
    for char in unicodedata.normalize("NFD", name):
        marks = marks + 1 if unicodedata.category(char) in _MARK_CATEGORIES else 0
        if marks > MAX_MARKS:
            return True
    return False


def clean_name(text: str, max_length: int = MAX_NAME_LENGTH) -> str:
    """The name to store: NFC, trimmed, each run of spaces one space; refused when empty,
    too long, with a control, format or invisible character (a filler, a default-ignorable
    code point), with nothing visible in it, or with more than ``MAX_MARKS`` combining marks
    on one character."""
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
    if all(char in FILLERS or unicodedata.category(char) in _BLANK_CATEGORIES for char in name):
        raise InvalidName(reason="invisible", max_length=max_length)
    if _invisible(name):
        raise InvalidName(reason="control", max_length=max_length)
    if _too_many_marks(name):
        raise InvalidName(reason="marks", max_length=max_length)
    return name


def _one_space(text: str) -> str:
    """Each run of space characters (category Zs: ``U+0020``, no-break space …) as one
    ``U+0020``; tabs and other controls are left for ``clean_name`` to refuse."""
    return _SPACE_RUN.sub(" ", text)


def name_key(name: str) -> str:
    """The key names are compared and stored by: trimmed, NFC, then ``casefold``
    (COMMANDS.md)."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def fold_punctuation(text: str) -> str:
    """Typographic apostrophes, quotes and dashes as the plain ``'``, ``"`` and ``-``."""
    return text.translate(_PLAIN_PUNCTUATION)


def fold_name(name: str) -> str:
    """The key two character names are the same name by (COMMANDS.md Names): equal ignoring
    case, accents and width, with typographic apostrophes, quotes and dashes as the plain
    ones and runs of spaces as one space.

    ``Amelia Rios``, ``AMELIA RÍOS`` and ``Ａｍｅｌｉａ Ríos`` all fold to ``amelia rios``;
    ``O’Malley`` and ``O'Malley`` to ``o'malley``. The punctuation first (NFKC would turn
    ``´`` into a space and an accent), then NFKC (full-width letters become plain ones), then
    case folding, then the accents (combining marks after NFD) are dropped.
    """
    wide = unicodedata.normalize("NFKC", fold_punctuation(name)).casefold()
    bare = "".join(
        char for char in unicodedata.normalize("NFD", wide) if unicodedata.category(char) != "Mn"
    )
    return unicodedata.normalize("NFC", " ".join(bare.split()))


#: ``ñ`` in a Spanish reading key: ``n`` and then DEL, which follows every letter a folded
#: Latin name holds and which no name may contain (a control character, refused).
_SPANISH_ENYE = "n\x7f"


def reading_key(name: str, language: str) -> str:
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
