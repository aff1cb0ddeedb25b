"""The roll numbers and the messages that carry roll buttons, for every engine: the
Consciousness roll's and the Stability test's (``RollKind``), kept in one table of messages.
Each message keeps the components the bot sent with it, so that disabling its old buttons
needs no read of it; and a change that numbers rolls notes its interaction until its reply
is kept (``unkept_replies``), so that a process killed in between finds that reply at its
next start (issue 24.10, 24.16a).

Functions over the storage interface (``StorageReads`` / ``StorageChange``): each engine
stores them its own way (``bot/storage/sqlite/side_tables.py``); what is decided here, which
characters' rolls a change numbers, is the same for all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.storage.interface import StorageChange, StorageReads
from bot.storage.models import RollKind, RollMessage, StoredCharacter, UnkeptReply
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


async def number_rolls(
    tx: StorageChange,
    guild_id: int,
    due: Sequence[int],
    pending: Sequence[int],
    *,
    kind: RollKind = RollKind.CONSCIOUSNESS,
) -> dict[int, int]:
    """Give each character of ``due`` (a roll fell due in this change, a test was called)
    a new number, the next of the database's counter, and return the current number of
    every character of ``due`` and ``pending`` (one trip)."""
    return await tx.number_rolls(guild_id, due, pending, kind)


async def number_due_rolls(
    tx: StorageChange,
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
    return await tx.number_rolls(guild_id, due, pending)


async def renumber_rolls(
    tx: StorageChange,
    guild_id: int,
    character_ids: Sequence[int],
    *,
    kind: RollKind = RollKind.CONSCIOUSNESS,
) -> dict[int, int]:
    """New numbers for rolls that an undo made pending again: no button posted before
    answers them (a later roll's button would otherwise roll the earlier one); returned by
    character, for the fresh buttons of the undo's reply (one trip, only when there are
    any). Allowed after ``record``: roll numbers are not in the history."""
    if not character_ids:
        return {}
    await tx.renumber_rolls(guild_id, character_ids, kind)
    return await tx.number_rolls(guild_id, [], character_ids, kind)


async def roll_number(
    reader: StorageReads,
    guild_id: int,
    character_id: int,
    *,
    kind: RollKind = RollKind.CONSCIOUSNESS,
) -> int | None:
    """The character's current roll number (None when it is not in this guild)."""
    return await reader.roll_number(guild_id, character_id, kind)


async def remember_roll_messages(tx: StorageChange, messages: Iterable[RollMessage]) -> None:
    """Keep these messages (the newest ``MESSAGES_PER_CHARACTER`` of each character)."""
    await tx.remember_roll_messages(messages)


async def has_roll_messages(reader: StorageReads, guild_id: int) -> bool:
    """Whether the guild keeps any roll-button message, of any kind (most keep none most of
    the time); one query."""
    return await reader.has_roll_messages(guild_id)


async def stale_roll_messages(
    reader: StorageReads, guild_id: int, character_ids: Sequence[int]
) -> list[RollMessage]:
    """The kept messages of these characters whose roll (of any kind) is no longer to make:
    made, healed or cleared, replaced by a later one, or the character deleted; one query."""
    return await reader.stale_roll_messages(guild_id, character_ids)


async def forget_roll_messages(tx: StorageChange, messages: Iterable[RollMessage]) -> None:
    """Forget these messages (edited, or no longer editable)."""
    await tx.forget_roll_messages(messages)


async def messages_to_sweep(
    reader: StorageReads, guild_id: int, character_ids: Sequence[int]
) -> list[tuple[RollMessage, bool]]:
    """Every kept row of the messages that hold a stale roll (as ``stale_roll_messages``)
    of these characters, each with whether it is stale: a message is edited once, its live
    buttons left as they are; one query."""
    return await reader.messages_to_sweep(guild_id, character_ids)


async def unkept_replies(reader: StorageReads) -> list[UnkeptReply]:
    """Every change whose reply with roll buttons was not kept: those of a process that
    stopped between the change and the keeping (read at start-up)."""
    return await reader.unkept_replies()


async def forget_unkept_reply(tx: StorageChange, interaction_id: int) -> None:
    """The reply of that interaction was kept (or will never be)."""
    await tx.forget_unkept_reply(interaction_id)
