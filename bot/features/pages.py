"""◀ ▶ of a reply whose page is read afresh and edited in place (``/character list``,
``/scene status``): the press is answered the same way, only the reading differs."""

from __future__ import annotations

import discord

from bot.interaction.buttons import PageButton
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS

__all__ = ["ReadPageButton"]


class ReadPageButton(PageButton):
    """A page button that edits its message into the page it names, as ``page_message``
    reads it (a base of kinds: it matches no id)."""

    async def page_message(self, here: Here) -> tuple[discord.Embed, discord.ui.View | None]:
        """The embed of page ``self.page`` and its buttons, read afresh."""
        raise NotImplementedError

    async def pressed(self, here: Here) -> None:
        embed, view = await self.page_message(here)
        await here.interaction.response.edit_message(
            embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
        )
