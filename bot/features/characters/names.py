"""Finding a character by the name people type (COMMANDS.md Finding a character by name),
and refusing a name another character has or looks like (COMMANDS.md Names).

The pure folding (case, accents, width, spaces) is ``rules.names.fold_name``; the stored keys
(the exact name, the confusable skeleton) are ``bot.storage.names``; this module adds the
matching people expect while they type: word starts, and close names by rapidfuzz.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from bot.interaction.errors import UserFacingError
from bot.render.sanitize import escape
from bot.storage.interface import StorageChange
from bot.storage.memory import ServerNames
from bot.storage.models import LightCharacter
from rules.names import fold_name, name_key, reading_key, starts_a_word

__all__ = [
    "NameEntry",
    "Resolution",
    "close_names",
    "entries_of",
    "find_character",
    "rank_choices",
    "refuse_taken_name",
    "resolve_name",
]

#: At most this many names in a "Did you mean …?".
MAX_SUGGESTIONS = 3
#: rapidfuzz's WRatio (0–100) a name must reach to be suggested.
_SUGGEST_CUTOFF = 60.0


@dataclass(frozen=True)
class NameEntry:
    """One character of a server as name matching needs it, with its folded name."""

    character: LightCharacter
    folded: str

    @classmethod
    def of(cls, character: LightCharacter) -> NameEntry:
        return cls(character, fold_name(character.name))

    @property
    def id(self) -> int:
        return self.character.id

    @property
    def name(self) -> str:
        return self.character.name

    @property
    def owner_id(self) -> int:
        return self.character.owner_id


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


def rank_choices(
    typed: str, entries: Sequence[NameEntry], user_id: int, language: str = "en"
) -> list[NameEntry]:
    """Autocomplete: the names the typed text matches as ``resolve_name`` would (the same
    folded name, a word start, then any part), the user's own first, each group in the order
    a reader of ``language`` expects (``rules.names.reading_key``); with none, close names."""
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
        key=lambda item: (
            item[1].owner_id != user_id,
            item[0],
            reading_key(item[1].name, language),
            item[1].id,
        )
    )
    return [entry for _, entry in matching]


def entries_of(names: ServerNames) -> tuple[NameEntry, ...]:
    """The server's characters with their folded names."""
    return tuple(NameEntry.of(character) for character in names.characters)


def find_character(names: ServerNames, typed: str) -> tuple[LightCharacter | None, Resolution]:
    """COMMANDS.md Finding a character by name: the stored name wins; else ``resolve_name``,
    whose resolution says, on a miss, what was close."""
    found = names.with_key(name_key(typed))
    if found is not None:
        return found, Resolution()
    resolution = resolve_name(typed, entries_of(names))
    if resolution.found is not None:
        return resolution.found.character, resolution
    return None, resolution


async def refuse_taken_name(
    tx: StorageChange, guild_id: int, name: str, *, renaming: int | None = None
) -> None:
    """Refuse ``name`` when another character of the guild (other than ``renaming``) has the
    same name ignoring case, accents and width, or one that looks like it (UTS #39).

    Asked inside the change's transaction, so that two creations at once cannot both pass.
    """
    other = await tx.find_lookalike(guild_id, name, other_than=renaming)
    if other is None:
        return
    shown = escape(other.name)
    if fold_name(other.name) == fold_name(name):
        raise UserFacingError("error.duplicate_name", name=shown)
    raise UserFacingError("error.lookalike_name", name=escape(name), other=shown)
