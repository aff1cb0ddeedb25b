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
    "look_key_v1",
    "name_key_v1",
]


@cache
def _confusables(data_file: str) -> dict[str, str]:
    """Unicode's confusable mappings of one version (source character → prototype)."""
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
    table = _confusables("confusables-13.0.0.txt")
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_key_v1(name: str) -> str:
    """The UTS #39 skeleton (confusables 13.0.0) of the name folded (case, accents, width,
    spaces): what migration 0003 stored."""
    return _skeleton_v1(_fold_v1(name))


#: The functions the migrations call, by their SQL name.
SQL_FUNCTIONS: dict[str, Callable[[str], str]] = {
    "salud_look_key_v1": look_key_v1,
}

#: The latest version of each stored key: ``bot.storage.names`` must compute the same.
LATEST: dict[str, Callable[[str], str]] = {
    "name_key": name_key_v1,
    "look_key": look_key_v1,
}
