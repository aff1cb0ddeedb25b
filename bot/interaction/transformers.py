"""Option transformers and the checks of option values: a text channel, a number in its
range, a ``reason`` made fit to show. (The character an option names is the characters feature's:
``bot.features.characters.option``.)"""

from __future__ import annotations

import unicodedata
from typing import Any, cast

import discord
from discord import app_commands

from bot.interaction.errors import UserFacingError
from bot.render.sanitize import visible

__all__ = ["MAX_REASON_LENGTH", "InRange", "TextChannelTransformer", "check_range", "clean_reason"]

#: ``reason`` of ``/hurt`` and ``/stability test``: at most this many characters once cleaned.
MAX_REASON_LENGTH = 100
#: A ``reason`` option: what caused it, in at most ``MAX_REASON_LENGTH`` characters.
Reason = app_commands.Range[str, 1, MAX_REASON_LENGTH]


def check_range(option: str, value: int, minimum: int, maximum: int) -> int:
    """Refuse an option outside its range (Discord enforces it, a client may not)."""
    if not minimum <= value <= maximum:
        raise UserFacingError("error.out_of_range", option=option, min=minimum, max=maximum)
    return value


def clean_reason(raw: str | None) -> str | None:
    """The ``reason`` as shown: control characters become spaces, invisible format
    characters go, runs of spaces shrink to one; None when nothing visible is left.

    Refuses a reason longer than 100 characters (Discord enforces it; a client may not).
    """
    if raw is None:
        return None
    cleaned = " ".join(visible(unicodedata.normalize("NFC", raw), control=" ").split())
    if len(cleaned) > MAX_REASON_LENGTH:
        raise UserFacingError("health.error.reason_too_long", max=MAX_REASON_LENGTH)
    return cleaned or None


class InRange(app_commands.Transformer):
    """A whole-number option between ``minimum`` and ``maximum`` (the rules' constants),
    declared once: Discord is given the range, and a value outside it (a client that does not
    enforce it) is refused here, before the command runs.

    Use as ``minutes: app_commands.Transform[int, InRange("minutes", 1, MAX_MINUTES)]``.
    """

    def __init__(self, option: str, minimum: int, maximum: int) -> None:
        self.option = option
        self.minimum = minimum
        self.maximum = maximum

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return self.minimum

    @property
    def max_value(self) -> int:
        return self.maximum

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> int:
        return check_range(self.option, int(value), self.minimum, self.maximum)


class TextChannelTransformer(app_commands.Transformer):
    """A text (or announcement) channel of this server, cached or not; any other refused."""

    _ALLOWED = (discord.ChannelType.text, discord.ChannelType.news)

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return list(self._ALLOWED)

    async def transform(
        self, interaction: discord.Interaction[Any], value: Any, /
    ) -> app_commands.AppCommandChannel | discord.abc.GuildChannel:
        if getattr(value, "type", None) not in self._ALLOWED:
            raise UserFacingError("error.not_text_channel")
        return cast("app_commands.AppCommandChannel | discord.abc.GuildChannel", value)
