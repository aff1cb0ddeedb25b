"""``/time`` and ``/refresh``: game time and pools for every character of a server at once
(COMMANDS.md; RULES.md T1, T2, P1).

Thin adapters: the GM checked, one feature function (``bot.features.scene.game_time``: one
transaction with one history entry each), and the reply it returns sent.
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludCog, SlashInteraction
from bot.features.characters.option import Character
from bot.features.reply import send_reply
from bot.features.scene.game_time import pass_minutes, refresh_pools_of
from bot.interaction.here import Here
from bot.interaction.transformers import InRange
from rules.time import MAX_MINUTES

__all__ = ["TimeCog"]


class TimeCog(SaludCog):
    """Game time (T1, T2) and pools (P1) for every character of a server."""

    @app_commands.command(
        name="time",
        description=_("GM: game time passes (whoever bleeds loses Health)", key="cmd.time"),
    )
    @app_commands.guild_only()
    @app_commands.describe(minutes=_("Minutes of game time (1–1440)", key="cmd.time.minutes"))
    async def time(
        self,
        interaction: SlashInteraction,
        minutes: app_commands.Transform[int, InRange("minutes", 1, MAX_MINUTES)],
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("scene.action.time")
        await send_reply(here, await pass_minutes(here, minutes))

    @app_commands.command(
        name="refresh", description=_("GM: refresh the pools to their ratings", key="cmd.refresh")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character=_(
            "The character (default: every character of the server)", key="cmd.refresh.character"
        ),
    )
    async def refresh_pools(
        self, interaction: SlashInteraction, character: Character | None = None
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("scene.action.refresh")
        await send_reply(here, await refresh_pools_of(here, character))


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(TimeCog(bot))
