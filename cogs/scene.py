"""``/scene new|status|tracker``: what happens to every character of a server at once
(COMMANDS.md; RULES.md S1, S2).

Thin adapters: the GM checked, one feature function (``bot.features.scene``: a new scene is
one transaction with one history entry that touches every character whose stored values
changed; every rule decision is taken in ``rules/``), and the reply it returns sent.
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludGroupCog, SlashInteraction
from bot.features.reply import send_reply
from bot.features.scene.new import new_scene
from bot.features.scene.posting import post_tracker
from bot.features.scene.status import status_message
from bot.interaction.here import Here
from bot.interaction.sending import send_public

__all__ = ["SceneCog"]


class SceneCog(
    SaludGroupCog,
    group_name="scene",
    group_description=_("Scenes: start a new one, or see everyone's Health", key="cmd.scene"),
):
    """A server's scenes (S1, S2) and the table's overview."""

    @app_commands.command(
        name="new", description=_("GM: start a new scene for every character", key="cmd.scene.new")
    )
    async def new(self, interaction: SlashInteraction) -> None:
        here = await Here.of(interaction)
        here.require_gm("scene.action.new")
        await send_reply(here, await new_scene(here))

    @app_commands.command(
        name="status",
        description=_("Every living character's Health, state and flags", key="cmd.scene.status"),
    )
    async def status(self, interaction: SlashInteraction) -> None:
        here = await Here.of(interaction)
        embed, view = await status_message(here, 1)
        await send_public(interaction, embeds=[embed], view=view)

    @app_commands.command(
        name="tracker",
        description=_("GM: post the live tracker here (kept up to date)", key="cmd.scene.tracker"),
    )
    async def tracker(self, interaction: SlashInteraction) -> None:
        """Posts the server's live tracker in this channel; a tracker posted before is
        edited to say that it moved (``bot.features.scene.tracker``)."""
        here = await Here.of(interaction)
        here.require_gm("tracker.action")
        await post_tracker(here, self.bot.services.tracker)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(SceneCog(bot))
