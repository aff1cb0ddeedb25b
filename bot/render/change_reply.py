"""The public reply to a change of several characters (``/scene new``, ``/time``,
``/refresh``, ``/undo``): an embed per character up to ``FULL_REPLY_CHARACTERS``, else one
summary, packed into as few messages as Discord's limits allow."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.i18n.catalogs import Language, text
from bot.render.change import change_embeds, death_embed, died, should_announce
from bot.render.common import Field, flags_text, safe, state_emoji, state_label
from bot.render.limits import CONTENT_LIMIT, EMBED_TOTAL_LIMIT, EMBEDS_PER_MESSAGE, INFO_COLOUR
from bot.render.stability import stability_change_embeds
from bot.render.visibility import EVERYONE, shows_numbers
from bot.render.words import words_line
from bot.storage.models import StoredCharacter
from rules.outcome import Outcome
from rules.stability import StabilityOutcome

__all__ = [
    "FULL_REPLY_CHARACTERS",
    "Touched",
    "announce_touched",
    "change_reply",
    "clip_lines",
    "fit_embeds",
]

#: A change of up to this many characters shows the compact embed of each; more (a crowd
#: bleeding at once), one summary embed with a line each: one public message either way
#: (COMMANDS.md "One message per command"; a message holds 10 embeds).
FULL_REPLY_CHARACTERS = 10
#: The summary's description (under Discord's 4096, leaving room for the death embeds).
SUMMARY_LIMIT = 3500


@dataclass(frozen=True)
class Touched:
    """One character in the reply to a change: as it was, as it is now, and the rules'
    outcome (None for a character created or removed, which has no embed: ``note`` says it).

    ``extra_fields`` go under the status fields (``bot.render.change.change_embeds``); ``note`` is
    the embed's description when the events say nothing (a bleeding clock that only moved on).
    """

    before: StoredCharacter | None
    after: StoredCharacter | None
    outcome: Outcome | None
    extra_fields: tuple[Field, ...] = ()
    note: str | None = None
    #: Its Stability as it was → as it is now, when that moved (an ``/undo`` of a test).
    stability: StabilityOutcome | None = None


def clip_lines(lines: Sequence[str], language: Language, limit: int) -> str:
    """Lines joined with newlines within ``limit`` characters; what does not fit is counted
    at the end ("… and 12 more"), room for which is kept while lines are added."""
    kept: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        rest = len(lines) - index - 1
        more = len(text(language, "scene.more", count=rest)) + 1 if rest else 0
        if size + len(line) + more > limit:
            kept.append(text(language, "scene.more", count=len(lines) - index))
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def compact_line(item: Touched, language: Language) -> str:
    """``🟠 **Ana**: -7 → -9 / 9 · Seriously wounded · Bleeding``: one character in a summary."""
    if item.note is not None and (item.after is None or item.before is None):
        return item.note
    after = item.after
    assert after is not None
    if not shows_numbers(after, EVERYONE):  # the summary is public
        return words_line(after, language)
    health = after.health
    start = "—" if item.before is None else str(item.before.health.health)
    parts = [
        f"{state_emoji(health.state)} **{safe(after.name)}**: "
        f"{start} → {health.health} / {health.max_health}",
        state_label(health.state, language, after.gender),
    ]
    flags = flags_text(health, language, after.gender)
    if flags:
        parts.append(flags)
    return " · ".join(parts)


def change_reply(
    header: str, touched: Sequence[Touched], language: Language
) -> tuple[str, list[discord.Embed], list[list[discord.Embed]]]:
    """Content and embeds of the public reply to a change of several characters, and the
    embeds of the further messages it needs; every message within Discord's limits (2000
    characters of content; 10 embeds and 6000 characters of embeds).

    Up to ``FULL_REPLY_CHARACTERS`` characters, an embed per character touched (COMMANDS.md):
    the status embed of each after the change with its events in words (``change_embeds``),
    death embeds included, packed into as few messages as hold them. More: one summary embed
    with a line per character (Health before → after, state, flags) and the death embeds that
    fit. Characters created or removed are said in the content.
    """
    shown = [item for item in touched if item.after is not None and item.outcome is not None]
    notes = [
        item.note for item in touched if (item.after is None or item.outcome is None) and item.note
    ]
    content = header
    if notes:
        content += "\n" + clip_lines(notes, language, CONTENT_LIMIT - len(header) - 1)
    if not shown:
        return content, [], []
    if len(shown) <= FULL_REPLY_CHARACTERS:
        messages = _pack([_character_embeds(item, language, len(shown)) for item in shown])
        return content, messages[0], messages[1:]
    summary = discord.Embed(
        title=text(language, "scene.summary.title", count=len(shown)),
        description=clip_lines(
            [compact_line(item, language) for item in shown], language, SUMMARY_LIMIT
        ),
        colour=INFO_COLOUR,
    )
    dead = [
        death_embed(item.after, language)
        for item in shown
        if item.after is not None and item.outcome is not None and died(item.outcome)
    ]
    return content, fit_embeds([summary, *dead]), []


def _character_embeds(item: Touched, language: Language, count: int) -> list[discord.Embed]:
    """One character's status embed (and death embed), sized so that several share a
    message: all of a message's room for one or a few, a tenth of it in a crowd."""
    assert item.after is not None and item.outcome is not None
    budget = EMBED_TOTAL_LIMIT // min(max(count, 1), EMBEDS_PER_MESSAGE // 2)
    if count > EMBEDS_PER_MESSAGE // 2:
        budget = EMBED_TOTAL_LIMIT // EMBEDS_PER_MESSAGE
    outcome, stability = item.outcome, item.stability
    moved = stability is not None and stability.changed and stability.after is not None
    if stability is not None and moved and not _health_moved(outcome):
        # Only the mind moved (a Stability roll undone): its pool, not an unchanged Health.
        part = stability_change_embeds(
            item.after, stability, language, extra_fields=item.extra_fields
        )
    else:
        part = change_embeds(
            item.after,
            outcome,
            language,
            extra_fields=item.extra_fields,
            budget=budget,
            stability=stability if moved else None,
        )
    if item.note and not part[0].description:
        part[0].description = item.note[: max(1, budget - len(part[0]) - 1)]
    return part


def _health_moved(outcome: Outcome) -> bool:
    before, after = outcome.before, outcome.after
    return (before.health, before.max_health, before.state) != (
        after.health,
        after.max_health,
        after.state,
    ) or (before.conscious, before.roll_pending) != (after.conscious, after.roll_pending)


def _pack(parts: Sequence[list[discord.Embed]]) -> list[list[discord.Embed]]:
    """Each character's embeds, in order and kept together, in as few messages as hold them."""
    messages: list[list[discord.Embed]] = [[]]
    total = 0
    for part in parts:
        size = sum(len(embed) for embed in part)
        current = messages[-1]
        if current and (
            len(current) + len(part) > EMBEDS_PER_MESSAGE or total + size > EMBED_TOTAL_LIMIT
        ):
            messages.append([])
            total = 0
        messages[-1].extend(fit_embeds(part))
        total += size
    return messages


def fit_embeds(embeds: Sequence[discord.Embed]) -> list[discord.Embed]:
    """As many of ``embeds`` (in order) as one message holds: 10, and 6000 characters in all."""
    kept: list[discord.Embed] = []
    total = 0
    for embed in embeds:
        size = len(embed)
        if len(kept) >= EMBEDS_PER_MESSAGE or total + size > EMBED_TOTAL_LIMIT:
            continue
        kept.append(embed)
        total += size
    return kept


def announce_touched(touched: Sequence[Touched]) -> bool:
    """Also post in the announcement channel: someone changed state, was knocked out or died."""
    return should_announce(item.outcome for item in touched if item.outcome is not None)
