"""The announcement channel (``/config channel``): the copies of changes posted there, and
what the bot does when Discord refuses them for good (issue 19.6).

Every refused post is an invalid request, and Discord bans a bot from its API, in every
server at once, after 10,000 of them in 10 minutes: a channel where the bot lost its
permission must not be posted in after every change. On a 403 or 404 there, the bot stops
at once (in memory, for the commands already under way) and for good (the server's channel
is cleared in storage, and the loss kept: ``bot.storage.lost_channels``); the next GM who
uses a command in that server is told so, once, privately (``tell``); a GM who sets a
channel again (``/config channel``, ``channel_set``) starts the posts again.

The posts count against the budget of the bot's background requests
(``bot.discord_rest.pacer``): they come first, background work leaves them room.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_rest.pacer import RestPacer
from bot.i18n import Language, text
from bot.storage.errors import StorageClosed
from bot.storage.interface import StorageChange, StorageEngine
from bot.storage.lost_channels import channel_lost, forget_lost_channel, lost_channels
from bot.storage.memory import Lru
from bot.storage.models import LostChannel

__all__ = ["Announcements"]

log = logging.getLogger(__name__)

#: Servers whose lost channel is remembered in memory (the stored clearing does the rest).
_LOST_MEMORY = 4096
#: Mentions: nobody (the copies never ping; ``bot.interaction.sending.NO_MENTIONS``).
_NO_MENTIONS = discord.AllowedMentions.none()

#: One message of a copy: its content and embeds.
Copy = tuple[str | None, Sequence[discord.Embed]]


class Announcements:
    """Posts copies in the servers' announcement channels; see the module's docstring."""

    def __init__(self, storage: StorageEngine, pacer: RestPacer) -> None:
        self._storage = storage
        self._pacer = pacer
        #: Channel refused, by server: not posted in, whatever settings a command read.
        self._lost: Lru[int, int] = Lru(_LOST_MEMORY)
        #: Losses the servers' GMs were not told of yet, by server.
        self._untold: dict[int, LostChannel] = {}

    async def load(self) -> None:
        """Read the losses not told yet (at start-up)."""
        async with self._storage.read() as reader:
            for lost in await lost_channels(reader):
                self._untold[lost.guild_id] = lost
                self._lost.put(lost.guild_id, lost.channel_id)

    async def post(
        self,
        client: discord.Client,
        guild_id: int,
        channel_id: int,
        copies: Sequence[Copy],
        *,
        view: discord.ui.View | None = None,
    ) -> None:
        """Post ``copies`` in the server's announcement channel, unless the bot lost it (the
        first with ``view``'s buttons, when given). A failure there never affects the reply:
        it is logged, and a 403 or 404 stops the posts for good."""
        if self._lost.get(guild_id) == channel_id:
            return
        channel = client.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            for index, (content, embeds) in enumerate(copies):
                self._pacer.charge()
                if view is not None and index == 0:
                    await channel.send(
                        content=content,
                        embeds=list(embeds),
                        allowed_mentions=_NO_MENTIONS,
                        view=view,
                    )
                    continue
                await channel.send(
                    content=content, embeds=list(embeds), allowed_mentions=_NO_MENTIONS
                )
        except discord.HTTPException as error:
            if error.status in (403, 404):
                await self._stop(LostChannel(guild_id, channel_id, error.status))
            else:
                log.warning(
                    "could not announce in channel %s of guild %s: %s", channel_id, guild_id, error
                )

    async def _stop(self, lost: LostChannel) -> None:
        if self._lost.get(lost.guild_id) == lost.channel_id:
            return  # another command of the server found it first
        self._lost.put(lost.guild_id, lost.channel_id)
        log.warning(
            "could not announce in channel %s of guild %s (%s): no more posts there until a GM"
            " sets a channel",
            lost.channel_id,
            lost.guild_id,
            lost.status,
        )
        try:
            async with self._storage.transaction(require_record=False) as tx:
                kept = await channel_lost(tx, lost)
        except StorageClosed:  # stopping: the next post there after the restart finds it again
            return
        except Exception:
            log.exception("could not store the loss of channel %s", lost.channel_id)
            return
        if kept:
            self._untold[lost.guild_id] = lost

    def untold(self, guild_id: int | None) -> bool:
        """Whether the server's GMs have a loss to be told of."""
        return guild_id is not None and guild_id in self._untold

    async def tell(self, interaction: discord.Interaction[Any], language: Language) -> None:
        """Tell the GM who used ``interaction`` (already answered) that the bot stopped
        posting in the server's lost channel, privately; once per loss."""
        guild_id = interaction.guild_id
        lost = None if guild_id is None else self._untold.pop(guild_id, None)
        if guild_id is None or lost is None:
            return
        said = text(language, f"config.channel.lost.{lost.status}", channel=f"<#{lost.channel_id}>")
        try:
            await interaction.followup.send(said, ephemeral=True, allowed_mentions=_NO_MENTIONS)
        except discord.HTTPException as error:
            self._untold.setdefault(guild_id, lost)  # the next GM's command says it
            log.warning("could not tell a GM of guild %s about its channel: %s", guild_id, error)
            return
        try:
            async with self._storage.transaction(require_record=False) as tx:
                await forget_lost_channel(tx, guild_id)
        except StorageClosed:  # stopping: told again after the restart, which is harmless
            return

    async def channel_set(self, tx: StorageChange, guild_id: int) -> None:
        """Inside ``/config channel``'s transaction: a GM chose (or cleared) the channel, so
        the loss is no longer news and the posts may go on."""
        self._untold.pop(guild_id, None)
        self._lost.forget(guild_id)
        await forget_lost_channel(tx, guild_id)
