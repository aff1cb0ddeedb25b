"""``/history``: the latest changes of a character or of the server, in words, a page at a
time with ◀ ▶ buttons; what a page reads is here, its words ``bot.render.history_page``'s."""

from __future__ import annotations

import re

import discord

from bot.features.numbers import table_numbers_view
from bot.interaction.buttons import CustomId, SaludButton, button_view, number
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS
from bot.render.history_page import HISTORY_LIMIT, history_embed, history_pager_labels
from bot.storage.interface import HistoryQuery
from bot.storage.models import CharacterRef, StoredCharacter

__all__ = ["HistoryPageButton", "history_page"]

#: Pages further back than this are not offered (a page is one query with an offset).
MAX_PAGE = 9999


async def history_page(
    here: Here, character: CharacterRef | None, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (1-based) of the history with its ◀ ▶ buttons (None when one page)."""
    page = min(max(page, 1), MAX_PAGE)
    async with here.read() as reader:
        entries = await reader.history(
            here.table_id,
            HistoryQuery(
                None if character is None else character.id,
                limit=HISTORY_LIMIT + 1,
                offset=(page - 1) * HISTORY_LIMIT,
            ),
        )
    more = len(entries) > HISTORY_LIMIT
    language = here.public_language
    embed = here.titled(history_embed(entries[:HISTORY_LIMIT], language, character, page))
    touched = [
        side
        for entry in entries[:HISTORY_LIMIT]
        for change in entry.characters
        for side in (change.before, change.after)
        if side is not None
    ]
    if page == 1 and not more:
        return embed, table_numbers_view(here, touched)
    subject = 0 if character is None else character.id
    previous, following = history_pager_labels(language)
    view = button_view()
    view.add_item(HistoryPageButton(subject, page - 1, previous, disabled=page == 1))
    view.add_item(HistoryPageButton(subject, page + 1, following, disabled=not more))
    return embed, table_numbers_view(here, touched, view)


#: ``salud:page:history:<character_id or 0>:<page>``.
HISTORY_PAGE_ID = CustomId("page:history", number("character_id"), number("page", 4))


class HistoryPageButton(SaludButton, custom_id=HISTORY_PAGE_ID):
    """Turns a ``/history`` message to another page, read afresh; anyone may press it (anyone
    may look), and it keeps working after a restart (its id says the page and character)."""

    def __init__(
        self, character_id: int, page: int, label: str = "", *, disabled: bool = False
    ) -> None:
        super().__init__(
            HISTORY_PAGE_ID.build(character_id=character_id, page=max(page, 0)),
            label or str(page),
            disabled=disabled,
        )
        self.character_id = character_id
        self.page = page

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> HistoryPageButton:
        return cls(int(match["character_id"]), int(match["page"]), label)

    async def pressed(self, here: Here) -> None:
        character: StoredCharacter | None = None
        if self.character_id:
            async with here.read() as reader:
                character = await reader.get_character(here.table_id, self.character_id)
            if character is None:
                raise UserFacingError("error.character_gone")
        embed, view = await history_page(here, character, self.page)
        await here.interaction.response.edit_message(
            embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
        )
