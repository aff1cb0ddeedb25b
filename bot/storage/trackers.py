"""Each server's live tracker message, for every engine: functions over the storage
interface (each engine stores it its own way: ``bot/storage/sqlite/side_tables.py``)."""

from __future__ import annotations

from bot.storage.interface import StorageChange, StorageReads
from bot.storage.models import TrackerMessage

__all__ = ["TrackerMessage", "forget_tracker", "get_tracker", "set_tracker"]


async def get_tracker(reader: StorageReads, guild_id: int) -> TrackerMessage | None:
    return await reader.tracker(guild_id)


async def set_tracker(tx: StorageChange, tracker: TrackerMessage) -> TrackerMessage | None:
    """Make ``tracker`` the server's; returns the one it replaces."""
    return await tx.set_tracker(tracker)


async def forget_tracker(tx: StorageChange, tracker: TrackerMessage) -> None:
    """Stop that tracker for good (only if it is still the server's)."""
    await tx.forget_tracker(tracker)
