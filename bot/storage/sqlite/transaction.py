"""``Transaction``: what a cog does inside ``storage.transaction()``, one facade over the parts
it holds (docs/DESIGN.md, Storage):

- ``Pipeline`` (``pipeline.py``): the statements not sent yet, and the trips that send them —
  those nobody waits for go with the next statement that is waited for, or with ``COMMIT``;
- ``Reader`` (``reader.py``): the read-only queries, sent through that pipeline;
- ``KnownCharacters`` (``known.py``): every character read or written here as stored now, and
  the first state of each one written;
- ``CharacterWriter`` (``character_writes.py``): the writes of characters and abilities;
- ``HistoryRecorder`` (``history_writes.py``): the change's history entry, and ``/undo``;
- ``TableWriter`` (``table_rows.py``): tables, their places, a character's move (``tables``).

Each part keeps its own state and uses the others only through their methods. The facade
adds ``finish`` / ``abort`` / ``end`` for ``Storage``; ``SideWriter`` (``side_writes.py``)
writes what the history does not hold (settings, meta, roll numbers and messages, trackers).
With ``BEGIN IMMEDIATE`` goes a probe of the next history id and of the next number in the
transaction's server (SQLite's write lock is held from then on, so no other connection can take
them): the history entry and its characters' rows are then written with the ``COMMIT`` instead
of in a trip of their own. A /hurt is two trips: ``BEGIN`` with the read of the character, the
writes with ``COMMIT``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Unpack

import aiosqlite

from bot.storage.errors import AlreadyApplied, CharacterNotFound, TransactionStateError
from bot.storage.forwarded import forwarded
from bot.storage.interface import HistoryEntry, NewEntry, UndoResult
from bot.storage.memory import SettingsCache
from bot.storage.models import (
    CharacterRef,
    GuildSettings,
    LostChannel,
    NewCharacter,
    Numbers,
    RollKind,
    RollMessage,
    StoredCharacter,
    TrackerMessage,
)
from bot.storage.shared_sql import NEXT_HISTORY_ID, SELECT_NEXT_HISTORY_ID
from bot.storage.sqlite.character_writes import CharacterWriter
from bot.storage.sqlite.history_writes import HistoryRecorder
from bot.storage.sqlite.known import KnownCharacters
from bot.storage.sqlite.pipeline import NO_CHECKS, Pipeline, TripChecks
from bot.storage.sqlite.reader import Reader, character_named
from bot.storage.sqlite.rows import (
    UNSET,
    Clock,
    Unset,
    is_unique_violation,
)
from bot.storage.sqlite.side_writes import SideWriter
from bot.storage.sqlite.table_rows import TableWriter
from rules.abilities import Ability
from rules.character import CharacterHealth, Gender
from rules.stability import CharacterStability

__all__ = ["Transaction"]


class Transaction:
    """Reads and writes inside ``BEGIN IMMEDIATE`` … ``COMMIT``, recorded in the history;
    valid only inside the ``async with storage.transaction()`` that produced it."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        clock: Clock,
        settings: SettingsCache,
        guild_id: int | None = None,
        checks: TripChecks = NO_CHECKS,
        pipeline_of: Callable[..., Pipeline] = Pipeline,
    ) -> None:
        self._known = KnownCharacters()
        self._pipe = pipeline_of(conn, on_failure=self._known.forget, checks=checks)
        self._pipe.begin(NEXT_HISTORY_ID, SELECT_NEXT_HISTORY_ID, (guild_id,))  # with the first
        self._reads = Reader(self._pipe, clock, settings, keep=self._known.keep)
        self._characters = CharacterWriter(self._pipe, self._known, self._reads)
        self._history = HistoryRecorder(
            self._pipe, self._known, self._reads, self._characters, probed_guild=guild_id
        )
        self._side = SideWriter(self._pipe, self._reads, writable=self._characters.check_writable)
        #: Guilds whose cached settings end with this transaction (committed or not).
        self.settings_written: set[int] = set()
        #: The interaction this change answers and its channel, when a command's (set by
        #: ``Here.change``): a change that numbers rolls notes it until its reply is kept.
        self.reply_to: tuple[int, int] | None = None
        self._commit_guards: list[Callable[[], Awaitable[None]]] = []

    # --- for ``Storage`` ---------------------------------------------------------------------

    @property
    def names_written(self) -> set[int]:
        """Guilds whose name index ends with this transaction (committed or not)."""
        return self._characters.names_written

    @property
    def recorded_interaction(self) -> int | None:
        """The interaction of the history entry written (None: nothing recorded)."""
        return self._history.recorded_interaction

    @property
    def changed_guild(self) -> int | None:
        """The guild whose characters this transaction wrote (None: none written)."""
        return self._known.guild_id

    @property
    def touched_ids(self) -> tuple[int, ...]:
        """The ids of the characters this transaction wrote (created and deleted included)."""
        return self._known.written_ids

    def guard_commit(self, guard: Callable[[], Awaitable[None]]) -> None:
        """Run ``guard`` just before committing a recorded change; if it raises, the change
        is rolled back. (The bot makes sure it can still answer the interaction: a change
        must not be stored when its reply can no longer reach the player.)"""
        self._commit_guards.append(guard)

    async def finish(self, *, require_record: bool = True) -> None:
        """Commit, when the block ended without an error (``Storage.transaction``): refuse a
        change that was not recorded, run the commit guards, then send what is queued with
        ``COMMIT`` (one trip). The history entry may be among them: a repeated interaction
        fails here (the unique index), as ``AlreadyApplied``."""
        if require_record and await self._history.has_unrecorded_changes():
            raise TransactionStateError(
                "a transaction changed characters without record(); rolled back"
            )
        if self._history.recorded:
            for guard in self._commit_guards:
                await guard()
        self._reads.check_open()
        try:
            await self._pipe.commit()
        except sqlite3.IntegrityError as error:
            recorded = self.recorded_interaction
            if recorded is not None and is_unique_violation(error, "history.interaction_id"):
                raise AlreadyApplied(recorded) from error
            raise

    def abort(self) -> None:
        """Before a rollback: what was not sent is forgotten."""
        self._pipe.discard()

    def end(self) -> None:
        """The block is over: any later use raises ``TransactionStateError``."""
        self._reads.end()

    # --- statements ----------------------------------------------------------------------------

    @property
    def tables(self) -> TableWriter:
        return TableWriter(self._pipe, self._characters, self._reads.check_open, self.now)

    #: The clock's time, as stored (ISO 8601, UTC, microseconds).
    now = forwarded("_reads", Reader.now)

    def check_open(self) -> None:
        self._reads.check_open()

    # --- settings and meta (never history) ---------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's ``/config``; as stored now when this transaction wrote it (what is
        not committed yet never goes into the cache)."""
        if guild_id in self.settings_written:
            self._reads.check_open()
            return await self._reads.stored_settings(guild_id)
        return await self._reads.get_settings(guild_id)

    async def update_settings(
        self,
        guild_id: int,
        *,
        gm_role_id: int | Unset | None = UNSET,
        channel_id: int | Unset | None = UNSET,
        language: str | Unset | None = UNSET,
    ) -> GuildSettings:
        """Set the given fields (``None`` clears one); others keep their value."""
        given: dict[str, Any] = {
            key: value
            for key, value in (
                ("gm_role_id", gm_role_id),
                ("channel_id", channel_id),
                ("language", language),
            )
            if value is not UNSET
        }
        self.settings_written.add(guild_id)
        stored = await self._side.write_settings(guild_id, given)
        return stored if stored is not None else await self.get_settings(guild_id)

    get_meta = forwarded("_reads", Reader.get_meta)

    async def set_meta(self, key: str, value: str) -> None:
        """A bot-wide value (not per guild), e.g. the hash of the last command sync."""
        self._side.set_meta(key, value)

    # --- characters as stored now (known here, else read) ------------------------------------

    async def get_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        self._reads.check_open()
        current = await self._characters.current(guild_id, character_id)
        return None if current is None else current.character()

    async def character(self, ref: CharacterRef) -> StoredCharacter:
        """The whole character ``ref`` names, as stored now (``character_named``)."""
        return await character_named(self, ref)

    async def get_characters(
        self, guild_id: int, character_ids: Iterable[int]
    ) -> dict[int, StoredCharacter]:
        """The characters of this guild among ``character_ids``, by id, read in one query
        (those already known here: none); a missing one is simply absent."""
        self._reads.check_open()
        wanted = list(character_ids)
        await self._characters.load(guild_id, wanted)
        found: dict[int, StoredCharacter] = {}
        for character_id in wanted:
            if self._known.knows(character_id):
                stored = self._known.state(guild_id, character_id)
                if stored is not None:
                    found[character_id] = stored.character()
        return found

    async def characters(self, *refs: CharacterRef) -> tuple[StoredCharacter, ...]:
        """``character`` for several of one guild, read together (one query)."""
        guild_id = refs[0].guild_id
        found = await self.get_characters(guild_id, [ref.id for ref in refs])
        missing = next((ref for ref in refs if ref.id not in found), None)
        if missing is not None:
            raise CharacterNotFound(guild_id, missing.id)
        return tuple(found[ref.id] for ref in refs)

    # --- other reads (``Reader``) ------------------------------------------------------------

    server_names = forwarded("_reads", Reader.server_names)
    # See ``Reader.find_lookalike``: asked inside the change's transaction, so that two
    # creations at once cannot both pass.
    find_lookalike = forwarded("_reads", Reader.find_lookalike)
    list_characters = forwarded("_reads", Reader.list_characters)
    batch_of_characters = forwarded("_reads", Reader.batch_of_characters)
    count_among = forwarded("_reads", Reader.count_among)
    head_count = forwarded("_reads", Reader.head_count)
    lookalike_ids = forwarded("_reads", Reader.lookalike_ids)
    count_characters = forwarded("_reads", Reader.count_characters)
    history = forwarded("_reads", Reader.history)
    get_history_entry = forwarded("_reads", Reader.get_history_entry)
    latest_undoable = forwarded("_reads", Reader.latest_undoable)

    async def interaction_seen(self, interaction_id: int) -> bool:
        return await self._history.interaction_seen(interaction_id)

    # --- character writes (``CharacterWriter``) ----------------------------------------------

    async def create_character(self, new: NewCharacter) -> StoredCharacter:
        return await self._characters.create(new)

    async def save_health(
        self, character: StoredCharacter, health: CharacterHealth
    ) -> StoredCharacter:
        (saved,) = await self._characters.save_healths([(character, health)])
        return saved

    async def save_healths(
        self, changes: Iterable[tuple[StoredCharacter, CharacterHealth]]
    ) -> list[StoredCharacter]:
        return await self._characters.save_healths(changes)

    async def save_stability(
        self, character: StoredCharacter, stability: CharacterStability | None
    ) -> StoredCharacter:
        (saved,) = await self._characters.save_stabilities([(character, stability)])
        return saved

    async def save_stabilities(
        self, changes: Iterable[tuple[StoredCharacter, CharacterStability | None]]
    ) -> list[StoredCharacter]:
        return await self._characters.save_stabilities(changes)

    async def set_gender(
        self, character: StoredCharacter, gender: Gender | None
    ) -> StoredCharacter:
        return await self._characters.set_gender(character, gender)

    async def set_numbers(self, character: StoredCharacter, numbers: Numbers) -> StoredCharacter:
        return await self._characters.set_numbers(character, numbers)

    async def set_ability(self, character: StoredCharacter, ability: Ability) -> StoredCharacter:
        return await self._characters.set_ability(character, ability)

    async def remove_ability(self, character: StoredCharacter, name: str) -> StoredCharacter:
        return await self._characters.remove_ability(character, name)

    async def save_abilities(
        self, character: StoredCharacter, abilities: Iterable[Ability]
    ) -> StoredCharacter:
        return await self._characters.save_abilities(character, abilities)

    async def rename_character(self, character: StoredCharacter, name: str) -> StoredCharacter:
        return await self._characters.rename(character, name)

    async def delete_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        return await self._characters.delete(guild_id, character_id)

    # --- history (``HistoryRecorder``) -------------------------------------------------------

    async def record(self, **entry: Unpack[NewEntry]) -> HistoryEntry | None:
        """Write the history entry of this transaction's change, once, after the writes.

        ``details``: the command's own (``bot.storage.details``). Returns None (and writes
        nothing) when no character's stored value changed. Raises ``AlreadyApplied`` when
        the interaction already has an entry (the transaction then rolls back),
        ``TypeError`` when ``details`` are not that command's details.
        """
        return await self._history.record(entry)

    async def undo_latest(
        self, guild_id: int, interaction_id: int, actor_id: int
    ) -> UndoResult | None:
        return await self._history.undo_latest(guild_id, interaction_id, actor_id)

    # --- beside the history (``SideWriter``; read with ``Reader``) ----------------------------

    roll_number = forwarded("_reads", Reader.roll_number)

    async def number_rolls(
        self,
        guild_id: int,
        due: Sequence[int],
        pending: Sequence[int],
        kind: RollKind = RollKind.CONSCIOUSNESS,
    ) -> dict[int, int]:
        return await self._side.number_rolls(guild_id, due, pending, kind, self.reply_to)

    async def renumber_rolls(
        self, guild_id: int, character_ids: Sequence[int], kind: RollKind = RollKind.CONSCIOUSNESS
    ) -> None:
        self._side.new_numbers(guild_id, character_ids, kind, after_record=True)

    has_roll_messages = forwarded("_reads", Reader.has_roll_messages)
    newest_roll_message = forwarded("_reads", Reader.newest_roll_message)
    stale_roll_messages = forwarded("_reads", Reader.stale_roll_messages)
    messages_to_sweep = forwarded("_reads", Reader.messages_to_sweep)
    unkept_replies = forwarded("_reads", Reader.unkept_replies)

    async def remember_roll_messages(self, messages: Iterable[RollMessage]) -> None:
        self._side.remember_roll_messages(messages)

    async def forget_roll_messages(self, messages: Iterable[RollMessage]) -> None:
        self._side.forget_roll_messages(messages)

    async def forget_unkept_reply(self, interaction_id: int) -> None:
        self._side.forget_unkept_reply(interaction_id)

    tracker = forwarded("_reads", Reader.tracker)

    async def set_tracker(self, tracker: TrackerMessage) -> TrackerMessage | None:
        return await self._side.set_tracker(tracker)

    async def forget_tracker(self, tracker: TrackerMessage) -> None:
        self._side.forget_tracker(tracker)

    lost_channels = forwarded("_reads", Reader.lost_channels)

    async def channel_lost(self, lost: LostChannel) -> bool:
        """The server's announcement channel is cleared and the loss kept for its GMs, unless
        the server's channel is another one by now (a GM set it meanwhile): returns whether."""
        settings = await self.get_settings(lost.guild_id)
        if settings.channel_id != lost.channel_id:
            return False
        await self.update_settings(lost.guild_id, channel_id=None)
        self._side.keep_lost_channel(lost)
        return True

    async def forget_lost_channel(self, guild_id: int) -> None:
        """The server's GMs were told, or set a channel again."""
        self._side.forget_lost_channel(guild_id)
