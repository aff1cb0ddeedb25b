"""``/scene status`` and the live tracker, read: the page's characters in play, how many
there are, the first of the dead and of the out of play, each read only when shown; ◀ ▶
buttons turn the page. Their words and embeds are ``bot.render.scene``'s."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.features.numbers import table_numbers_view
from bot.features.pages import ReadPageButton, read_page
from bot.i18n import Language
from bot.interaction.buttons import CustomId, number
from bot.interaction.here import Here
from bot.render.scene import (
    STATUS_PAGE_LINES,
    fallen_line,
    page_count,
    pager_labels,
    status_page_embed,
    tracker_embed,
)
from bot.storage.interface import StorageReads
from bot.storage.models import CharacterQuery, StoredCharacter

__all__ = [
    "FALLEN_READ",
    "STATUS_PAGE_LINES",
    "StatusPageButton",
    "status_message",
    "tracker_embeds",
]

#: The dead read for the closing line: more names than a footer holds.
FALLEN_READ = 60


async def _closing(
    reader: StorageReads, guild_id: int, language: Language, counts: tuple[int, int, int]
) -> str | None:
    """The closing line of ``/scene status`` and the tracker: the dead and the out of play,
    each read only when there are some."""
    everyone, living, out_of_play = counts
    fallen: list[StoredCharacter] = []
    insane: list[StoredCharacter] = []
    if everyone > living:
        fallen = await reader.list_characters(
            guild_id, CharacterQuery(dead_only=True, limit=FALLEN_READ, language=language.value)
        )
    if out_of_play:
        insane = await reader.list_characters(
            guild_id, CharacterQuery(out_of_play=True, limit=FALLEN_READ, language=language.value)
        )
    return fallen_line(fallen, everyone - living, language, insane, out_of_play)


async def status_message(here: Here, page: int) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (1-based, clamped) of ``/scene status`` with its page buttons, read
    afresh: the page's characters in play, how many there are, and the first of the dead
    and of the out of play."""
    language = here.public_language
    async with here.read() as reader:
        counts = await reader.head_count(here.table_id)
        in_play = counts[1] - counts[2]
        shown, characters = await read_page(
            reader,
            here.table_id,
            page,
            page_count(in_play),
            STATUS_PAGE_LINES,
            CharacterQuery(living_only=True, out_of_play=False, language=language.value),
        )
        closing = await _closing(reader, here.table_id, language, counts)
    embed = here.titled(status_page_embed(characters, in_play, language, shown.page, closing))
    pager = StatusPageButton.pager(shown.page, shown.pages, *pager_labels(language))
    return embed, table_numbers_view(here, characters, pager)


async def tracker_embeds(
    reader: StorageReads, guild_id: int, language: Language, updated_at: datetime
) -> list[discord.Embed]:
    """The live tracker: the first 20 characters in play as ``/scene status`` shows them and
    how many more, the dead and the out of play on one closing line, and the time of this
    update (one embed, within Discord's limits). Reads only what it shows, whatever the
    server's size."""
    counts = await reader.head_count(guild_id)
    living = counts[1] - counts[2]  # in play: the out of play are on the closing line
    shown = await reader.list_characters(
        guild_id,
        CharacterQuery(
            living_only=True,
            out_of_play=False,
            limit=STATUS_PAGE_LINES,
            language=language.value,
        ),
    )
    closing = await _closing(reader, guild_id, language, counts)
    return [tracker_embed(shown, living, closing, language, updated_at)]


#: ``salud:page:status:<page>``.
STATUS_PAGE_ID = CustomId("page:status", number("page", 4))


class StatusPageButton(ReadPageButton, custom_id=STATUS_PAGE_ID):
    """Turns ``/scene status`` to another page."""

    async def page_message(self, here: Here) -> tuple[discord.Embed, discord.ui.View | None]:
        return await status_message(here, self.page)
