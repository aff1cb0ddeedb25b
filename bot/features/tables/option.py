"""The options of the table commands (issue 27): ``table`` (autocompleted), ``place``, the
announcement ``channel`` and a GM role, each checked once. ``/character move`` and
``/config`` use them too; a table's name as shown is ``bot.render.tables``'s."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import Language, text
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.transformers import TextChannelTransformer
from bot.render.limits import CHOICE_LENGTH_LIMIT, CHOICES_LIMIT
from bot.render.sanitize import escape
from bot.storage.tables import GameTable
from rules.names import name_key

__all__ = [
    "MAX_TABLE_NAME",
    "TABLE_OPTION",
    "AnnouncementChannel",
    "Place",
    "PlaceTransformer",
    "TableArg",
    "TableOption",
    "channel_id_of",
    "gm_role_id_of",
]

MAX_TABLE_NAME = 40

PLACE_TYPES = (
    discord.ChannelType.text,
    discord.ChannelType.news,
    discord.ChannelType.category,
    discord.ChannelType.forum,
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


class PlaceTransformer(app_commands.Transformer):
    """A channel, forum, thread or category of this server, cached or not."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return list(PLACE_TYPES)

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> Any:
        if getattr(value, "type", None) not in PLACE_TYPES:
            raise UserFacingError("error.table.not_a_place")
        return value


Place = app_commands.Transform[Any, PlaceTransformer]
AnnouncementChannel = app_commands.Transform[Any, TextChannelTransformer]


def channel_id_of(channel: AnnouncementChannel | None) -> int | None:
    """The id of the announcement channel a GM names (``None``: none), for the server
    (``/config channel``) or for a table (``/table channel``)."""
    return None if channel is None else int(channel.id)


def gm_role_id_of(here: Here, role: discord.Role | None) -> int | None:
    """The id of a GM role a GM names (``None``: no GM role), refusing @everyone, whose id is
    the server's: every member would be a GM."""
    if role is not None and role.id == here.server_id:
        raise UserFacingError("error.gm_role_everyone")
    return None if role is None else role.id


class TableOption(app_commands.Transformer):
    """A ``table`` option: one of this server's tables by name, autocompleted."""

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> GameTable:
        here = await Here.of(interaction)
        found = here.storage.tables.find(here.server_id, str(value))
        if found is None and name_key(str(value)) in {
            name_key(text(language, "table.main_name")) for language in Language
        }:
            found = here.storage.tables.main(here.server_id)
        if found is None:
            raise UserFacingError("error.table.unknown", name=escape(str(value)[:MAX_TABLE_NAME]))
        return found

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: str, /
    ) -> list[app_commands.Choice[str]]:
        here = await Here.of(interaction)
        language = here.private_language
        typed = name_key(value)
        choices = []
        for table in here.storage.tables.tables(here.server_id):
            shown = table.name or text(language, "table.main_name")
            if typed in name_key(shown):
                choices.append(
                    app_commands.Choice(
                        name=shown[:CHOICE_LENGTH_LIMIT], value=shown[:CHOICE_LENGTH_LIMIT]
                    )
                )
        return choices[:CHOICES_LIMIT]


TableArg = app_commands.Transform[GameTable, TableOption]
#: The description of every ``table`` option, written once.
TABLE_OPTION = app_commands.locale_str("The table", key="cmd.table.table")
