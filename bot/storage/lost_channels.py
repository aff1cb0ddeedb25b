"""Storage of the announcement channels the bot lost (migration 0007): one row per server
whose GMs have not been told yet that the bot stopped posting there.

Functions over a ``Reader`` or ``Transaction``, like ``trackers.py``."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.sqlite.reader import Reader
from bot.storage.sqlite.transaction import Transaction

__all__ = ["LostChannel", "channel_lost", "forget_lost_channel", "lost_channels"]


@dataclass(frozen=True)
class LostChannel:
    """A server's announcement channel where Discord refused the bot's posts (``status``
    403: no permission; 404: the channel is gone)."""

    guild_id: int
    channel_id: int
    status: int


async def lost_channels(reader: Reader) -> list[LostChannel]:
    """Every lost channel whose server's GMs were not told yet."""
    rows = await reader.fetch_all(
        "SELECT guild_id, channel_id, status FROM announcement_channel_lost ORDER BY guild_id"
    )
    return [
        LostChannel(int(row["guild_id"]), int(row["channel_id"]), int(row["status"]))
        for row in rows
    ]


async def channel_lost(tx: Transaction, lost: LostChannel) -> bool:
    """The server's announcement channel is cleared and the loss kept for its GMs, unless
    the server's channel is another one by now (a GM set it meanwhile): returns whether."""
    settings = await tx.get_settings(lost.guild_id)
    if settings.channel_id != lost.channel_id:
        return False
    await tx.update_settings(lost.guild_id, channel_id=None)
    tx.queue(
        "INSERT INTO announcement_channel_lost (guild_id, channel_id, status, lost_at)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
        " channel_id = excluded.channel_id, status = excluded.status, lost_at = excluded.lost_at",
        (lost.guild_id, lost.channel_id, lost.status, tx.now()),
    )
    return True


async def forget_lost_channel(tx: Transaction, guild_id: int) -> None:
    """The server's GMs were told, or set a channel again."""
    tx.queue("DELETE FROM announcement_channel_lost WHERE guild_id = ?", (guild_id,))
