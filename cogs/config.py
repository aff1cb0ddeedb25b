"""``/config gm-role|channel|language``: a server's settings (GM only, ephemeral, no history)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludGroupCog, SlashInteraction
from bot.features.tables.option import AnnouncementChannel, channel_id_of, gm_role_id_of
from bot.i18n import Language, text
from bot.interaction.deferral import private_reply
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_private
from bot.render.sanitize import escape, visible

LANGUAGE_CHOICES = [
    app_commands.Choice(name=_("Español", key="cmd.config.language.choice.es"), value="es"),
    app_commands.Choice(name=_("English", key="cmd.config.language.choice.en"), value="en"),
]


class ConfigCog(
    SaludGroupCog,
    group_name="config",
    group_description=_("GM: the server's settings for Salud", key="cmd.config"),
):
    """Settings of one server; only GMs change them (the bot checks, not Discord)."""

    @private_reply
    @app_commands.command(
        name="gm-role", description=_("GM: set or clear the GM role", key="cmd.config.gm_role")
    )
    @app_commands.describe(
        role=_("Members of this role are GMs (omit to clear)", key="cmd.config.gm_role.role")
    )
    async def gm_role(
        self, interaction: SlashInteraction, role: discord.Role | None = None
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("action.config")
        gm_role_id = gm_role_id_of(here, role)
        async with here.settings_change() as tx:
            await tx.update_settings(here.server_id, gm_role_id=gm_role_id)
        language = here.private_language
        if role is None:
            reply = text(language, "config.gm_role.cleared")
        else:
            reply = text(language, "config.gm_role.set", role=role.mention)
        await send_private(interaction, reply)

    @private_reply
    @app_commands.command(
        name="channel",
        description=_("GM: set or clear the announcement channel", key="cmd.config.channel"),
    )
    @app_commands.describe(
        channel=_(
            "Text channel that also gets state changes and deaths (omit to clear)",
            key="cmd.config.channel.channel",
        )
    )
    async def channel(
        self, interaction: SlashInteraction, channel: AnnouncementChannel | None = None
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("action.config")
        channel_id = channel_id_of(channel)
        async with here.settings_change() as tx:
            await tx.update_settings(here.server_id, channel_id=channel_id)
            # A channel the bot lost is no longer news: the posts go on where the GM says.
            await self.bot.services.announcements.channel_set(tx, here.server_id)
        language = here.private_language
        if channel_id is None:
            reply = text(language, "config.channel.cleared")
        else:
            reply = text(language, "config.channel.set", channel=f"<#{channel_id}>")
        await send_private(interaction, reply)

    @private_reply
    @app_commands.command(
        name="language",
        description=_("GM: language of the server's public messages", key="cmd.config.language"),
    )
    @app_commands.describe(language=_("The language", key="cmd.config.language.language"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(
        self, interaction: SlashInteraction, language: app_commands.Choice[str]
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("action.config")
        if language.value not in {item.value for item in Language}:
            raise UserFacingError(
                "error.bad_option", value=escape(visible(str(language.value)[:20]))
            )
        async with here.settings_change() as tx:
            await tx.update_settings(here.server_id, language=language.value)
        chosen = Language(language.value)
        reply = text(
            here.private_language,
            "config.language.set",
            language=text(here.private_language, f"config.language.name.{chosen.value}"),
        )
        await send_private(interaction, reply)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(ConfigCog(bot))
