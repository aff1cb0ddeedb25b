"""A change of several characters at once, in one embed with a line each (COMMANDS.md
"Changes", "Several characters"), made for a phone:

- the title says what they share, once (``Daño 1d6+1 · explosión de dinamita``);
- a line per character: ``**Name** · Health BEFORE → AFTER / MAX · the state it is in now ·
  the damage with its arithmetic`` (the state as a label unless the gender is known; the
  flags in brief, the pending roll left for the closing line), within two lines of a phone;
- one closing line for the Consciousness rolls pending, grouped by Difficulty, the word
  said once (``Tirada de Consciencia: Dificultad 3 para Amelia Ríos y Jack Malone
  y 1 para Olga``).

A death keeps its own embed (``bot.render.change.change_embeds``: the death embed, its Health
and what killed it) and has no line; when all of them died, what they shared heads the first
death embed instead of an embed of its own with nothing under its title.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.i18n.catalogs import Language, text
from bot.render.change import change_embeds, died, health_value
from bot.render.change_reply import clip_lines, fit_embeds
from bot.render.common import (
    FLAG_SEPARATOR,
    flag_list,
    join_words,
    safe,
    state_colour,
    state_label,
)
from bot.render.limits import DESCRIPTION_LIMIT, EMBED_TOTAL_LIMIT, EMBEDS_PER_MESSAGE, TITLE_LIMIT
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import state_words
from bot.storage.models import StoredCharacter
from rules.outcome import Outcome
from rules.state import HealthState

__all__ = ["Line", "character_line", "rolls_line", "several_embeds"]

#: States from the least to the most severe: the embed takes the colour of the worst.
_SEVERITY = (
    HealthState.HEALTHY,
    HealthState.HURT,
    HealthState.SERIOUSLY_WOUNDED,
    HealthState.DEAD,
)


@dataclass(frozen=True)
class Line:
    """One character of the change: as saved, the rules' outcome, and what the command did
    to it that the others do not share (a damage roll's arithmetic), if anything."""

    character: StoredCharacter
    outcome: Outcome
    detail: str | None = None
    #: The name of ``detail`` in the death embed (``Damage``), when the character died.
    detail_name: str | None = None
    #: Only ``detail`` is news (a ``/refresh``: its pools): the Health and state it kept, and
    #: the rolls it already had pending, are not said again.
    detail_only: bool = False
    #: Its state says that it bleeds (a fresh wound: it undoes a stabilization, D4), so the
    #: flag is not said again on a line that must fit two lines of a phone.
    bleeding_implied: bool = False


def character_line(item: Line, language: Language, viewer: Viewer = EVERYONE) -> str:
    """``**Amelia Ríos** · Salud 8 → -3 / 8 · **Dañada** · [5, 5] + 1 = 11``: the state it is
    in now (the Health before → after says where it came from: a line among four must fit
    two lines of a phone). A character whose numbers ``viewer`` may not see: its name and
    its state in words (``**Profundo** · **Gravemente herido** · Inconsciente``)."""
    character, before = item.character, item.outcome.before
    if not shows_numbers(character, viewer):
        # The pending roll is the closing line's (``rolls_line``), as for anyone.
        said = state_words(character, language, roll=False)
        return f"**{safe(character.name)}**{FLAG_SEPARATOR}{said}"
    if item.detail_only and item.detail:
        return f"**{safe(character.name)}**{FLAG_SEPARATOR}{item.detail}"
    after, gender = character.health, character.gender
    state = f"**{state_label(after.state, language, gender)}**"
    flags = flag_list(after, language, gender, roll=False, brief=True)
    if item.bleeding_implied:
        bleeding = text(language, "render.flag.bleeding.brief")
        flags = [flag for flag in flags if flag != bleeding]
    parts = [
        f"**{safe(character.name)}**",
        text(language, "render.several.health", value=health_value(before, after)),
        FLAG_SEPARATOR.join([state, *flags]),
    ]
    if item.detail:
        parts.append(item.detail)
    return FLAG_SEPARATOR.join(parts)


def rolls_line(
    characters: Sequence[StoredCharacter], language: Language, viewer: Viewer = EVERYONE
) -> str | None:
    """The Consciousness rolls pending among ``characters``, grouped by Difficulty, the word
    said once (``Tirada de Consciencia: Dificultad 3 para Amelia Ríos y 1 para
    Jack Malone``); None when there is none. Those whose numbers ``viewer`` may not see are
    named without a Difficulty, on a sentence of their own."""
    groups: dict[int, list[str]] = {}
    unsaid: list[str] = []
    for character in characters:
        health = character.health
        if health.roll_pending and health.conscious and not health.is_dead:
            if not shows_numbers(character, viewer):
                unsaid.append(safe(character.name))
                continue
            groups.setdefault(health.consciousness_difficulty, []).append(safe(character.name))
    hidden = (
        text(language, "numbers.several.rolls", names=join_words(language, unsaid))
        if unsaid
        else None
    )
    if not groups:
        return hidden
    said = [
        text(
            language,
            "render.several.roll_group",
            names=join_words(language, names),
            difficulty=difficulty,
        )
        for difficulty, names in groups.items()
    ]
    shown = text(language, "render.several.rolls", groups=join_words(language, said))
    return shown if hidden is None else f"{shown}\n{hidden}"


def several_embeds(
    title: str,
    items: Sequence[Line],
    language: Language,
    *,
    lead: str | None = None,
    viewer: Viewer = EVERYONE,
) -> list[discord.Embed]:
    """The embeds of a change of several characters: one titled with what they share, with
    a line for each living one, then a death embed for each that died (see the module).
    ``lead``: what they share that a title would not hold, said once above the lines.

    One message holds them (COMMANDS.md "One message per command"): lines that do not fit
    the description are counted at its end ("… and 12 more"), the rolls' line kept; deaths
    beyond the message's ten embeds are named on a line of their own."""
    living = [item for item in items if not died(item.outcome)]
    dead = [item for item in items if died(item.outcome)]
    rolls = rolls_line(
        [item.character for item in living if not item.detail_only], language, viewer
    )
    share = EMBED_TOTAL_LIMIT // EMBEDS_PER_MESSAGE
    deaths = [
        change_embeds(
            item.character,
            item.outcome,
            language,
            extra_fields=[(item.detail_name, item.detail)]
            if item.detail and item.detail_name
            else [],
            budget=share,
            viewer=viewer,
        )[0]
        for item in dead
    ]
    shown_deaths = deaths[: EMBEDS_PER_MESSAGE - 1]
    closing = [rolls] if rolls else []
    unshown = dead[len(shown_deaths) :]
    if unshown:
        names = join_words(language, [safe(item.character.name) for item in unshown])
        closing.append(text(language, "scene.status.fallen", names=names))
    opening = [lead] if lead else []
    room = DESCRIPTION_LIMIT - sum(len(line) + 1 for line in (*opening, *closing))
    lines = clip_lines([character_line(item, language, viewer) for item in living], language, room)
    if not lines and not closing and shown_deaths:
        # Every one of them died: no embed with nothing but a title; what they shared heads
        # the first death embed (``⏳ Tiempo de juego: +10 min`` above ``Bea ha muerto``),
        # the lead above its description.
        first = shown_deaths[0]
        first.set_author(name=title[:TITLE_LIMIT])
        if lead:
            said = "\n".join(part for part in (lead, first.description) if part)
            first.description = said[:DESCRIPTION_LIMIT]
        return fit_embeds(shown_deaths)
    description = "\n".join(part for part in (*opening, lines, *closing) if part)
    states = [item.character.health.state for item in living] or [HealthState.DEAD]
    worst = max(states, key=_SEVERITY.index)
    main = discord.Embed(
        title=title[:TITLE_LIMIT],
        description=description[:DESCRIPTION_LIMIT] or None,
        colour=state_colour(worst),
    )
    return fit_embeds([main, *shown_deaths])
