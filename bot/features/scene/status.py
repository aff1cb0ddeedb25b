"""``/scene status`` and the live tracker: every character in play on a line (Health, state,
flags) in the order a reader of the server's language expects, the dead and the incurably
insane (out of play, M4) on one closing line; ``/scene status`` pages 20 characters at a
time with ◀ ▶ buttons, reading only the page it shows; the tracker, one message that cannot
page, shows the first 20 and how many more (COMMANDS.md, One message per command)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord

from bot.features.numbers import table_numbers_view
from bot.i18n import Language, plural, text
from bot.interaction.buttons import CustomId, PageButton, number
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS
from bot.render.change_reply import clip_lines
from bot.render.common import FLAG_SEPARATOR, flags_text, line_params
from bot.render.limits import DESCRIPTION_LIMIT, FOOTER_LIMIT, INFO_COLOUR
from bot.render.stability import stability_brief
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import words_line
from bot.storage.interface import StorageReads
from bot.storage.models import StoredCharacter

__all__ = [
    "FALLEN_READ",
    "STATUS_PAGE_LINES",
    "StatusPageButton",
    "fallen_line",
    "first_lines",
    "status_message",
    "status_page_embed",
    "tracker_embeds",
]

#: Characters a page of ``/scene status`` (and the tracker) shows at most.
STATUS_PAGE_LINES = 20
#: The dead read for the closing line: more names than a footer holds.
FALLEN_READ = 60


def status_line(character: StoredCharacter, language: Language, viewer: Viewer = EVERYONE) -> str:
    """``🟠 **Ana** — -7 / 9 — Seriously wounded · Unconscious · Bleeding``, then ``—
    Stability 5 / 8 · Shaken`` for a character that has Stability; in words for a viewer
    who may not see its numbers (``🟠 **Ana** · Seriously wounded · Unconscious``)."""
    if not shows_numbers(character, viewer):
        return words_line(character, language)
    line = text(language, "scene.status.line", **line_params(character, language))
    flags = flags_text(character.health, language, character.gender)
    if flags:
        line = f"{line} · {flags}"
    if character.stability is not None:  # only for a character that has Stability
        line += " — " + stability_brief(character.stability, language, character.gender)
    return line


def _names_within(
    characters: Sequence[StoredCharacter], count: int, language: Language, room: int
) -> str:
    """The first names of ``characters`` that fit in ``room`` characters, then "… and N
    more" for the rest of ``count``."""
    shown: list[str] = []
    for index, character in enumerate(characters):
        rest = count - index
        candidate = ", ".join([*shown, character.name])
        more = text(language, "scene.more", count=rest - 1) if rest > 1 else ""
        if len(candidate) + len(more) + 40 > room:
            break
        shown.append(character.name)
    if len(shown) < count:
        shown.append(text(language, "scene.more", count=count - len(shown)))
    return ", ".join(shown)


def fallen_line(
    fallen: Sequence[StoredCharacter],
    dead: int,
    language: Language,
    insane: Sequence[StoredCharacter] = (),
    out_of_play: int = 0,
) -> str | None:
    """``💀 Fallen: Jack Malone · 🌀 Out of play: Amelia Ríos``: the dead and the incurably
    insane (M4: alive, but out of play), on one closing line (COMMANDS.md "The dead",
    "Stability"), within a footer's 2048 characters: ``fallen`` and ``insane`` are the first
    names, ``dead`` and ``out_of_play`` how many there are in all; None when there are
    none."""
    parts = []
    room = FOOTER_LIMIT // 2 if dead and out_of_play else FOOTER_LIMIT
    if dead:
        names = _names_within(fallen, dead, language, room)
        parts.append(text(language, "scene.status.fallen", names=names))
    if out_of_play:
        names = _names_within(insane, out_of_play, language, room)
        parts.append(text(language, "scene.status.out_of_play", names=names))
    return FLAG_SEPARATOR.join(parts) if parts else None


def first_lines(lines: Sequence[str], hidden: int, language: Language, room: int) -> str:
    """As many of ``lines`` as ``room`` characters hold, then one "… and N more" counting
    those left out and ``hidden`` (characters never turned into lines)."""
    kept: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        left = len(lines) - index - 1 + hidden
        more = len(text(language, "scene.more", count=left)) + 1 if left else 0
        if size + len(line) + more > room:
            break
        kept.append(line)
        size += len(line) + 1
    left = len(lines) - len(kept) + hidden
    if left:
        kept.append(text(language, "scene.more", count=left))
    return "\n".join(kept)


def _pages(living: int) -> int:
    return max(1, -(-living // STATUS_PAGE_LINES))


def status_page_embed(
    characters: Sequence[StoredCharacter],
    living: int,
    language: Language,
    page: int,
    closing: str | None = None,
) -> discord.Embed:
    """Page ``page`` of ``/scene status``: ``characters`` are its characters in play,
    ``living`` how many there are in all, ``closing`` the line of the dead and the out of
    play (its footer)."""
    pages = _pages(living)
    if not living:
        embed = discord.Embed(
            title=plural(language, "scene.status.title", 0),
            description=text(language, "scene.status.empty"),
            colour=INFO_COLOUR,
        )
    else:
        title = plural(language, "scene.status.title", living)
        if pages > 1:
            title = plural(language, "scene.status.title_page", living, page=page, pages=pages)
        lines = [status_line(character, language) for character in characters]
        description = first_lines(lines, 0, language, DESCRIPTION_LIMIT)
        embed = discord.Embed(title=title, description=description, colour=INFO_COLOUR)
    if closing is not None:
        embed.set_footer(text=closing)
    return embed


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
            guild_id, dead_only=True, limit=FALLEN_READ, language=language.value
        )
    if out_of_play:
        insane = await reader.list_characters(
            guild_id, out_of_play=True, limit=FALLEN_READ, language=language.value
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
        pages = _pages(in_play)
        page = min(max(page, 1), pages)
        characters = await reader.list_characters(
            here.table_id,
            living_only=True,
            out_of_play=False,
            limit=STATUS_PAGE_LINES,
            offset=(page - 1) * STATUS_PAGE_LINES,
            language=language.value,
        )
        closing = await _closing(reader, here.table_id, language, counts)
    embed = here.titled(status_page_embed(characters, in_play, language, page, closing))
    pager = StatusPageButton.pager(
        page, pages, text(language, "scene.status.previous"), text(language, "scene.status.next")
    )
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
        living_only=True,
        out_of_play=False,
        limit=STATUS_PAGE_LINES,
        language=language.value,
    )
    closing = [text(language, "tracker.updated", time=discord.utils.format_dt(updated_at, "T"))]
    fallen_words = await _closing(reader, guild_id, language, counts)
    if fallen_words is not None:
        closing.insert(0, clip_lines([fallen_words], language, 400))
    room = DESCRIPTION_LIMIT - 2 - sum(len(line) + 1 for line in closing)
    lines = [status_line(c, language) for c in shown]
    if living:
        listed = first_lines(lines, living - len(shown), language, room)
    else:
        listed = text(language, "scene.status.empty")
    description = listed + "\n\n" + "\n".join(closing)
    embed = discord.Embed(
        title=plural(language, "tracker.title", living),
        description=description,
        colour=INFO_COLOUR,
        timestamp=updated_at,
    )
    return [embed]


#: ``salud:page:status:<page>``.
STATUS_PAGE_ID = CustomId("page:status", number("page", 4))


class StatusPageButton(PageButton, custom_id=STATUS_PAGE_ID):
    """Turns ``/scene status`` to another page."""

    async def pressed(self, interaction: discord.Interaction[Any], here: Here) -> None:
        embed, view = await status_message(here, self.page)
        await interaction.response.edit_message(
            embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
        )
