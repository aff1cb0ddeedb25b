"""The first message in a server the bot has just joined: what it is, ``/help``, how a GM sets
it up. It goes to the server's system channel, in the server's language, and only when the bot
may post there: a server without one, or that closed it to the bot, gets no message (and the
log says so in one line)."""

from __future__ import annotations

import logging

import discord

from bot.i18n import Language, public_language, text
from bot.storage.interface import StorageEngine

__all__ = ["greet", "greeting_channel", "welcome_text"]

log = logging.getLogger(__name__)


def greeting_channel(guild: discord.Guild) -> discord.TextChannel | None:
    """The system channel when the bot may read and post in it, else None."""
    channel = guild.system_channel
    me = guild.me
    if channel is None or me is None:
        return None
    allowed = channel.permissions_for(me)
    if not (allowed.view_channel and allowed.send_messages):
        return None
    return channel


def welcome_text(language: Language) -> str:
    """The welcome message (plain text: needs no Embed Links, reads well on a phone)."""
    return text(language, "welcome.message")


async def greet(guild: discord.Guild, storage: StorageEngine) -> bool:
    """Post the welcome message in ``guild``; return whether it was posted."""
    channel = greeting_channel(guild)
    if channel is None:
        log.info(
            "Joined the server %r (id %s); it has no system channel open to me, "
            "so no welcome message",
            guild.name,
            guild.id,
        )
        return False
    # A server that had the bot before keeps its /config language.
    configured = (await storage.settings(guild.id)).language
    language = public_language(configured, guild.preferred_locale)
    try:
        await channel.send(welcome_text(language))
    except discord.HTTPException as error:
        log.warning(
            "Joined the server %r (id %s) but could not post the welcome message in #%s: %s",
            guild.name,
            guild.id,
            channel.name,
            error,
        )
        return False
    log.info(
        "Joined the server %r (id %s); welcome message posted in #%s (%s)",
        guild.name,
        guild.id,
        channel.name,
        language.value,
    )
    return True
