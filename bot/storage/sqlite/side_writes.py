"""``SideWriter``: the writes a transaction makes beside the history (roll numbers, the
messages carrying roll buttons, the replies not kept yet, trackers, lost channels;
``side_tables.py`` has their tables and reads), and those of the settings and meta (never
in the history either)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.storage.models import GuildSettings, LostChannel, RollKind, RollMessage, TrackerMessage
from bot.storage.roll_messages import MESSAGES_PER_CHARACTER
from bot.storage.sqlite.pipeline import Pipeline
from bot.storage.sqlite.reader import Reader
from bot.storage.sqlite.rows import settings_of_row
from bot.storage.sqlite.side_tables import NEXT_ROLL_NUMBER, ROLL_SQL, marks

__all__ = ["SideWriter"]


class SideWriter:
    """The writes the history does not hold, queued on the transaction's pipeline (sent with
    its next trip or its ``COMMIT``). ``writable`` refuses a write once the history entry is
    written (only roll numbers may follow it); ``open`` only that the block is running."""

    def __init__(self, pipe: Pipeline, reads: Reader, *, writable: Callable[[], None]) -> None:
        self._pipe = pipe
        self._reads = reads
        self._writable = writable

    async def write_settings(self, guild_id: int, given: dict[str, Any]) -> GuildSettings | None:
        """Set the guild's ``given`` settings (``None`` clears one), the others kept; returns
        them as stored (None when none was given: the row is only made sure of)."""
        self._reads.check_open()
        now = self._reads.now()
        if not given:
            self._pipe.queue(
                "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, now),
            )
            return None
        columns = ", ".join(given)
        assignments = ", ".join(f"{key} = excluded.{key}" for key in given)
        row = await self._reads.fetch_one(
            f"INSERT INTO guild_settings (guild_id, updated_at, {columns})"
            f" VALUES (?, ?, {marks(len(given))}) ON CONFLICT (guild_id) DO UPDATE SET"
            f" {assignments}, updated_at = excluded.updated_at"
            " RETURNING gm_role_id, channel_id, language",
            (guild_id, now, *given.values()),
        )
        return settings_of_row(guild_id, row)

    def set_meta(self, key: str, value: str) -> None:
        """A bot-wide value (not per guild), e.g. the hash of the last command sync."""
        self._reads.check_open()
        self._pipe.queue(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def number_rolls(
        self,
        guild_id: int,
        due: Sequence[int],
        pending: Sequence[int],
        kind: RollKind,
        reply_to: tuple[int, int] | None = None,
    ) -> dict[int, int]:
        """Give each character of ``due`` (a roll fell due in this change, a test was
        called) a new number, the next of the database's counter, and return the current
        number of every character of ``due`` and ``pending`` (one trip). ``reply_to``, the
        change's interaction and channel, is noted until its reply (with these rolls'
        buttons) is kept: a process stopped in between finds it at its next start."""
        wanted = sorted({*due, *pending})
        if not wanted:
            return {}
        if reply_to is not None:  # allowed after ``record``, as the numbers are
            self._reads.check_open()
            self._pipe.queue(
                "INSERT OR IGNORE INTO unkept_roll_replies"
                " (interaction_id, guild_id, channel_id, made_at) VALUES (?, ?, ?, ?)",
                (reply_to[0], guild_id, reply_to[1], self._reads.now()),
            )
        if due:
            self.new_numbers(guild_id, due, kind)
        return await self._reads.roll_numbers(guild_id, wanted, kind)

    def new_numbers(
        self,
        guild_id: int,
        character_ids: Sequence[int],
        kind: RollKind,
        *,
        after_record: bool = False,
    ) -> None:
        """Queue the next number of the counter for each character (after ``record`` too
        when ``after_record``: an undo that makes a roll due again numbers it anew, so that
        no button posted before answers it; roll numbers are not in the history)."""
        if after_record:
            self._reads.check_open()
        else:
            self._writable()
        take = (
            f"UPDATE characters SET {ROLL_SQL[kind].column} = (SELECT CAST(value AS INTEGER)"
            " FROM meta WHERE key = 'roll_seq') WHERE guild_id = ? AND id = ?"
        )
        for character_id in sorted(set(character_ids)):
            self._pipe.queue(NEXT_ROLL_NUMBER)
            self._pipe.queue(take, (guild_id, character_id))

    def remember_roll_messages(self, messages: Iterable[RollMessage]) -> None:
        """Keep these messages (the newest ``MESSAGES_PER_CHARACTER`` of each character's
        rolls of each kind)."""
        self._writable()
        rows = [
            (
                m.guild_id,
                m.character_id,
                m.kind.value,
                m.roll_seq,
                m.channel_id,
                m.message_id,
                m.components,
            )
            for m in messages
        ]
        self._pipe.queue_many(
            "INSERT OR REPLACE INTO roll_messages"
            " (guild_id, character_id, kind, roll_seq, channel_id, message_id, components)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        self._pipe.queue_many(
            "DELETE FROM roll_messages WHERE guild_id = ? AND character_id = ? AND kind = ?"
            " AND message_id NOT IN (SELECT message_id FROM roll_messages"
            " WHERE guild_id = ? AND character_id = ? AND kind = ?"
            " ORDER BY message_id DESC LIMIT ?)",
            [
                (g, c, k, g, c, k, MESSAGES_PER_CHARACTER)
                for g, c, k in sorted({(r[0], r[1], r[2]) for r in rows})
            ],
        )

    def forget_roll_messages(self, messages: Iterable[RollMessage]) -> None:
        """Forget these messages (edited, or no longer editable)."""
        self._writable()
        self._pipe.queue_many(
            "DELETE FROM roll_messages"
            " WHERE guild_id = ? AND character_id = ? AND message_id = ? AND kind = ?",
            [(m.guild_id, m.character_id, m.message_id, m.kind.value) for m in messages],
        )

    def forget_unkept_reply(self, interaction_id: int) -> None:
        """The reply of that interaction was kept (or will never be)."""
        self._writable()
        self._pipe.queue(
            "DELETE FROM unkept_roll_replies WHERE interaction_id = ?", (interaction_id,)
        )

    async def set_tracker(self, tracker: TrackerMessage) -> TrackerMessage | None:
        """Make ``tracker`` the server's; returns the one it replaces."""
        old = await self._reads.tracker(tracker.guild_id)
        self._writable()
        self._pipe.queue(
            "INSERT INTO trackers (guild_id, channel_id, message_id, created_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " created_at = excluded.created_at",
            (tracker.guild_id, tracker.channel_id, tracker.message_id, self._reads.now()),
        )
        return old

    def forget_tracker(self, tracker: TrackerMessage) -> None:
        self._writable()
        self._pipe.queue(
            "DELETE FROM trackers WHERE guild_id = ? AND message_id = ?",
            (tracker.guild_id, tracker.message_id),
        )

    def keep_lost_channel(self, lost: LostChannel) -> None:
        self._writable()
        self._pipe.queue(
            "INSERT INTO announcement_channel_lost (guild_id, channel_id, status, lost_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, status = excluded.status,"
            " lost_at = excluded.lost_at",
            (lost.guild_id, lost.channel_id, lost.status, self._reads.now()),
        )

    def forget_lost_channel(self, guild_id: int) -> None:
        self._writable()
        self._pipe.queue("DELETE FROM announcement_channel_lost WHERE guild_id = ?", (guild_id,))
