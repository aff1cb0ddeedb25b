"""Storage of the roll numbers and of the messages that carry roll buttons: the
Consciousness roll's (migration 0004) and the Stability test's (0010), each kind with its
number column and its table of messages, one shape for both (``RollKind``). Each message
keeps the components the bot sent with it (0012), so that disabling its old buttons needs
no read of it; and a change that numbers rolls notes its interaction until its reply is kept
(``unkept_roll_replies``), so that a process killed in between finds that reply at its next
start.

Functions over a ``Reader`` or ``Transaction`` rather than methods of theirs, so that those
keep one job; they use their public statement helpers (``fetch_one``, ``queue``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.storage.models import StoredCharacter
from bot.storage.reader import Reader
from bot.storage.transaction import Transaction
from rules.outcome import Outcome

__all__ = [
    "MESSAGES_PER_CHARACTER",
    "RollKind",
    "RollMessage",
    "UnkeptReply",
    "forget_roll_messages",
    "forget_unkept_reply",
    "has_roll_messages",
    "messages_to_sweep",
    "number_due_rolls",
    "number_rolls",
    "remember_roll_messages",
    "renumber_rolls",
    "roll_number",
    "stale_roll_messages",
    "unkept_replies",
]

#: The newest messages kept per character: older ones keep their (refused) buttons.
MESSAGES_PER_CHARACTER = 5


class RollKind(Enum):
    """What a character's buttons roll: its Consciousness roll (C) or its Stability test (M5).

    Each kind numbers its rolls in a column of ``characters`` and keeps its messages in a
    table of its own; a roll is still to make while ``due`` holds of the character ``c``."""

    CONSCIOUSNESS = ("roll_seq", "roll_messages", "c.roll_pending != 0")
    STABILITY_TEST = ("stability_seq", "stability_messages", "c.due_loss IS NOT NULL")

    def __init__(self, column: str, table: str, due: str) -> None:
        self.column = column
        self.table = table
        self.due = due


@dataclass(frozen=True)
class RollMessage:
    """A public message carrying the buttons of one character's roll number ``roll_seq``
    (of ``kind``)."""

    guild_id: int
    character_id: int
    roll_seq: int
    channel_id: int
    message_id: int
    kind: RollKind = RollKind.CONSCIOUSNESS
    #: The message's components as the bot sent them (JSON), when known.
    components: str | None = None


@dataclass(frozen=True)
class UnkeptReply:
    """A change that numbered rolls, whose reply's message was not kept (yet)."""

    interaction_id: int
    guild_id: int
    channel_id: int


def _marks(count: int) -> str:
    return ", ".join("?" * count)


#: Roll numbers come from one counter for the whole database (``meta``), so that a number
#: is never given twice, not even to a character deleted and brought back by an undo.
_NEXT_NUMBER = (
    "INSERT INTO meta (key, value) VALUES ('roll_seq', '1') ON CONFLICT (key)"
    " DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)"
)


def _queue_new_numbers(
    tx: Transaction,
    guild_id: int,
    character_ids: Sequence[int],
    kind: RollKind,
    *,
    after_record: bool = False,
) -> None:
    take = (
        f"UPDATE characters SET {kind.column} = (SELECT CAST(value AS INTEGER) FROM meta"
        " WHERE key = 'roll_seq') WHERE guild_id = ? AND id = ?"
    )
    for character_id in sorted(set(character_ids)):
        tx.queue(_NEXT_NUMBER, after_record=after_record)
        tx.queue(take, (guild_id, character_id), after_record=after_record)


async def number_rolls(
    tx: Transaction,
    guild_id: int,
    due: Sequence[int],
    pending: Sequence[int],
    *,
    kind: RollKind = RollKind.CONSCIOUSNESS,
) -> dict[int, int]:
    """Give each character of ``due`` (a roll fell due in this change, a test was called)
    a new number, the next of the database's counter, and return the current number of
    every character of ``due`` and ``pending`` (one trip)."""
    wanted = sorted({*due, *pending})
    if not wanted:
        return {}
    _note_reply(tx, guild_id)
    if due:
        _queue_new_numbers(tx, guild_id, due, kind)
    rows = await tx.fetch_all(
        f"SELECT id, {kind.column} AS seq FROM characters"
        f" WHERE guild_id = ? AND id IN ({_marks(len(wanted))})",
        (guild_id, *wanted),
    )
    return {int(row["id"]): int(row["seq"]) for row in rows}


async def number_due_rolls(
    tx: Transaction,
    guild_id: int,
    changes: Iterable[tuple[StoredCharacter | None, Outcome | None]],
) -> dict[int, int]:
    """Inside the change's transaction, beside its writes: a new number for each
    Consciousness roll that fell due, and the current number of every character left with
    one pending (for its buttons). One trip, none when no roll is due or pending."""
    due: list[int] = []
    pending: list[int] = []
    for character, outcome in changes:
        if character is None:
            continue
        if outcome is not None and outcome.roll_fell_due:
            due.append(character.id)
        if character.health.roll_pending and not character.health.is_dead:
            pending.append(character.id)
    return await number_rolls(tx, guild_id, due, pending)


async def renumber_rolls(
    tx: Transaction,
    guild_id: int,
    character_ids: Sequence[int],
    *,
    kind: RollKind = RollKind.CONSCIOUSNESS,
) -> None:
    """New numbers for rolls that an undo made pending again: no button posted before
    answers them (a later roll's button would otherwise roll the earlier one). Allowed after
    ``record``: roll numbers are not in the history."""
    if character_ids:
        _queue_new_numbers(tx, guild_id, character_ids, kind, after_record=True)


def _note_reply(tx: Transaction, guild_id: int) -> None:
    """Note the change's interaction (``Transaction.reply_to``) until its reply is kept."""
    if tx.reply_to is None:
        return
    interaction_id, channel_id = tx.reply_to
    tx.queue(
        "INSERT OR IGNORE INTO unkept_roll_replies (interaction_id, guild_id, channel_id, made_at)"
        " VALUES (?, ?, ?, ?)",
        (interaction_id, guild_id, channel_id, tx.now()),
    )


async def forget_unkept_reply(tx: Transaction, interaction_id: int) -> None:
    """The reply of that interaction was kept (or will never be)."""
    tx.queue("DELETE FROM unkept_roll_replies WHERE interaction_id = ?", (interaction_id,))


async def unkept_replies(reader: Reader | Transaction) -> list[UnkeptReply]:
    """Every change whose reply with roll buttons was not kept: those of a process that
    stopped between the change and the keeping (read at start-up)."""
    rows = await reader.fetch_all(
        "SELECT interaction_id, guild_id, channel_id FROM unkept_roll_replies"
        " ORDER BY interaction_id"
    )
    return [
        UnkeptReply(int(row["interaction_id"]), int(row["guild_id"]), int(row["channel_id"]))
        for row in rows
    ]


async def roll_number(
    reader: Reader | Transaction,
    guild_id: int,
    character_id: int,
    *,
    kind: RollKind = RollKind.CONSCIOUSNESS,
) -> int | None:
    """The character's current roll number (None when it is not in this guild)."""
    row = await reader.fetch_one(
        f"SELECT {kind.column} AS seq FROM characters WHERE guild_id = ? AND id = ?",
        (guild_id, character_id),
    )
    return None if row is None else int(row["seq"])


def _by_kind(messages: Iterable[RollMessage]) -> dict[RollKind, list[RollMessage]]:
    grouped: dict[RollKind, list[RollMessage]] = {}
    for message in messages:
        grouped.setdefault(message.kind, []).append(message)
    return grouped


async def remember_roll_messages(tx: Transaction, messages: Iterable[RollMessage]) -> None:
    """Keep these messages (the newest ``MESSAGES_PER_CHARACTER`` of each character)."""
    for kind, kept in _by_kind(messages).items():
        rows = [
            (m.guild_id, m.character_id, m.roll_seq, m.channel_id, m.message_id, m.components)
            for m in kept
        ]
        tx.queue_many(
            f"INSERT OR REPLACE INTO {kind.table}"
            " (guild_id, character_id, roll_seq, channel_id, message_id, components)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
        tx.queue_many(
            f"DELETE FROM {kind.table} WHERE guild_id = ? AND character_id = ?"
            f" AND message_id NOT IN (SELECT message_id FROM {kind.table}"
            " WHERE guild_id = ? AND character_id = ? ORDER BY message_id DESC LIMIT ?)",
            [(g, c, g, c, MESSAGES_PER_CHARACTER) for g, c in {(r[0], r[1]) for r in rows}],
        )


async def has_roll_messages(reader: Reader | Transaction, guild_id: int) -> bool:
    """Whether the guild keeps any roll-button message, of any kind (most keep none most of
    the time); one query."""
    exists = " OR ".join(
        f"EXISTS (SELECT 1 FROM {kind.table} WHERE guild_id = ?)" for kind in RollKind
    )
    row = await reader.fetch_one(f"SELECT {exists} AS kept", (guild_id,) * len(RollKind))
    return row is not None and bool(row["kept"])


async def stale_roll_messages(
    reader: Reader | Transaction, guild_id: int, character_ids: Sequence[int]
) -> list[RollMessage]:
    """The kept messages of these characters whose roll (of any kind) is no longer to make:
    made, healed or cleared, replaced by a later one, or the character deleted; one query."""
    if not character_ids:
        return []
    marks = _marks(len(character_ids))
    selects = [
        f"SELECT '{kind.name}' AS kind, m.guild_id, m.character_id, m.roll_seq, m.channel_id,"
        f" m.message_id FROM {kind.table} AS m LEFT JOIN characters AS c"
        " ON c.id = m.character_id AND c.guild_id = m.guild_id"
        f" WHERE m.guild_id = ? AND m.character_id IN ({marks})"
        f" AND (c.id IS NULL OR NOT ({kind.due}) OR c.{kind.column} != m.roll_seq)"
        for kind in RollKind
    ]
    rows = await reader.fetch_all(
        " UNION ALL ".join(selects) + " ORDER BY message_id",
        (guild_id, *character_ids) * len(RollKind),
    )
    return [
        RollMessage(
            int(row["guild_id"]),
            int(row["character_id"]),
            int(row["roll_seq"]),
            int(row["channel_id"]),
            int(row["message_id"]),
            RollKind[str(row["kind"])],
        )
        for row in rows
    ]


async def messages_to_sweep(
    reader: Reader | Transaction, guild_id: int, character_ids: Sequence[int]
) -> list[tuple[RollMessage, bool]]:
    """Every kept row of the messages that hold a stale roll (as ``stale_roll_messages``)
    of these characters, each with whether it is stale: a message is edited once, its live
    buttons left as they are; one query."""
    if not character_ids:
        return []
    marks = _marks(len(character_ids))

    def stale(kind: RollKind) -> str:
        return f"(c.id IS NULL OR NOT ({kind.due}) OR c.{kind.column} != m.roll_seq)"

    def joined(kind: RollKind) -> str:
        return (
            f"FROM {kind.table} AS m LEFT JOIN characters AS c"
            " ON c.id = m.character_id AND c.guild_id = m.guild_id"
        )

    touched = " UNION ".join(
        f"SELECT m.message_id {joined(kind)} WHERE m.guild_id = ?"
        f" AND m.character_id IN ({marks}) AND {stale(kind)}"
        for kind in RollKind
    )
    selects = [
        f"SELECT '{kind.name}' AS kind, m.guild_id, m.character_id, m.roll_seq, m.channel_id,"
        f" m.message_id, m.components, {stale(kind)} AS stale {joined(kind)}"
        " WHERE m.guild_id = ? AND m.message_id IN touched"
        for kind in RollKind
    ]
    rows = await reader.fetch_all(
        f"WITH touched AS ({touched}) " + " UNION ALL ".join(selects) + " ORDER BY message_id",
        (*((guild_id, *character_ids) * len(RollKind)), *((guild_id,) * len(RollKind))),
    )
    return [
        (
            RollMessage(
                int(row["guild_id"]),
                int(row["character_id"]),
                int(row["roll_seq"]),
                int(row["channel_id"]),
                int(row["message_id"]),
                RollKind[str(row["kind"])],
                None if row["components"] is None else str(row["components"]),
            ),
            bool(row["stale"]),
        )
        for row in rows
    ]


async def forget_roll_messages(tx: Transaction, messages: Iterable[RollMessage]) -> None:
    """Forget these messages (edited, or no longer editable)."""
    for kind, gone in _by_kind(messages).items():
        tx.queue_many(
            f"DELETE FROM {kind.table} WHERE guild_id = ? AND character_id = ? AND message_id = ?",
            [(m.guild_id, m.character_id, m.message_id) for m in gone],
        )
