"""The reply of a ``/scene new`` (COMMANDS.md; RULES.md S1, S2, M6, M10): a line for each
character the new scene changed, what it resets said once (Stability's only where a
character has it), and what it did to each one's Stability; one sentence when it changed
nobody."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n.catalogs import Language, plural, text
from bot.render.change_reply import Touched
from bot.render.common import FLAG_SEPARATOR
from bot.render.several import Line, several_embeds
from bot.render.stability import stability_sentences
from bot.render.visibility import Viewer
from rules.stability import StabilityOutcome

__all__ = ["new_scene_embeds", "new_scene_unchanged", "stability_scene_said"]


def _counters_reset(mind: StabilityOutcome, language: Language) -> list[str]:
    """``Estabilidad perdida en pruebas 6 → 0`` (or the worst incident's, when its tests
    lost nothing): what the new scene's cap (M6) reset for this character."""
    before = mind.before
    if before is None:
        return []
    if before.scene_lost:
        return [text(language, "scene.new.stability_lost", lost=before.scene_lost)]
    if before.scene_worst_loss:
        return [text(language, "scene.new.stability_worst", worst=before.scene_worst_loss)]
    return []


def stability_scene_said(item: Touched, language: Language) -> str | None:
    """What a new scene did to a character's Stability (the Stability its tests lost this
    scene, lucidity's end), in words on one line; None when nothing."""
    mind, after = item.stability, item.after
    if mind is None or after is None:
        return None
    said = FLAG_SEPARATOR.join(
        [*_counters_reset(mind, language), *stability_sentences(after, mind.events, language)]
    )
    return said.replace("\n", " ") or None


def new_scene_embeds(
    touched: Sequence[Touched], minds: bool, language: Language, viewer: Viewer
) -> list[discord.Embed]:
    """The characters a new scene changed, a line each; ``minds``: some has Stability."""
    lines = [
        Line(item.after, item.outcome, detail=stability_scene_said(item, language))
        for item in touched
        if item.after and item.outcome
    ]
    lead = text(language, "scene.new.resets_stability" if minds else "scene.new.resets")
    title = text(language, "scene.new.title")
    return several_embeds(title, lines, language, lead=lead, viewer=viewer)


def new_scene_unchanged(living: int, language: Language) -> str:
    """A new scene that changed nobody: no character at all, or ``living`` unchanged."""
    if not living:
        return text(language, "scene.new.no_characters")
    return plural(language, "scene.new.unchanged", living)
