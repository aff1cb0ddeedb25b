"""``/character list`` in words: a line per character of the table, a page of 20; the names
that look like another's marked; the incurably insane on a closing line. What is read is
``bot.features.characters.listing``'s."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

import discord

from bot.i18n.catalogs import Language, text
from bot.render.common import line_params, mention
from bot.render.limits import FOOTER_LIMIT, INFO_COLOUR
from bot.render.stability import stability_brief
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import words_line
from bot.storage.models import StoredCharacter

__all__ = [
    "LIST_PAGE_LINES",
    "LOOKALIKE_MARK",
    "list_embed",
    "list_line",
    "list_pager_labels",
    "list_pages",
]

#: /character list: characters a page (one embed, far under Discord's 4096 characters even
#: with 40-character names that are all escaped markdown), in one message with ◀ ▶ buttons.
LIST_PAGE_LINES = 20
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


def list_pager_labels(language: Language) -> tuple[str, str]:
    """The words of ``/character list``'s ◀ ▶ buttons: previous, next."""
    return text(language, "character.list.previous"), text(language, "character.list.next")
