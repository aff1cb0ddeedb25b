"""Storage of the live trackers (migration 0005): one message per server."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.sqlite.reader import Reader
from bot.storage.sqlite.transaction import Transaction

__all__ = ["TrackerMessage", "forget_tracker", "get_tracker", "set_tracker"]


@dataclass(frozen=True)
class TrackerMessage:
    """Where a server's live tracker is."""

    guild_id: int
    channel_id: int
    message_id: int


async def get_tracker(reader: Reader | Transaction, guild_id: int) -> TrackerMessage | None:
    row = await reader.fetch_one(
        "SELECT channel_id, message_id FROM trackers WHERE guild_id = ?", (guild_id,)
    )
    if row is None:
        return None
    return TrackerMessage(guild_id, int(row["channel_id"]), int(row["message_id"]))


async def set_tracker(tx: Transaction, tracker: TrackerMessage) -> TrackerMessage | None:
    """Make ``tracker`` the server's; returns the one it replaces."""
    old = await get_tracker(tx, tracker.guild_id)
    tx.queue(
        "INSERT INTO trackers (guild_id, channel_id, message_id, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,"
        " message_id = excluded.message_id, created_at = excluded.created_at",
        (tracker.guild_id, tracker.channel_id, tracker.message_id, tx.now()),
    )
    return old


async def forget_tracker(tx: Transaction, tracker: TrackerMessage) -> None:
    """Stop that tracker for good (only if it is still the server's)."""
    tx.queue(
        "DELETE FROM trackers WHERE guild_id = ? AND message_id = ?",
        (tracker.guild_id, tracker.message_id),
    )
