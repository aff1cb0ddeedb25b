"""``/help``: the commands on one phone screen with a button to the rules, or one command's
page (``/help command``, autocompleted): ``bot.features.help``; ephemeral, in the user's
language (catalog domains ``help`` and ``help_command``)."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludCog, SlashInteraction
from bot.features.help import (
    command_choices,
    find_command,
    leaf_commands,
    overview,
)
from bot.interaction.deferral import private_reply
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here, private_language
from bot.interaction.sending import send_private
from bot.render.help import command_page
from bot.render.sanitize import escape


class HelpCog(SaludCog):
    """``/help``."""

    @private_reply
    @app_commands.command(
        name="help", description=_("The commands and a summary of the rules", key="cmd.help")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        command=_("One command's page: options, who may use it, an example", key="cmd.help.command")
    )
    async def help(
        self, interaction: SlashInteraction, command: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        here = await Here.of(interaction)
        language = here.private_language
        if command is None:
            embed, view = overview("commands", language)
            await send_private(interaction, embeds=[embed], view=view)
            return
        found = find_command(self.bot.tree, command)
        if found is None:
            shown = escape(command.strip()[:40])
            raise UserFacingError("help.error.unknown_command", command=shown)
        await send_private(interaction, embeds=[command_page(found, language)])

    @help.autocomplete("command")
    async def command_autocomplete(
        self, interaction: SlashInteraction, current: str
    ) -> list[app_commands.Choice[str]]:
        language = await private_language(interaction)
        return command_choices(leaf_commands(self.bot.tree), current, language)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(HelpCog(bot))
