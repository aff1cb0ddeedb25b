"""Server joins and removals: the welcome message (``bot/features/welcome.py``) and a log line
each."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.app import SaludBot, SaludCog
from bot.features.welcome import greet

log = logging.getLogger(__name__)


class WelcomeCog(SaludCog):
    """Greets a server the bot has just been added to (not one that comes back after an
    outage or a reconnection: that is ``on_guild_available``)."""

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await greet(guild, self.bot.storage)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        log.info("Removed from the server %r (id %s)", guild.name, guild.id)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(WelcomeCog(bot))
