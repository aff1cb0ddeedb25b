"""What SQLite keeps beside the history (never in its snapshots): the roll numbers and the
messages carrying roll buttons of every kind (migrations 0004, 0010, in one table since
0012, with the components the bot sent since 0015), the replies with roll buttons not kept
yet (0015), each server's live tracker (0005), the announcement channels the bot lost (0007).

The read-only statements are the ``Reader``'s (``roll_number``, ``stale_roll_messages`` …);
the writes are ``SideWriter``'s (``side_writes.py``), a part of the ``Transaction``."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.storage.models import LostChannel, RollKind, RollMessage, TrackerMessage, UnkeptReply

__all__ = [
    "HAS_ROLL_MESSAGES",
    "NEXT_ROLL_NUMBER",
    "ROLL_SQL",
    "SELECT_LOST_CHANNELS",
    "SELECT_TRACKER",
    "STALE",
    "RollSql",
    "SideReads",
    "marks",
    "messages_to_sweep_sql",
    "stale_roll_messages_sql",
]


@dataclass(frozen=True)
class RollSql:
    """A ``RollKind`` said to SQLite: the column of ``characters`` that numbers its rolls,
    and when its roll is still to make (of the character ``c``). Its messages are the rows
    of ``roll_messages`` whose ``kind`` is the kind's value."""

    column: str
    due: str


ROLL_SQL: Final[Mapping[RollKind, RollSql]] = {
    RollKind.CONSCIOUSNESS: RollSql("roll_seq", "c.roll_pending != 0"),
    RollKind.STABILITY_TEST: RollSql("stability_seq", "c.due_loss IS NOT NULL"),
}

#: Whether the message ``m`` holds a roll no longer to make: made, healed or cleared,
#: replaced by a later one (another number), or the character deleted.
STALE = (
    "(c.id IS NULL OR CASE m.kind "
    + " ".join(
        f"WHEN '{kind.value}' THEN NOT ({sql.due}) OR c.{sql.column} != m.roll_seq"
        for kind, sql in ROLL_SQL.items()
    )
    + " ELSE 1 END)"
)

SELECT_TRACKER = "SELECT channel_id, message_id FROM trackers WHERE guild_id = ?"
SELECT_LOST_CHANNELS = (
    "SELECT guild_id, channel_id, status FROM announcement_channel_lost ORDER BY guild_id"
)

FetchOne = Callable[[str, Sequence[Any]], Awaitable[sqlite3.Row | None]]
FetchAll = Callable[[str, Sequence[Any]], Awaitable[list[sqlite3.Row]]]

#: Roll numbers come from one counter for the whole database (``meta``), so that a number
#: is never given twice, not even to a character deleted and brought back by an undo.
NEXT_ROLL_NUMBER = (
    "INSERT INTO meta (key, value) VALUES ('roll_seq', '1') ON CONFLICT (key)"
    " DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)"
)


def marks(count: int) -> str:
    return ", ".join("?" * count)


HAS_ROLL_MESSAGES = "SELECT EXISTS (SELECT 1 FROM roll_messages WHERE guild_id = ?) AS kept"


def stale_roll_messages_sql(count: int) -> str:
    """The query of the stale messages of ``count`` characters (the guild's id, then theirs)."""
    return (
        "SELECT m.kind, m.guild_id, m.character_id, m.roll_seq, m.channel_id, m.message_id"
        " FROM roll_messages AS m LEFT JOIN characters AS c"
        " ON c.id = m.character_id AND c.guild_id = m.guild_id"
        f" WHERE m.guild_id = ? AND m.character_id IN ({marks(count)}) AND {STALE}"
        " ORDER BY m.message_id"
    )


def messages_to_sweep_sql(count: int) -> str:
    """Every kept row of the messages holding a stale roll of ``count`` characters, each
    with whether it is stale (the guild's id, theirs, the guild's id again)."""
    joined = (
        "FROM roll_messages AS m LEFT JOIN characters AS c"
        " ON c.id = m.character_id AND c.guild_id = m.guild_id"
    )
    return (
        f"WITH touched AS (SELECT m.message_id {joined} WHERE m.guild_id = ?"
        f" AND m.character_id IN ({marks(count)}) AND {STALE})"
        " SELECT m.kind, m.guild_id, m.character_id, m.roll_seq, m.channel_id, m.message_id,"
        f" m.components, {STALE} AS stale {joined}"
        " WHERE m.guild_id = ? AND m.message_id IN touched ORDER BY m.message_id"
    )


SELECT_UNKEPT_REPLIES = (
    "SELECT interaction_id, guild_id, channel_id FROM unkept_roll_replies ORDER BY interaction_id"
)


def _roll_message(row: sqlite3.Row, *, components: bool = False) -> RollMessage:
    return RollMessage(
        int(row["guild_id"]),
        int(row["character_id"]),
        int(row["roll_seq"]),
        int(row["channel_id"]),
        int(row["message_id"]),
        RollKind(str(row["kind"])),
        None if not components or row["components"] is None else str(row["components"]),
    )


class SideReads:
    """The read-only statements of these tables, each sent where the ``Reader`` sends its
    own (a trip of its own, or a transaction's pipeline)."""

    def __init__(self, fetch_one: FetchOne, fetch_all: FetchAll) -> None:
        self._fetch_one = fetch_one
        self._fetch_all = fetch_all

    async def roll_number(
        self, guild_id: int, character_id: int, kind: RollKind = RollKind.CONSCIOUSNESS
    ) -> int | None:
        """The character's current roll number (None when it is not in this guild)."""
        row = await self._fetch_one(
            f"SELECT {ROLL_SQL[kind].column} AS seq FROM characters WHERE guild_id = ? AND id = ?",
            (guild_id, character_id),
        )
        return None if row is None else int(row["seq"])

    async def roll_numbers(
        self, guild_id: int, character_ids: Sequence[int], kind: RollKind
    ) -> dict[int, int]:
        """The current roll numbers of these characters of the guild, by id (one query)."""
        rows = await self._fetch_all(
            f"SELECT id, {ROLL_SQL[kind].column} AS seq FROM characters"
            f" WHERE guild_id = ? AND id IN ({marks(len(character_ids))})",
            (guild_id, *character_ids),
        )
        return {int(row["id"]): int(row["seq"]) for row in rows}

    async def has_roll_messages(self, guild_id: int) -> bool:
        """Whether the guild keeps any roll-button message, of any kind (most keep none most
        of the time); one query."""
        row = await self._fetch_one(HAS_ROLL_MESSAGES, (guild_id,))
        return row is not None and bool(row["kept"])

    async def newest_roll_message(
        self, guild_id: int, character_id: int, kind: RollKind, roll_seq: int
    ) -> RollMessage | None:
        """The newest kept message carrying the buttons of that roll (a late press of an
        older one's button is told where it is)."""
        row = await self._fetch_one(
            "SELECT channel_id, message_id FROM roll_messages WHERE guild_id = ?"
            " AND character_id = ? AND kind = ? AND roll_seq = ? ORDER BY message_id DESC LIMIT 1",
            (guild_id, character_id, kind.value, roll_seq),
        )
        if row is None:
            return None
        return RollMessage(
            guild_id, character_id, roll_seq, int(row["channel_id"]), int(row["message_id"]), kind
        )

    async def stale_roll_messages(
        self, guild_id: int, character_ids: Sequence[int]
    ) -> list[RollMessage]:
        """The kept messages of these characters whose roll (of any kind) is no longer to
        make: made, healed or cleared, replaced by a later one, or the character deleted; one
        query."""
        if not character_ids:
            return []
        rows = await self._fetch_all(
            stale_roll_messages_sql(len(character_ids)), (guild_id, *character_ids)
        )
        return [_roll_message(row) for row in rows]

    async def messages_to_sweep(
        self, guild_id: int, character_ids: Sequence[int]
    ) -> list[tuple[RollMessage, bool]]:
        """Every kept row of the messages that hold a stale roll of these characters, each
        with whether it is stale, and what the bot sent with it: a message is edited once,
        its live buttons left as they are; one query."""
        if not character_ids:
            return []
        rows = await self._fetch_all(
            messages_to_sweep_sql(len(character_ids)), (guild_id, *character_ids, guild_id)
        )
        return [(_roll_message(row, components=True), bool(row["stale"])) for row in rows]

    async def unkept_replies(self) -> list[UnkeptReply]:
        """Every change whose reply with roll buttons was not kept (read at start-up)."""
        rows = await self._fetch_all(SELECT_UNKEPT_REPLIES, ())
        return [
            UnkeptReply(int(row["interaction_id"]), int(row["guild_id"]), int(row["channel_id"]))
            for row in rows
        ]

    async def tracker(self, guild_id: int) -> TrackerMessage | None:
        row = await self._fetch_one(SELECT_TRACKER, (guild_id,))
        if row is None:
            return None
        return TrackerMessage(guild_id, int(row["channel_id"]), int(row["message_id"]))

    async def lost_channels(self) -> list[LostChannel]:
        """Every lost channel whose server's GMs were not told yet."""
        rows = await self._fetch_all(SELECT_LOST_CHANNELS, ())
        return [
            LostChannel(int(row["guild_id"]), int(row["channel_id"]), int(row["status"]))
            for row in rows
        ]
