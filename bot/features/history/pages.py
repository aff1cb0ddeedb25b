"""``/history``: the latest changes of a character or of the server, in words, a page at a
time with ◀ ▶ buttons."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.features.numbers import table_numbers_view
from bot.i18n import Language, text
from bot.interaction.buttons import CustomId, SaludButton, button_view, number
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS
from bot.render.history import history_lines
from bot.render.limits import DESCRIPTION_LIMIT, INFO_COLOUR, TITLE_LIMIT
from bot.storage.models import CharacterRef, HistoryEntry, StoredCharacter

__all__ = ["HISTORY_LIMIT", "HistoryPageButton", "history_embed", "history_page"]

#: ``/history`` shows this many entries a page, newest first (COMMANDS.md).
HISTORY_LIMIT = 10
#: Pages further back than this are not offered (a page is one query with an offset).
MAX_PAGE = 9999


def history_embed(
    entries: Sequence[HistoryEntry],
    language: Language,
    character: CharacterRef | None,
    page: int = 1,
) -> discord.Embed:
    """A page of entries (newest first) touching ``character``, or the whole server."""
    if character is None:
        title = text(language, "history.title.server")
    else:
        title = text(language, "history.title.character", name=character.name)
    if page > 1:
        title = text(language, "history.title.page", title=title, page=page)
    lines = history_lines(entries, language)
    description = "\n".join(lines) if lines else text(language, "render.history.empty")
    embed = discord.Embed(
        title=title[:TITLE_LIMIT], description=description[:DESCRIPTION_LIMIT], colour=INFO_COLOUR
    )
    if entries:
        embed.set_footer(text=text(language, "history.footer", limit=HISTORY_LIMIT))
    return embed


async def history_page(
    here: Here, character: CharacterRef | None, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (1-based) of the history with its ◀ ▶ buttons (None when one page)."""
    page = min(max(page, 1), MAX_PAGE)
    async with here.read() as reader:
        entries = await reader.history(
            here.table_id,
            None if character is None else character.id,
            limit=HISTORY_LIMIT + 1,
            offset=(page - 1) * HISTORY_LIMIT,
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
    view = button_view()
    view.add_item(
        HistoryPageButton(subject, page - 1, text(language, "history.previous"), disabled=page == 1)
    )
    view.add_item(
        HistoryPageButton(subject, page + 1, text(language, "history.next"), disabled=not more)
    )
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

    async def pressed(self, interaction: discord.Interaction[Any], here: Here) -> None:
        character: StoredCharacter | None = None
        if self.character_id:
            async with here.read() as reader:
                character = await reader.get_character(here.table_id, self.character_id)
            if character is None:
                raise UserFacingError("error.character_gone")
        embed, view = await history_page(here, character, self.page)
        await interaction.response.edit_message(
            embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
        )
