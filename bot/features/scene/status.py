"""``/scene status`` and the live tracker: every living character on a line (Health, state,
flags), the dead on one closing line, pages with their ◀ ▶ buttons."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord

from bot.i18n import Language, plural, text
from bot.interaction.buttons import PageButton, button_view
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS
from bot.render import flags_text, safe
from bot.render.change_reply import clip_lines
from bot.render.common import line_params
from bot.render.limits import FOOTER_LIMIT, INFO_COLOUR
from bot.storage import StoredCharacter

__all__ = [
    "STATUS_PAGE_LIMIT",
    "StatusPageButton",
    "split_fallen",
    "status_message",
    "status_pages",
    "tracker_embeds",
]

#: ``/scene status``: characters of one page packed into one embed description (under 4096).
STATUS_PAGE_LIMIT = 3800
#: The live tracker's one embed description (Discord: 4096).
TRACKER_LIMIT = 4000
#: ``/scene status``: at most this many characters a page, so that a page reads at a glance.
STATUS_PAGE_LINES = 40


def status_line(character: StoredCharacter, language: Language) -> str:
    """``🟠 **Ana** — -7 / 9 — Seriously wounded · Unconscious · Bleeding``."""
    line = text(language, "scene.status.line", **line_params(character, language))
    flags = flags_text(character.health, language, character.gender)
    return f"{line} · {flags}" if flags else line


def status_pages(characters: Sequence[StoredCharacter], language: Language) -> list[str]:
    """The description of each page of ``/scene status`` (one embed each, under 4096)."""
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for character in characters:
        line = status_line(character, language)
        if current and (
            size + len(line) + 1 > STATUS_PAGE_LIMIT or len(current) >= STATUS_PAGE_LINES
        ):
            pages.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        pages.append("\n".join(current))
    return pages


def fallen_line(fallen: Sequence[StoredCharacter], language: Language) -> str | None:
    """``💀 Fallen: Jack Malone, Renée Pennington``: the dead, on one closing line (COMMANDS.md
    "The dead"), within a footer's 2048 characters; None when nobody has died."""
    if not fallen:
        return None
    names = [character.name for character in fallen]
    shown: list[str] = []
    for index, name in enumerate(names):
        rest = len(names) - index
        candidate = ", ".join([*shown, name])
        more = text(language, "scene.more", count=rest - 1) if rest > 1 else ""
        if len(candidate) + len(more) + 40 > FOOTER_LIMIT:
            shown.append(text(language, "scene.more", count=rest))
            break
        shown.append(name)
    return text(language, "scene.status.fallen", names=", ".join(shown))


def split_fallen(
    characters: Sequence[StoredCharacter],
) -> tuple[list[StoredCharacter], list[StoredCharacter]]:
    """The living and the dead of ``characters``, each in the order given."""
    living = [c for c in characters if not c.health.is_dead]
    return living, [c for c in characters if c.health.is_dead]


def status_message(
    characters: Sequence[StoredCharacter],
    language: Language,
    page: int,
    fallen: Sequence[StoredCharacter] = (),
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (1-based, clamped) of ``/scene status`` with its page buttons; the dead
    (``fallen``) on the closing line (the footer) of every page."""
    embed, view = _status_page(characters, language, page)
    closing = fallen_line(fallen, language)
    if closing is not None:
        embed.set_footer(text=closing)
    return embed, view


def _status_page(
    characters: Sequence[StoredCharacter], language: Language, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    pages = status_pages(characters, language)
    if not pages:
        embed = discord.Embed(
            title=plural(language, "scene.status.title", 0),
            description=text(language, "scene.status.empty"),
            colour=INFO_COLOUR,
        )
        return embed, None
    page = min(max(page, 1), len(pages))
    title = plural(language, "scene.status.title", len(characters))
    if len(pages) > 1:
        title = plural(
            language, "scene.status.title_page", len(characters), page=page, pages=len(pages)
        )
    embed = discord.Embed(title=title, description=pages[page - 1], colour=INFO_COLOUR)
    if len(pages) == 1:
        return embed, None
    view = button_view()
    view.add_item(
        StatusPageButton(
            max(page - 1, 1),
            text(language, "scene.status.previous"),
            disabled=page == 1,
        )
    )
    view.add_item(
        StatusPageButton(
            min(page + 1, len(pages)),
            text(language, "scene.status.next"),
            disabled=page == len(pages),
        )
    )
    return embed, view


def tracker_embeds(
    characters: Sequence[StoredCharacter], language: Language, updated_at: datetime
) -> list[discord.Embed]:
    """The live tracker: every living character as ``/scene status`` shows it, the dead on
    one closing line, and the time of this update (one embed, within Discord's limits)."""
    living = [c for c in characters if not c.health.is_dead]
    dead = [c for c in characters if c.health.is_dead]
    closing = [text(language, "tracker.updated", time=discord.utils.format_dt(updated_at, "T"))]
    if dead:
        names = ", ".join(safe(c.name) for c in dead)
        closing.insert(0, clip_lines([text(language, "tracker.dead", names=names)], language, 400))
    room = TRACKER_LIMIT - sum(len(line) + 1 for line in closing)
    lines = [status_line(c, language) for c in living] or [text(language, "scene.status.empty")]
    description = clip_lines(lines, language, room) + "\n\n" + "\n".join(closing)
    embed = discord.Embed(
        title=plural(language, "tracker.title", len(living)),
        description=description,
        colour=INFO_COLOUR,
        timestamp=updated_at,
    )
    return [embed]


class StatusPageButton(PageButton, template=r"salud:page:status:(?P<page>[0-9]{1,4})"):
    """Turns ``/scene status`` to another page."""

    prefix = "salud:page:status"

    async def pressed(self, interaction: discord.Interaction[Any], here: Here) -> None:
        async with here.read() as reader:
            characters = await reader.list_characters(here.guild_id)
        living, fallen = split_fallen(characters)
        embed, view = status_message(living, here.public_language, self.page, fallen)
        await interaction.response.edit_message(
            embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
        )
