"""``/help``: the commands and a one-screen summary of the rules, or one command's page
(``/help command``, autocompleted: ``bot.features.help``), ephemeral, in the user's language
(catalog domain ``help``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.features.help import command_choices, command_page, find_command, leaf_commands
from bot.i18n import Language, text
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here, private_language
from bot.interaction.sending import send_private
from bot.render.limits import INFO_COLOUR
from bot.render.sanitize import escape

if TYPE_CHECKING:
    from bot.app import SaludBot


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
        colour=INFO_COLOUR,
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
    @app_commands.describe(
        command=_("One command's page: options, who may use it, an example", key="cmd.help.command")
    )
    async def help(
        self,
        interaction: discord.Interaction[SaludBot],
        command: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        here = await Here.of(interaction)
        language = here.private_language
        if command is None:
            await send_private(interaction, embeds=[help_embed(language)])
            return
        found = find_command(self.bot.tree, command)
        if found is None:
            shown = escape(command.strip()[:40])
            raise UserFacingError("help.error.unknown_command", command=shown)
        await send_private(interaction, embeds=[command_page(found, language)])

    @help.autocomplete("command")
    async def command_autocomplete(
        self, interaction: discord.Interaction[SaludBot], current: str
    ) -> list[app_commands.Choice[str]]:
        language = await private_language(interaction)
        return command_choices(leaf_commands(self.bot.tree), current, language)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(HelpCog(bot))
