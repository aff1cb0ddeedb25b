"""Frozen, versioned key functions: what the migrations compute (issue 18).

A migration that fills a key column calls one of these (registered on the connection as
``salud_<name>``), never today's key code: a migration's result must not change when the code
does. So a function here is never edited, and neither is the data it reads: each has its own
copy of the folding it does, of the tables it needs, and names the data file it reads
(``unicode/confusables-13.0.0.txt``, immutable; ``tests/storage/test_key_versions.py`` pins
its digest and the outputs of every version). When the key the bot computes
(``bot.storage.names``) changes, a new version goes here, with a migration that recomputes
the stored keys with it; the same test fails until the current key equals the latest version.

They rest on Python's ``unicodedata`` for NFC/NFD/NFKC and case folding, which Unicode keeps
stable for assigned characters (its normalization and case folding stability policies).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache
from importlib import resources

__all__ = [
    "LATEST",
    "SQL_FUNCTIONS",
    "confusables",
    "look_key_v1",
    "look_key_v2",
    "name_key_v1",
    "reading_key_en_v1",
    "reading_key_es_v1",
    "typed_look_key_v1",
]


@cache
def confusables(data_file: str) -> dict[str, str]:
    """Unicode's confusable mappings of one version (source character → prototype), read
    from ``unicode/<data_file>``. Unicode's format of the file is fixed and each file is
    immutable, so today's key (``bot.storage.names``) reads its version through this too."""
    text = resources.files("bot.storage").joinpath("unicode", data_file).read_text("utf-8-sig")
    mapping: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source = "".join(chr(int(code, 16)) for code in fields[0].split())
        target = "".join(chr(int(code, 16)) for code in fields[1].split())
        if len(source) == 1:
            mapping[source] = target
    return mapping


# --- version 1 (migration 0003) ---------------------------------------------------------------


def name_key_v1(name: str) -> str:
    """The exact name ignoring case: trimmed, NFC, ``casefold``."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def _fold_v1(name: str) -> str:
    wide = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(
        char for char in unicodedata.normalize("NFD", wide) if unicodedata.category(char) != "Mn"
    )
    return unicodedata.normalize("NFC", " ".join(bare.split()))


def _skeleton_v1(text: str) -> str:
    table = confusables("confusables-13.0.0.txt")
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_key_v1(name: str) -> str:
    """The UTS #39 skeleton (confusables 13.0.0) of the name folded (case, accents, width,
    spaces): what migration 0003 stored."""
    return _skeleton_v1(_fold_v1(name))


# --- version 2 (migration 0008) ---------------------------------------------------------------

_PUNCTUATION_V2 = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035\u2039\u203a", "'"),
        **dict.fromkeys("\u02b9\u02bc\u0060\u00b4\uff07", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb", '"'),
        **dict.fromkeys("\u301d\u301e\uff02", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212", "-"),
        **dict.fromkeys("\u2e3a\u2e3b\ufe58\ufe63\uff0d", "-"),
    }
)
#: Default_Ignorable_Code_Point (Unicode 15.1), inclusive ranges.
_IGNORABLE_V2 = (
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


def _fold_v2(name: str) -> str:
    """Version 1's folding, typographic apostrophes, quotes and dashes as the plain ones
    first."""
    return _fold_v1(name.translate(_PUNCTUATION_V2))


def _skeleton_v2(text: str) -> str:
    """UTS #39's skeleton as Unicode 15.1 defines it: NFD, without default-ignorable code
    points, each character replaced by its prototype (confusables 13.0.0), NFD again."""
    table = confusables("confusables-13.0.0.txt")
    kept = (
        char
        for char in unicodedata.normalize("NFD", text)
        if not any(low <= ord(char) <= high for low, high in _IGNORABLE_V2)
    )
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in kept))


def look_key_v2(name: str) -> str:
    """The skeleton of the name folded (case, accents, width, spaces, typographic
    punctuation): the same name, or a lookalike in any case (``ana``, ``ANA``, ``Аna``)."""
    return _skeleton_v2(_fold_v2(name))


def typed_look_key_v1(name: str) -> str:
    """The skeleton of the name as typed, before any case folding: a lookalike whose capital
    looks like another letter's (Cyrillic ``Вob`` for ``Bob``, Greek ``Νora`` for ``Nora``)."""
    return _skeleton_v2(name)


# --- version 1 of the reading keys (migration 0009) -----------------------------------------
#: ``ñ`` as a Spanish reader sorts it: a letter of its own, after ``n``.
_ENYE_V1 = "n\x7f"


def _reading_key_v1(name: str, spanish: bool) -> str:
    wide = unicodedata.normalize("NFKC", name).casefold()
    if spanish:
        wide = wide.replace("ñ", _ENYE_V1)
    bare = "".join(
        char for char in unicodedata.normalize("NFD", wide) if unicodedata.category(char) != "Mn"
    )
    return " ".join(bare.split())


def reading_key_es_v1(name: str) -> str:
    """The order a Spanish reader expects: case, accents and width ignored, ``ñ`` after
    ``n`` (``Nuño`` before ``Ñaque``)."""
    return _reading_key_v1(name, spanish=True)


def reading_key_en_v1(name: str) -> str:
    """The order an English reader expects: case, accents and width ignored."""
    return _reading_key_v1(name, spanish=False)


#: The functions the migrations call, by their SQL name.
SQL_FUNCTIONS: dict[str, Callable[[str], str]] = {
    "salud_look_key_v1": look_key_v1,
    "salud_look_key_v2": look_key_v2,
    "salud_typed_look_key_v1": typed_look_key_v1,
    "salud_reading_key_es_v1": reading_key_es_v1,
    "salud_reading_key_en_v1": reading_key_en_v1,
}

#: The latest version of each stored key: ``bot.storage.names`` must compute the same.
LATEST: dict[str, Callable[[str], str]] = {
    "name_key": name_key_v1,
    "look_key": look_key_v2,
    "typed_look_key": typed_look_key_v1,
    "reading_key_es": reading_key_es_v1,
    "reading_key_en": reading_key_en_v1,
}
