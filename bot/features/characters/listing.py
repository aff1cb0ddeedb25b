"""``/character list``: a line per character of the server, a page at a time with ◀ ▶
buttons; the names that look like another's marked; the incurably insane on a closing line."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import discord

from bot.features.numbers import table_numbers_view
from bot.i18n import Language, text
from bot.interaction.buttons import CustomId, PageButton, number
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS
from bot.render.common import line_params, mention
from bot.render.limits import FOOTER_LIMIT, INFO_COLOUR
from bot.render.stability import stability_brief
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import words_line
from bot.storage.models import StoredCharacter

__all__ = [
    "LIST_PAGE_LINES",
    "LOOKALIKE_MARK",
    "ListPageButton",
    "list_embed",
    "list_line",
    "list_message",
    "list_pages",
]

#: /character list: characters a page (one embed, far under Discord's 4096 characters even
#: with 40-character names that are all escaped markdown), in one message with ◀ ▶ buttons.
LIST_PAGE_LINES = 20
#: The incurably insane read for the closing line: more names than a footer holds.
OUT_OF_PLAY_READ = 60
#: Marks the names that look like another's in /character list (kept from older databases).
LOOKALIKE_MARK = "⚠️"


def list_line(
    character: StoredCharacter,
    language: Language,
    *,
    lookalike: bool = False,
    viewer: Viewer = EVERYONE,
) -> str:
    """``🟡 **Ana** — Health 0 / 9 — Hurt — <@owner>`` (the mention pings nobody in an embed),
    then ``— Stability 5 / 8 · Shaken`` for a character that has Stability;
    ``lookalike``: marked as a name that another character's looks like (older databases).
    In words for a viewer who may not see its numbers (``🟡 **Ana** · Hurt — <@owner>``)."""
    if not shows_numbers(character, viewer):
        line = f"{words_line(character, language)} — {mention(character.owner_id)}"
        return f"{line} {LOOKALIKE_MARK}" if lookalike else line
    line = text(
        language,
        "character.list.line",
        **line_params(character, language),
        owner=mention(character.owner_id),
    )
    if character.stability is not None:  # only for a character that has Stability
        line += " — " + stability_brief(character.stability, language, character.gender)
    return f"{line} {LOOKALIKE_MARK}" if lookalike else line


def list_pages(total: int) -> int:
    """How many pages ``/character list`` has for ``total`` characters (at least one)."""
    return max(1, -(-total // LIST_PAGE_LINES))


def list_embed(
    characters: Sequence[StoredCharacter],
    language: Language,
    page: int,
    total: int,
    lookalikes: AbstractSet[int] = frozenset(),
    out_of_play: Sequence[StoredCharacter] = (),
) -> discord.Embed:
    """Page ``page`` of ``/character list``: a line per character (``list_line``), the names
    that look like another's marked, with a line saying what the mark means; the incurably
    insane (M4) on a closing line of their own, ``Fuera de la partida: …``, never among the
    others (``total`` counts the others: the pages are theirs)."""
    if not total and not out_of_play:
        return discord.Embed(description=text(language, "character.list.empty"), colour=INFO_COLOUR)
    pages = list_pages(total)
    count = total + len(out_of_play)
    title = text(language, "character.list.title", count=count)
    if pages > 1:
        title = text(language, "character.list.title_page", count=count, page=page, pages=pages)
    lines = [list_line(c, language, lookalike=c.id in lookalikes) for c in characters]
    if any(c.id in lookalikes for c in characters):
        lines.append(text(language, "character.list.lookalikes", mark=LOOKALIKE_MARK))
    embed = discord.Embed(title=title, description="\n".join(lines) or None, colour=INFO_COLOUR)
    if out_of_play:
        names = ", ".join(character.name for character in out_of_play)
        closing = text(language, "character.list.out_of_play", names=names)
        embed.set_footer(text=closing[:FOOTER_LIMIT])
    return embed


async def list_message(here: Here, page: int) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (1-based, clamped) of ``/character list`` and its buttons: one query for
    the page (in the order a reader of the server's language expects), one for the count,
    one for the lookalike names and one for the out of play, whatever the number of
    characters."""
    language = here.public_language
    async with here.read() as reader:
        total = await reader.count_characters(here.table_id, out_of_play=False)
        pages = list_pages(total)
        page = min(max(page, 1), pages)
        characters = await reader.list_characters(
            here.table_id,
            out_of_play=False,
            limit=LIST_PAGE_LINES,
            offset=(page - 1) * LIST_PAGE_LINES,
            language=language.value,
        )
        lookalikes = await reader.lookalike_ids(here.table_id)
        insane = await reader.list_characters(
            here.table_id, out_of_play=True, limit=OUT_OF_PLAY_READ, language=language.value
        )
    embed = here.titled(list_embed(characters, language, page, total, lookalikes, insane))
    pager = ListPageButton.pager(
        page,
        pages,
        text(language, "character.list.previous"),
        text(language, "character.list.next"),
    )
    return embed, table_numbers_view(here, [*characters, *insane], pager)


#: ``salud:page:list:<page>``.
LIST_PAGE_ID = CustomId("page:list", number("page", 5))


class ListPageButton(PageButton, custom_id=LIST_PAGE_ID):
    """Turns ``/character list`` to another page."""

    async def pressed(self, interaction: discord.Interaction[Any], here: Here) -> None:
        embed, view = await list_message(here, self.page)
        await interaction.response.edit_message(
            embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
        )
