"""A page of ``/history`` in words: the latest changes of a character or of the server,
newest first (the lines are ``bot.render.history``'s). What is read is
``bot.features.history.pages``'."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n.catalogs import Language, text
from bot.render.history import history_lines
from bot.render.limits import DESCRIPTION_LIMIT, INFO_COLOUR, TITLE_LIMIT
from bot.storage.interface import HistoryEntry
from bot.storage.models import CharacterRef

__all__ = ["HISTORY_LIMIT", "history_embed", "history_pager_labels"]

#: ``/history`` shows this many entries a page, newest first (COMMANDS.md).
HISTORY_LIMIT = 10


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


def history_pager_labels(language: Language) -> tuple[str, str]:
    """The words of ``/history``'s ◀ ▶ buttons: previous, next."""
    return text(language, "history.previous"), text(language, "history.next")
