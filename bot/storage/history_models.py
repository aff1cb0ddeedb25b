"""A history entry as ``/history`` and ``/undo`` read it: the characters it touched, with
whole snapshots, and what an undo reverted. Apart from ``bot.storage.models`` because an
entry carries its command's typed details (``bot.storage.details``), which nothing else of
a character's needs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final, NotRequired, TypedDict

from bot.storage.details import Details
from bot.storage.models import StoredCharacter

__all__ = [
    "LATEST_ENTRIES",
    "HistoryCharacter",
    "HistoryEntry",
    "HistoryQuery",
    "NewEntry",
    "UndoResult",
]


@dataclass(frozen=True)
class HistoryCharacter:
    """One character touched by a history entry, with whole snapshots.

    ``before`` is ``None`` when the entry created the character, ``after`` is ``None`` when it
    deleted it. ``name`` is the name after the change (before it, for a deletion).
    """

    character_id: int
    name: str
    before: StoredCharacter | None
    after: StoredCharacter | None

    @property
    def created(self) -> bool:
        return self.before is None

    @property
    def deleted(self) -> bool:
        return self.after is None

    @property
    def health_before(self) -> int | None:
        return None if self.before is None else self.before.health.health

    @property
    def health_after(self) -> int | None:
        return None if self.after is None else self.after.health.health


@dataclass(frozen=True)
class HistoryQuery:
    """Which of a server's history entries ``history`` reads, newest first: those touching
    ``character_id`` (None: every one), at most ``limit``, only those older than
    ``before_id`` when given, the newest ``offset`` skipped (a page of ``/history``)."""

    character_id: int | None = None
    limit: int = 15
    before_id: int | None = None
    offset: int = 0


#: The server's 15 newest entries.
LATEST_ENTRIES: Final = HistoryQuery()


class NewEntry(TypedDict):
    """What a change's ``record(**entry)`` says of its history entry, by keyword: the table's
    id, the interaction and who made it, the command and its ``details``
    (``bot.storage.details``; absent or None: none)."""

    guild_id: int
    interaction_id: int
    actor_id: int
    command: str
    details: NotRequired[Details | None]


@dataclass(frozen=True)
class HistoryEntry:
    """One change of a guild (or an undo of one), as ``/history`` shows it.

    ``id`` is the entry's key (``undo_of`` and ``undone_by`` are ids, and so is what an
    ``/undo`` button carries); ``number`` is what players see, the entry's place in its
    server's history (``#1`` is the server's first change); ``undo_of_number`` the number of
    the entry an undo reverted. ``details`` are the command's own (``bot.storage.details``),
    read back typed whatever version of Salud stored them.
    """

    id: int
    guild_id: int
    number: int
    interaction_id: int
    created_at: datetime
    actor_id: int
    command: str
    details: Details
    undo_of: int | None
    undone_by: int | None
    characters: tuple[HistoryCharacter, ...]
    undo_of_number: int | None = None

    @property
    def undone(self) -> bool:
        return self.undone_by is not None

    @property
    def is_undo(self) -> bool:
        return self.undo_of is not None


@dataclass(frozen=True)
class UndoResult:
    """What ``undo_latest`` reverted.

    ``reverted`` is the original entry (now marked undone), ``undo_entry`` the new "undo"
    entry, ``restored`` the characters as they are again (in ``reverted.characters`` order,
    leaving out the ones removed), ``removed`` the ids of characters the original entry had
    created and that are now gone.
    """

    reverted: HistoryEntry
    undo_entry: HistoryEntry
    restored: tuple[StoredCharacter, ...]
    removed: tuple[int, ...]
