"""◀ ▶ of a reply whose page is read afresh and edited in place (``/character list``,
``/scene status``): the press is answered the same way, only the reading differs."""

from __future__ import annotations

from dataclasses import dataclass, replace

import discord

from bot.interaction.buttons import PageButton
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS
from bot.storage.interface import StorageReads
from bot.storage.models import CharacterQuery, StoredCharacter

__all__ = ["PageWindow", "ReadPageButton", "read_page"]


@dataclass(frozen=True)
class PageWindow:
    """The page a reply shows: ``page`` (1-based) of ``pages``, its lines read from
    ``offset``."""

    page: int
    pages: int
    offset: int


def page_window(asked: int, pages: int, lines_a_page: int) -> PageWindow:
    """Page ``asked`` brought within 1–``pages`` (a press on a page that no longer exists
    shows the nearest), and where its lines start, ``lines_a_page`` lines a page."""
    page = min(max(asked, 1), pages)
    return PageWindow(page, pages, (page - 1) * lines_a_page)


async def read_page(
    reader: StorageReads,
    table_id: int,
    asked: int,
    pages: int,
    lines_a_page: int,
    query: CharacterQuery,
) -> tuple[PageWindow, list[StoredCharacter]]:
    """The page ``asked`` (as ``page_window`` brings it within ``pages``) of the characters
    ``query`` selects at the table: only that page's rows are read."""
    shown = page_window(asked, pages, lines_a_page)
    page = replace(query, limit=lines_a_page, offset=shown.offset)
    return shown, await reader.list_characters(table_id, page)


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
