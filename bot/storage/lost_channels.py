"""The announcement channels the bot lost, for every engine: one per server whose GMs have
not been told yet that the bot stopped posting there. Functions over the storage interface,
like ``trackers.py``."""

from __future__ import annotations

from bot.storage.interface import StorageChange, StorageReads
from bot.storage.models import LostChannel

__all__ = ["LostChannel", "channel_lost", "forget_lost_channel", "lost_channels"]


async def lost_channels(reader: StorageReads) -> list[LostChannel]:
    """Every lost channel whose server's GMs were not told yet."""
    return await reader.lost_channels()


async def channel_lost(tx: StorageChange, lost: LostChannel) -> bool:
    """The server's announcement channel is cleared and the loss kept for its GMs, unless
    the server's channel is another one by now (a GM set it meanwhile): returns whether."""
    return await tx.channel_lost(lost)


async def forget_lost_channel(tx: StorageChange, guild_id: int) -> None:
    """The server's GMs were told, or set a channel again."""
    await tx.forget_lost_channel(guild_id)
