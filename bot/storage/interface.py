"""The storage seam: what the cogs and features may ask of a database, whichever engine keeps
it (issue 26; Red-DiscordBot's ``BaseDriver`` is such an interface with two drivers).

``HistoryEntry`` (with ``HistoryCharacter``) and ``UndoResult`` are what the history's reads
and ``undo_latest`` return: here, beside the protocols that hand them out, because only an
entry carries its command's typed details (``bot.storage.details``), which nothing else of a
character's needs.

``StorageReads`` is what can be read, alone (``storage.read()``) or inside a change;
``StorageChange`` is one change's transaction, recorded in the history; ``StorageEngine`` is
the storage a bot is given. Nothing here speaks SQL or names an engine's types: each engine
(``bot/storage/sqlite/``) has classes that satisfy these protocols, and a module above
``bot/storage/`` types what it holds with them (``tests/architecture/test_storage_seam.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Final, NotRequired, Protocol, Self, TypedDict, TypeVar, Unpack

from bot.storage.details import Details
from bot.storage.errors import SchemaMovedOn
from bot.storage.fair_lock import Ticket
from bot.storage.memory import ServerNames
from bot.storage.models import (
    BATCH_SIZE,
    EVERY_CHARACTER,
    UNSET,
    Among,
    CharacterQuery,
    CharacterRef,
    GuildSettings,
    LostChannel,
    NewCharacter,
    Numbers,
    RollKind,
    RollMessage,
    StoredCharacter,
    TrackerMessage,
    UnkeptReply,
    Unset,
)
from bot.storage.tables import TableDirectory, TableWrites
from rules.abilities import Ability
from rules.character import CharacterHealth, Gender
from rules.stability import CharacterStability

__all__ = [
    "LATEST_ENTRIES",
    "ChangeListener",
    "HistoryCharacter",
    "HistoryEntry",
    "HistoryQuery",
    "NewEntry",
    "StorageChange",
    "StorageEngine",
    "StorageReads",
    "UndoResult",
]

T = TypeVar("T")


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


class ChangeListener(Protocol):
    """``listener(guild_id, ids of the characters the change touched)``, after its commit."""

    def __call__(self, guild_id: int, character_ids: tuple[int, ...], /) -> None: ...


class StorageReads(Protocol):
    """Reads, every one filtered by server; valid only inside the block that gave it."""

    async def get_settings(self, guild_id: int) -> GuildSettings: ...

    async def get_meta(self, key: str) -> str | None:
        """A bot-wide value (the hash of the last command sync)."""

    async def get_character(self, guild_id: int, character_id: int) -> StoredCharacter | None: ...

    async def get_characters(
        self, guild_id: int, character_ids: Iterable[int]
    ) -> dict[int, StoredCharacter]:
        """Those of this guild among ``character_ids``, by id; a missing one is absent."""

    async def character(self, ref: CharacterRef) -> StoredCharacter:
        """The whole character ``ref`` names; ``CharacterNotFound`` when it is gone."""

    async def server_names(self, guild_id: int) -> ServerNames: ...

    async def find_lookalike(
        self, guild_id: int, name: str, *, other_than: int | None = None
    ) -> StoredCharacter | None:
        """A character whose name is, or looks like, ``name`` (create and rename refuse it)."""

    async def list_characters(
        self, guild_id: int, query: CharacterQuery = EVERY_CHARACTER
    ) -> list[StoredCharacter]:
        """Those of the guild that ``query`` asks for, the page it asks for."""

    async def lookalike_ids(self, guild_id: int) -> set[int]: ...

    async def count_characters(
        self, guild_id: int, *, living_only: bool = False, out_of_play: bool | None = None
    ) -> int: ...

    async def batch_of_characters(
        self, guild_id: int, among: Among, *, after_id: int = 0, limit: int = BATCH_SIZE
    ) -> list[StoredCharacter]: ...

    async def count_among(self, guild_id: int, among: Among) -> int: ...

    async def head_count(self, guild_id: int) -> tuple[int, int, int]:
        """Characters, the living among them, and the out of play (incurably insane) among
        those."""

    async def interaction_seen(self, interaction_id: int) -> bool:
        """Whether this interaction's change is stored (settles a commit whose end was lost)."""

    async def history(
        self, guild_id: int, query: HistoryQuery = LATEST_ENTRIES
    ) -> list[HistoryEntry]: ...

    async def get_history_entry(self, guild_id: int, entry_id: int) -> HistoryEntry | None: ...

    async def latest_undoable(self, guild_id: int) -> HistoryEntry | None: ...

    # --- what the history does not hold: roll numbers and messages, trackers, lost channels

    async def roll_number(
        self, guild_id: int, character_id: int, kind: RollKind = RollKind.CONSCIOUSNESS
    ) -> int | None:
        """The character's current roll number of ``kind`` (None: not in this guild)."""

    async def has_roll_messages(self, guild_id: int) -> bool:
        """Whether the guild keeps any roll-button message, of any kind."""

    async def newest_roll_message(
        self, guild_id: int, character_id: int, kind: RollKind, roll_seq: int
    ) -> RollMessage | None:
        """The newest kept message carrying the buttons of that roll, if any."""

    async def stale_roll_messages(
        self, guild_id: int, character_ids: Sequence[int]
    ) -> list[RollMessage]:
        """The kept messages of these characters whose roll is no longer to make."""

    async def messages_to_sweep(
        self, guild_id: int, character_ids: Sequence[int]
    ) -> list[tuple[RollMessage, bool]]:
        """Every kept row of the messages holding a stale roll of these characters, each with
        whether it is stale (a message is edited once, its live buttons kept)."""

    async def unkept_replies(self) -> list[UnkeptReply]:
        """The changes whose reply with roll buttons was not kept (a process stopped)."""

    async def tracker(self, guild_id: int) -> TrackerMessage | None: ...

    async def lost_channels(self) -> list[LostChannel]:
        """Every lost announcement channel whose server's GMs were not told yet."""


class StorageChange(StorageReads, Protocol):
    @property
    def tables(self) -> TableWrites:
        """The writes of tables and places (``bot.storage.tables``), a character's move."""

    """One change: its reads and writes and its one history entry, applied together or not
    at all (rolled back when it wrote a character without ``record``)."""

    #: The interaction this change answers and its channel, when a command's (set by
    #: ``Here.change``): a change that numbers rolls notes it until its reply is kept.
    reply_to: tuple[int, int] | None

    async def characters(self, *refs: CharacterRef) -> tuple[StoredCharacter, ...]: ...

    async def update_settings(
        self,
        guild_id: int,
        *,
        gm_role_id: int | Unset | None = UNSET,
        channel_id: int | Unset | None = UNSET,
        language: str | Unset | None = UNSET,
    ) -> GuildSettings: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    async def create_character(self, new: NewCharacter) -> StoredCharacter:
        """A new character (name stored trimmed), with Stability when given. Raises
        ``DuplicateName``, and ``ValueError`` for two abilities whose names are equal
        ignoring case."""

    async def save_health(
        self, character: StoredCharacter, health: CharacterHealth
    ) -> StoredCharacter:
        """Write every ``CharacterHealth`` field. Raises ``CharacterNotFound``."""

    async def save_healths(
        self, changes: Iterable[tuple[StoredCharacter, CharacterHealth]]
    ) -> list[StoredCharacter]:
        """``save_health`` for many characters in one statement (``/scene new``, ``/time``);
        a character missing from its guild raises ``CharacterNotFound`` before anything is
        written. Returns the saved characters in the order given."""

    async def save_stability(
        self, character: StoredCharacter, stability: CharacterStability | None
    ) -> StoredCharacter:
        """Write every Stability value (None: the character has none, RULES.md M13). Raises
        ``CharacterNotFound``."""

    async def save_stabilities(
        self, changes: Iterable[tuple[StoredCharacter, CharacterStability | None]]
    ) -> list[StoredCharacter]:
        """``save_stability`` for many characters in one statement (``/scene new``,
        ``/refresh``, a Stability test called for several)."""

    async def set_gender(
        self, character: StoredCharacter, gender: Gender | None
    ) -> StoredCharacter:
        """Give the character a grammatical gender (None: none). Raises ``CharacterNotFound``."""

    async def set_numbers(self, character: StoredCharacter, numbers: Numbers) -> StoredCharacter:
        """Whether the table sees the character's numbers. Raises ``CharacterNotFound``."""

    async def set_ability(self, character: StoredCharacter, ability: Ability) -> StoredCharacter:
        """Add the ability, or replace the one with the same name ignoring case. Raises
        ``CharacterNotFound``."""

    async def remove_ability(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Remove the ability called ``name`` (ignoring case); absent: nothing changes."""

    async def save_abilities(
        self, character: StoredCharacter, abilities: Iterable[Ability]
    ) -> StoredCharacter:
        """Replace the whole set of abilities (e.g. ``/refresh``)."""

    async def rename_character(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Give the character a new name (stored as given: clean it first). Raises
        ``CharacterNotFound``, and ``DuplicateName`` when the exact name is taken."""

    async def delete_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        """Delete it with its abilities; returns what was deleted, None if not in this guild."""

    async def record(self, **entry: Unpack[NewEntry]) -> HistoryEntry | None:
        """The change's one history entry (None when no stored value changed)."""

    async def undo_latest(
        self, guild_id: int, interaction_id: int, actor_id: int
    ) -> UndoResult | None:
        """Revert the guild's latest entry that is neither an undo nor undone (see
        ``HistoryRecorder.undo_latest``); None when there is nothing to undo."""

    # --- what the history does not hold ----------------------------------------------------

    async def number_rolls(
        self,
        guild_id: int,
        due: Sequence[int],
        pending: Sequence[int],
        kind: RollKind = RollKind.CONSCIOUSNESS,
    ) -> dict[int, int]:
        """A new number for each of ``due``; the current number of ``due`` and ``pending``."""

    async def renumber_rolls(
        self, guild_id: int, character_ids: Sequence[int], kind: RollKind = RollKind.CONSCIOUSNESS
    ) -> None:
        """New numbers for rolls an undo made due again (allowed after ``record``)."""

    async def remember_roll_messages(self, messages: Iterable[RollMessage]) -> None: ...

    async def forget_roll_messages(self, messages: Iterable[RollMessage]) -> None: ...

    async def forget_unkept_reply(self, interaction_id: int) -> None:
        """The reply of that interaction was kept (or will never be)."""

    async def set_tracker(self, tracker: TrackerMessage) -> TrackerMessage | None:
        """Make ``tracker`` the server's; returns the one it replaces."""

    async def forget_tracker(self, tracker: TrackerMessage) -> None:
        """Stop that tracker for good (only if it is still the server's)."""

    async def channel_lost(self, lost: LostChannel) -> bool:
        """Clear the server's announcement channel and keep the loss, unless it changed."""

    async def forget_lost_channel(self, guild_id: int) -> None: ...


class StorageEngine(Protocol):
    """The storage a bot is given: changes, reads, what is kept in memory, the listeners."""

    #: Every table and bound place (``bot.storage.tables``), in memory.
    tables: TableDirectory

    def transaction(
        self,
        *,
        require_record: bool = True,
        ticket: Ticket | None = None,
        guild_id: int | None = None,
    ) -> AbstractAsyncContextManager[StorageChange]: ...

    async def prepared_change(
        self,
        body: Callable[[StorageChange], Awaitable[T]],
        *,
        guild_id: int,
        ticket: Ticket | None = None,
    ) -> T:
        """``body(tx)`` in one transaction, as ``transaction`` would run it, for a whole
        server's change: its reads and its work done before the write lock (another server's
        change is not held meanwhile), ``body`` run again when the server changed before its
        writes (``body`` must leave nothing behind but what it returns)."""

    def read(self, ticket: Ticket | None = None) -> AbstractAsyncContextManager[StorageReads]: ...

    async def settings(self, guild_id: int, ticket: Ticket | None = None) -> GuildSettings: ...

    def settings_in_memory(self, guild_id: int | None) -> GuildSettings | None: ...

    async def names(self, guild_id: int, ticket: Ticket | None = None) -> ServerNames: ...

    def on_change(self, listener: ChangeListener) -> None: ...

    def on_schema_moved_on(self, listener: Callable[[SchemaMovedOn], None]) -> None:
        """Call ``listener(error)`` once, when a transaction finds that a newer Salud
        migrated the database past what this code knows (the process then stops, exit 2)."""

    def applied_recently(self, interaction_id: int) -> bool: ...

    @property
    def commit_estimate(self) -> float: ...

    async def close(self) -> None:
        """Wait for the running transaction, then close. Closing twice is harmless."""

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
