"""Finding a character by the name people type, and telling lookalike names apart
(COMMANDS.md Names, Finding a character by name).

The pure folding (case, accents, width, spaces) is ``rules.names.fold_name``; this module adds
what needs data or a library: the UTS #39 confusable skeleton, read from Unicode's own
``confusables.txt`` (shipped in ``bot/unicode/``), and close-name suggestions by rapidfuzz.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rapidfuzz import fuzz, process

from rules.names import fold_name, starts_a_word

__all__ = [
    "NameEntry",
    "Resolution",
    "close_names",
    "look_key",
    "rank_choices",
    "resolve_name",
    "skeleton",
]

#: At most this many names in a "Did you mean …?".
MAX_SUGGESTIONS = 3
#: rapidfuzz's WRatio (0–100) a name must reach to be suggested.
_SUGGEST_CUTOFF = 60.0


@cache
def _confusables() -> dict[str, str]:
    """Unicode's confusable mappings (source character → prototype), read once."""
    data = resources.files("bot").joinpath("unicode", "confusables.txt").read_text("utf-8-sig")
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
    """UTS #39 skeleton: NFD, every character replaced by its prototype, NFD again. Two
    strings are confusable when their skeletons are equal (Cyrillic ``А`` and Latin ``A``)."""
    table = _confusables()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_key(name: str) -> str:
    """What a character name looks like: the skeleton of its folded form, so that
    ``Аna`` (Cyrillic), ``ＡＮＡ`` and ``Ana`` share one key."""
    return skeleton(fold_name(name))


@dataclass(frozen=True)
class NameEntry:
    """One character of a server as name matching needs it."""

    id: int
    name: str
    owner_id: int

    @property
    def folded(self) -> str:
        return fold_name(self.name)


@dataclass(frozen=True)
class Resolution:
    """What a typed name names: ``found`` (one character), or else ``ambiguous`` (several
    share the typed name or word-start) and ``suggestions`` (close names) for the refusal."""

    found: NameEntry | None = None
    ambiguous: tuple[NameEntry, ...] = ()
    suggestions: tuple[str, ...] = ()


def resolve_name(typed: str, entries: Sequence[NameEntry]) -> Resolution:
    """The rules of COMMANDS.md, after the exact (stored) name missed: the same name once
    folded, else the only name with a word that starts with the typed text, else close names.

    Several characters with the same folded name exist only in databases older than the
    rule (the migration kept them): they are reachable by their exact names.
    """
    folded = fold_name(typed)
    same = tuple(entry for entry in entries if entry.folded == folded)
    if len(same) == 1:
        return Resolution(found=same[0])
    if same:
        return Resolution(ambiguous=same)
    starting = tuple(entry for entry in entries if starts_a_word(entry.folded, folded))
    if len(starting) == 1:
        return Resolution(found=starting[0])
    if starting:
        return Resolution(ambiguous=starting[:MAX_SUGGESTIONS])
    return Resolution(suggestions=close_names(typed, entries))


def close_names(
    typed: str, entries: Iterable[NameEntry], limit: int = MAX_SUGGESTIONS
) -> tuple[str, ...]:
    """Up to ``limit`` names close to ``typed`` (rapidfuzz WRatio on the folded names)."""
    by_folded: dict[str, str] = {}
    for entry in entries:
        by_folded.setdefault(entry.folded, entry.name)
    folded = fold_name(typed)
    if not folded or not by_folded:
        return ()
    matches = process.extract(
        folded, list(by_folded), scorer=fuzz.WRatio, limit=limit, score_cutoff=_SUGGEST_CUTOFF
    )
    return tuple(by_folded[match[0]] for match in matches)


def rank_choices(typed: str, entries: Sequence[NameEntry], user_id: int) -> list[NameEntry]:
    """Autocomplete: the names the typed text matches as ``resolve_name`` would (the same
    folded name, a word start, then any part), the user's own first; with none, close names."""
    folded = fold_name(typed)

    def rank(entry: NameEntry) -> int:
        if not folded:
            return 0
        if entry.folded == folded:
            return 0
        if starts_a_word(entry.folded, folded):
            return 1
        return 2 if folded in entry.folded else 3

    ranked = [(rank(entry), entry) for entry in entries]
    matching = [item for item in ranked if item[0] < 3]
    if not matching and folded:
        close = set(close_names(typed, entries, limit=5))
        matching = [(2, entry) for entry in entries if entry.name in close]
    matching.sort(
        key=lambda item: (item[1].owner_id != user_id, item[0], item[1].folded, item[1].id)
    )
    return [entry for _, entry in matching]
