"""Storage of the roll numbers and of the messages that carry roll buttons (migration 0004).

Functions over a ``Reader`` or ``Transaction`` rather than methods of theirs, so that those
keep one job; they use their public statement helpers (``fetch_one``, ``queue``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.storage.reader import Reader
from bot.storage.transaction import Transaction

__all__ = [
    "MESSAGES_PER_CHARACTER",
    "RollMessage",
    "forget_roll_messages",
    "has_roll_messages",
    "number_rolls",
    "remember_roll_messages",
    "renumber_rolls",
    "roll_number",
    "stale_roll_messages",
]

#: The newest messages kept per character: older ones keep their (refused) buttons.
MESSAGES_PER_CHARACTER = 5


@dataclass(frozen=True)
class RollMessage:
    """A public message carrying the buttons of one character's roll number ``roll_seq``."""

    guild_id: int
    character_id: int
    roll_seq: int
    channel_id: int
    message_id: int


def _marks(count: int) -> str:
    return ", ".join("?" * count)


#: Roll numbers come from one counter for the whole database (``meta``), so that a number
#: is never given twice, not even to a character deleted and brought back by an undo.
_NEXT_NUMBER = (
    "INSERT INTO meta (key, value) VALUES ('roll_seq', '1') ON CONFLICT (key)"
    " DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)"
)
_TAKE_NUMBER = (
    "UPDATE characters SET roll_seq = (SELECT CAST(value AS INTEGER) FROM meta"
    " WHERE key = 'roll_seq') WHERE guild_id = ? AND id = ?"
)


def _queue_new_numbers(
    tx: Transaction, guild_id: int, character_ids: Sequence[int], *, after_record: bool = False
) -> None:
    for character_id in sorted(set(character_ids)):
        tx.queue(_NEXT_NUMBER, after_record=after_record)
        tx.queue(_TAKE_NUMBER, (guild_id, character_id), after_record=after_record)


async def number_rolls(
    tx: Transaction, guild_id: int, due: Sequence[int], pending: Sequence[int]
) -> dict[int, int]:
    """Give each character of ``due`` (a roll fell due in this change) a new roll number, the
    next of the database's counter, and return the current number of every character of
    ``due`` and ``pending`` (one trip)."""
    wanted = sorted({*due, *pending})
    if not wanted:
        return {}
    if due:
        _queue_new_numbers(tx, guild_id, due)
    rows = await tx.fetch_all(
        f"SELECT id, roll_seq FROM characters WHERE guild_id = ? AND id IN ({_marks(len(wanted))})",
        (guild_id, *wanted),
    )
    return {int(row["id"]): int(row["roll_seq"]) for row in rows}


async def renumber_rolls(tx: Transaction, guild_id: int, character_ids: Sequence[int]) -> None:
    """New numbers for rolls that an undo made pending again: no button posted before
    answers them (a later roll's button would otherwise roll the earlier one). Allowed after
    ``record``: roll numbers are not in the history."""
    if character_ids:
        _queue_new_numbers(tx, guild_id, character_ids, after_record=True)


async def roll_number(reader: Reader | Transaction, guild_id: int, character_id: int) -> int | None:
    """The character's current roll number (None when it is not in this guild)."""
    row = await reader.fetch_one(
        "SELECT roll_seq FROM characters WHERE guild_id = ? AND id = ?", (guild_id, character_id)
    )
    return None if row is None else int(row["roll_seq"])


async def remember_roll_messages(tx: Transaction, messages: Iterable[RollMessage]) -> None:
    """Keep these messages (the newest ``MESSAGES_PER_CHARACTER`` of each character)."""
    rows = [(m.guild_id, m.character_id, m.roll_seq, m.channel_id, m.message_id) for m in messages]
    if not rows:
        return
    tx.queue_many(
        "INSERT OR REPLACE INTO roll_messages"
        " (guild_id, character_id, roll_seq, channel_id, message_id) VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    tx.queue_many(
        "DELETE FROM roll_messages WHERE guild_id = ? AND character_id = ? AND message_id NOT IN"
        " (SELECT message_id FROM roll_messages WHERE guild_id = ? AND character_id = ?"
        " ORDER BY message_id DESC LIMIT ?)",
        [(g, c, g, c, MESSAGES_PER_CHARACTER) for g, c in {(r[0], r[1]) for r in rows}],
    )


async def has_roll_messages(reader: Reader | Transaction, guild_id: int) -> bool:
    """Whether the guild keeps any roll-button message (most keep none most of the time)."""
    row = await reader.fetch_one(
        "SELECT 1 FROM roll_messages WHERE guild_id = ? LIMIT 1", (guild_id,)
    )
    return row is not None


async def stale_roll_messages(
    reader: Reader | Transaction, guild_id: int, character_ids: Sequence[int]
) -> list[RollMessage]:
    """The kept messages of these characters whose roll is no longer pending: made, healed,
    knocked out, replaced by a later roll, or the character deleted."""
    if not character_ids:
        return []
    rows = await reader.fetch_all(
        "SELECT m.guild_id, m.character_id, m.roll_seq, m.channel_id, m.message_id"
        " FROM roll_messages AS m LEFT JOIN characters AS c"
        " ON c.id = m.character_id AND c.guild_id = m.guild_id"
        f" WHERE m.guild_id = ? AND m.character_id IN ({_marks(len(character_ids))})"
        " AND (c.id IS NULL OR c.roll_pending = 0 OR c.roll_seq != m.roll_seq)"
        " ORDER BY m.message_id",
        (guild_id, *character_ids),
    )
    return [
        RollMessage(
            int(row["guild_id"]),
            int(row["character_id"]),
            int(row["roll_seq"]),
            int(row["channel_id"]),
            int(row["message_id"]),
        )
        for row in rows
    ]


async def forget_roll_messages(tx: Transaction, messages: Iterable[RollMessage]) -> None:
    """Forget these messages (edited, or no longer editable)."""
    rows = [(m.guild_id, m.character_id, m.message_id) for m in messages]
    if rows:
        tx.queue_many(
            "DELETE FROM roll_messages WHERE guild_id = ? AND character_id = ? AND message_id = ?",
            rows,
        )
