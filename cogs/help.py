"""``/help``: the commands and a one-screen summary of the rules, ephemeral, in the user's
language (catalog domain ``help``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.context import Here, send_private
from bot.i18n import Language, text

if TYPE_CHECKING:
    from bot.app import SaludBot

HELP_COLOUR = discord.Colour(0x5865F2)

#: The sections of the help, each an embed field: (name key, value key).
SECTIONS = (
    ("help.characters.name", "help.characters.value"),
    ("help.play.name", "help.play.value"),
    ("help.abilities.name", "help.abilities.value"),
    ("help.gm.name", "help.gm.value"),
    ("help.rules.name", "help.rules.value"),
)


def help_embed(language: Language) -> discord.Embed:
    """The whole help in one embed (within Discord's limits: checked by a test)."""
    embed = discord.Embed(
        title=text(language, "help.title"),
        description=text(language, "help.description"),
        colour=HELP_COLOUR,
    )
    for name_key, value_key in SECTIONS:
        embed.add_field(
            name=text(language, name_key), value=text(language, value_key), inline=False
        )
    embed.set_footer(text=text(language, "help.footer"))
    return embed


class HelpCog(commands.Cog):
    """``/help``."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="help", description=_("The commands and a summary of the rules", key="cmd.help")
    )
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction[SaludBot]) -> None:
        here = await Here.of(interaction)
        await send_private(interaction, embeds=[help_embed(here.private_language)])


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(HelpCog(bot))
