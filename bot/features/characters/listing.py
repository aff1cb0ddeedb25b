"""``/character list``: a line per character of the server, a page at a time with ◀ ▶
buttons; the names that look like another's marked; the incurably insane on a closing line.
What each page reads is here, its words ``bot.render.character_list``'s."""

from __future__ import annotations

import discord

from bot.features.numbers import table_numbers_view
from bot.features.pages import ReadPageButton, read_page
from bot.interaction.buttons import CustomId, number
from bot.interaction.here import Here
from bot.render.character_list import LIST_PAGE_LINES, list_embed, list_pager_labels, list_pages
from bot.storage.models import CharacterQuery

__all__ = ["ListPageButton", "list_message"]

#: The incurably insane read for the closing line: more names than a footer holds.
OUT_OF_PLAY_READ = 60


async def list_message(here: Here, page: int) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (1-based, clamped) of ``/character list`` and its buttons: one query for
    the page (in the order a reader of the server's language expects), one for the count,
    one for the lookalike names and one for the out of play, whatever the number of
    characters."""
    language = here.public_language
    async with here.read() as reader:
        total = await reader.count_characters(here.table_id, out_of_play=False)
        shown, characters = await read_page(
            reader,
            here.table_id,
            page,
            list_pages(total),
            LIST_PAGE_LINES,
            CharacterQuery(out_of_play=False, language=language.value),
        )
        lookalikes = await reader.lookalike_ids(here.table_id)
        insane = await reader.list_characters(
            here.table_id,
            CharacterQuery(out_of_play=True, limit=OUT_OF_PLAY_READ, language=language.value),
        )
    embed = here.titled(list_embed(characters, language, shown.page, total, lookalikes, insane))
    pager = ListPageButton.pager(shown.page, shown.pages, *list_pager_labels(language))
    return embed, table_numbers_view(here, [*characters, *insane], pager)


#: ``salud:page:list:<page>``.
LIST_PAGE_ID = CustomId("page:list", number("page", 5))


class ListPageButton(ReadPageButton, custom_id=LIST_PAGE_ID):
    """Turns ``/character list`` to another page."""

    async def page_message(self, here: Here) -> tuple[discord.Embed, discord.ui.View | None]:
        return await list_message(here, self.page)
