"""The replies of ``/time`` and ``/refresh`` (COMMANDS.md; RULES.md T1, P1): a line for each
character that bled or whose pools came back, in one embed (``bot.render.several``), or one
sentence when nothing moved."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.i18n.catalogs import Language, plural, text
from bot.render.change_reply import Touched
from bot.render.common import duration_text, safe
from bot.render.several import Line, several_embeds
from bot.render.visibility import Viewer
from bot.storage.models import StoredCharacter
from rules.abilities import Ability
from rules.outcome import Outcome
from rules.stability import StabilityOutcome

__all__ = [
    "Refreshed",
    "bleeding_line",
    "nobody_bleeding",
    "refresh_embeds",
    "refresh_line",
    "refresh_unchanged",
    "time_embeds",
]


def bleeding_line(item: Touched, language: Language) -> Line:
    """A character of a ``/time``: its Health before → after says what bleeding took; a
    clock that moved on without taking a point says how far it got (T1)."""
    assert item.after is not None and item.outcome is not None
    detail = None
    if not item.outcome.events:
        detail = text(language, "scene.time.clock_line", minutes=item.after.health.bleed_minutes)
    return Line(item.after, item.outcome, detail=detail)


def time_embeds(
    touched: Sequence[Touched], minutes: int, language: Language, viewer: Viewer
) -> list[discord.Embed]:
    """A ``/time`` that made some bleed, in the reader's language: the public one, or the
    GM's own (their numbers)."""
    title = text(language, "scene.time.title", duration=duration_text(language, minutes))
    lines = [bleeding_line(item, language) for item in touched]
    return several_embeds(title, lines, language, viewer=viewer)


def nobody_bleeding(minutes: int, language: Language) -> str:
    """A ``/time`` with nobody bleeding: the time passed, and that nobody lost Health."""
    duration = duration_text(language, minutes)
    header = plural(language, "scene.time.passed", minutes, duration=duration)
    return header + "\n" + text(language, "scene.time.nobody_bleeding")


def refresh_line(
    character: StoredCharacter,
    saved: StoredCharacter,
    outcome: Outcome,
    abilities: tuple[Ability, ...],
    mind: StabilityOutcome,
    language: Language,
) -> Line:
    """A refreshed character's line: which pools moved (``character`` before, ``saved``
    after)."""
    refreshed = []
    if outcome.changed:
        health = saved.health
        refreshed.append(
            f"{text(language, 'render.status.first_aid')} {character.health.first_aid_pool}"
            f" → {health.first_aid_pool} / {health.first_aid_rating}"
        )
    refreshed += [
        f"{safe(after.name)} {before.pool} → {after.pool} / {after.rating}"
        for before, after in zip(character.abilities, abilities, strict=True)
        if before.pool != after.pool
    ]
    if mind.before is not None and mind.after is not None and mind.changed:
        stability = text(language, "render.stability.name")
        refreshed.append(
            f"{stability} {mind.before.pool} → {mind.after.pool} / {mind.after.rating}"
        )
    # Only the pools moved: the Health, state and pending roll it kept are not said again.
    return Line(saved, outcome, detail=" · ".join(refreshed), detail_only=True)


@dataclass(frozen=True)
class Refreshed:
    """One character of a ``/refresh``: as it was, as saved, and what moved (P1, M11)."""

    before: StoredCharacter
    saved: StoredCharacter
    outcome: Outcome
    abilities: tuple[Ability, ...]
    mind: StabilityOutcome

    def said(self, language: Language) -> Line:
        """Its line, in ``language`` (the public one, or the GM's own)."""
        return refresh_line(
            self.before, self.saved, self.outcome, self.abilities, self.mind, language
        )


def refresh_embeds(
    lines: Sequence[Refreshed], language: Language, viewer: Viewer
) -> list[discord.Embed]:
    """A ``/refresh`` that moved some pools, in the reader's language: the public one, or
    the GM's own (their numbers)."""
    title = plural(language, "scene.refresh.title", len(lines))
    said = [line.said(language) for line in lines]
    return several_embeds(title, said, language, viewer=viewer)


def refresh_unchanged(name: str | None, language: Language) -> str:
    """A ``/refresh`` that moved nothing: of the whole server (``name`` None), or of the
    character called ``name``."""
    if name is None:
        return text(language, "scene.refresh.unchanged_all")
    return text(language, "scene.refresh.unchanged", name=safe(name))
