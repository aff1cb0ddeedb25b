"""The keys a character's name is stored under (COMMANDS.md Names), so that the name is found,
and a lookalike refused, with one indexed query:

- ``name_key`` (``rules.names.name_key``, a rule of the names themselves): the exact name,
  ignoring case (unique per server);
- ``look_key``: what the name looks like once folded (case, accents, width, spaces,
  typographic punctuation): the same name, or a lookalike in any case (``ana``, ``ANA``,
  ``Аna`` with a Cyrillic ``А``);
- ``typed_look_key``: what the name looks like as typed, before any case folding: a
  lookalike whose capital letter looks like another's (Cyrillic ``Вob`` for ``Bob``), which
  folding would hide (a Cyrillic ``в`` looks like no Latin letter);
- ``reading_key_es`` and ``reading_key_en``: the order a reader of each language expects
  (``rules.names.reading_key``), so that a page of a list is read in order from an index.

Two names collide when either key is equal. Both are Unicode's UTS #39 confusable skeletons,
read from ``confusables.txt`` (version ``CONFUSABLES``, shipped beside this module).

These are the keys the bot computes today; the stored ones were computed by the frozen
versions of ``key_versions.py``, and ``tests/storage/test_key_versions.py`` fails when the
two differ (a new key needs a new version and a migration). Finding a character by a typed
name (word starts, close names) is not the storage's business:
``bot.features.characters.names``.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib import resources

from rules.names import fold_name, is_default_ignorable, reading_key

__all__ = [
    "CONFUSABLES",
    "look_key",
    "reading_key_en",
    "reading_key_es",
    "skeleton",
    "typed_look_key",
]

#: The version of Unicode's confusables the skeleton reads (``unicode/<CONFUSABLES>``).
CONFUSABLES = "confusables-13.0.0.txt"


@cache
def _confusables() -> dict[str, str]:
    """Unicode's confusable mappings (source character → prototype), read once."""
    data = resources.files("bot.storage").joinpath("unicode", CONFUSABLES).read_text("utf-8-sig")
    mapping: dict[str, str] = {}
    for line in data.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source = "".join(chr(int(code, 16)) for code in fields[0].split())
        target = "".join(chr(int(code, 16)) for code in fields[1].split())
        if len(source) == 1:
            mapping[source] = target
    return mapping


def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, default-ignorable code points removed, every character
    replaced by its prototype, NFD again. Two strings are confusable when their skeletons
    are equal (Cyrillic ``А`` and Latin ``A``)."""
    table = _confusables()
    mapped = "".join(
        table.get(char, char)
        for char in unicodedata.normalize("NFD", text)
        if not is_default_ignorable(char)
    )
    return unicodedata.normalize("NFD", mapped)


def look_key(name: str) -> str:
    """What a character name looks like once folded: ``Аna`` (Cyrillic), ``ＡＮＡ``, ``ána``
    and ``Ana`` share one key, and so do ``O’Malley`` and ``O'Malley``."""
    return skeleton(fold_name(name))


def typed_look_key(name: str) -> str:
    """What a character name looks like as typed: ``Вob`` (Cyrillic capital) and ``Bob``
    share one key; ``bob`` has another."""
    return skeleton(name)


def reading_key_es(name: str) -> str:
    """Where the name goes in a list a Spanish reader reads (``ñ`` after ``n``)."""
    return reading_key(name, "es")


def reading_key_en(name: str) -> str:
    """Where the name goes in a list an English reader reads."""
    return reading_key(name, "en")
