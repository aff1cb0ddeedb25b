"""``/history`` and ``/undo``: what changed in a server, and taking the latest change back
(COMMANDS.md).

The storage keeps whole before/after snapshots of every character a change touched; ``/undo``
writes the ``before`` snapshots of the server's latest change that is neither an undo nor
undone back exactly (First Aid pools, abilities, scene and bleeding values, a deleted
character with its abilities) and records the undo as an entry of its own. ``/config`` is
not in the history, so it is never undone.
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludCog, SlashInteraction
from bot.features.characters.option import Character
from bot.features.history.pages import history_page
from bot.features.history.undo_confirm import undo_view
from bot.interaction.deferral import private_reply
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_private, send_public
from bot.render.undo import preview_embed

__all__ = [
    "HistoryCog",
]


class HistoryCog(SaludCog):
    """A server's changes: looking back (anyone) and taking the latest back (GM)."""

    @app_commands.command(
        name="history",
        description=_("The last changes of a character or of the server", key="cmd.history"),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character=_("The character (default: the whole server)", key="cmd.history.character")
    )
    async def history(
        self, interaction: SlashInteraction, character: Character | None = None
    ) -> None:
        here = await Here.of(interaction)
        embed, view = await history_page(here, character, 1)
        await send_public(interaction, embeds=[embed], view=view)

    @private_reply
    @app_commands.command(
        name="undo", description=_("GM: revert the server's latest change", key="cmd.undo")
    )
    @app_commands.guild_only()
    async def undo(self, interaction: SlashInteraction) -> None:
        """Shows privately what it would revert and asks to confirm (``UndoButton``)."""
        here = await Here.of(interaction)
        here.require_gm("history.action.undo")
        async with here.read() as reader:
            latest = await reader.latest_undoable(here.table_id)
        if latest is None:
            raise UserFacingError("history.undo.nothing")
        language = here.private_language
        await send_private(
            interaction,
            embeds=[preview_embed(latest, language)],
            view=undo_view(latest.id, here.user_id, language),
        )


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(HistoryCog(bot))
