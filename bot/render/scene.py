"""``/scene status`` and the live tracker in words: every character in play on a line
(Health, state, flags) in the order a reader of the server's language expects, the dead and
the incurably insane (out of play, M4) on one closing line; a page of ``/scene status`` holds
20 characters, the tracker, one message that cannot page, the first 20 and how many more
(COMMANDS.md, One message per command). What is read, and when, is
``bot.features.scene.status``'s."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.i18n.catalogs import Language, plural, text
from bot.render.change_reply import clip_lines
from bot.render.common import FLAG_SEPARATOR, flags_text, line_params
from bot.render.limits import DESCRIPTION_LIMIT, FOOTER_LIMIT, INFO_COLOUR
from bot.render.stability import stability_brief
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import words_line
from bot.storage.models import StoredCharacter

__all__ = [
    "STATUS_PAGE_LINES",
    "fallen_line",
    "first_lines",
    "page_count",
    "pager_labels",
    "status_line",
    "status_page_embed",
    "tracker_embed",
]

#: Characters a page of ``/scene status`` (and the tracker) shows at most.
STATUS_PAGE_LINES = 20


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


def page_count(living: int) -> int:
    """The pages of ``/scene status`` for ``living`` characters in play (one when none)."""
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
    pages = page_count(living)
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


def pager_labels(language: Language) -> tuple[str, str]:
    """The words of ``/scene status``'s ◀ ▶ buttons: previous, next."""
    return text(language, "scene.status.previous"), text(language, "scene.status.next")


def tracker_embed(
    shown: Sequence[StoredCharacter],
    living: int,
    closing: str | None,
    language: Language,
    updated_at: datetime,
) -> discord.Embed:
    """The live tracker: ``shown``, the first characters in play, as ``/scene status`` shows
    them and how many more of the ``living`` in play, ``closing`` (the dead and the out of
    play, ``fallen_line``) and the time of this update, within one embed's limits."""
    lines_after = [text(language, "tracker.updated", time=discord.utils.format_dt(updated_at, "T"))]
    if closing is not None:
        lines_after.insert(0, clip_lines([closing], language, 400))
    room = DESCRIPTION_LIMIT - 2 - sum(len(line) + 1 for line in lines_after)
    lines = [status_line(c, language) for c in shown]
    if living:
        listed = first_lines(lines, living - len(shown), language, room)
    else:
        listed = text(language, "scene.status.empty")
    description = listed + "\n\n" + "\n".join(lines_after)
    return discord.Embed(
        title=plural(language, "tracker.title", living),
        description=description,
        colour=INFO_COLOUR,
        timestamp=updated_at,
    )
