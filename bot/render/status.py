"""The status embed of one character (the embed that announces a death is a change's:
``bot.render.change.death_embed``).

Pure: values in, ``discord.Embed`` out. Sizes are kept within Discord's limits (25 fields,
1024 characters a field value, 6000 characters an embed) whatever the names and however many
abilities a character has (at most 60, of up to 40 characters).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import discord

from bot.i18n.catalogs import Language, text
from bot.render.common import (
    FLAG_SEPARATOR,
    effects_text,
    flag_list,
    safe,
    state_colour,
    state_label,
)
from bot.render.limits import (
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    FIELDS_PER_EMBED,
    TITLE_LIMIT,
)
from bot.render.stability import stability_status_value
from bot.render.visibility import EVERYONE, Screened, Viewer, shows_numbers
from bot.render.words import state_words
from rules.abilities import Ability, AbilityKind
from rules.state import HealthState

if TYPE_CHECKING:
    from rules.character import CharacterHealth, Gender
    from rules.stability import CharacterStability

__all__ = [
    "ABILITY_SEPARATOR",
    "FIELD_LIMIT",
    "CharacterLike",
    "ability_entries",
    "status_embed",
]

#: Discord's limits on an embed.
FIELD_LIMIT = FIELDS_PER_EMBED
#: Between abilities in the compact list.
ABILITY_SEPARATOR = " · "
# Room kept free under EMBED_TOTAL_LIMIT, for a caller that adds an author line or so.
_EMBED_MARGIN = 200


class CharacterLike(Screened, Protocol):
    """What the renderers read of a stored character (``bot.storage``'s ``StoredCharacter``):
    whose it is and whether its numbers are private (``Screened``), and what is shown."""

    @property
    def name(self) -> str: ...

    @property
    def health(self) -> CharacterHealth: ...

    @property
    def abilities(self) -> Sequence[Ability]: ...

    @property
    def gender(self) -> Gender | None: ...

    @property
    def stability(self) -> CharacterStability | None: ...


def ability_entries(abilities: Sequence[Ability], kind: AbilityKind) -> list[str]:
    """``Name POOL/RATING`` for each ability of ``kind``, sorted by name (ignoring case)."""
    chosen = sorted(
        (ability for ability in abilities if ability.kind is kind),
        key=lambda ability: ability.name.casefold(),
    )
    return [f"{safe(ability.name)} {ability.pool}/{ability.rating}" for ability in chosen]


def _pack(entries: list[str], limit: int) -> list[tuple[str, int]]:
    """Join entries into chunks of at most ``limit`` characters, never splitting an entry;
    each chunk comes with the number of entries in it."""
    chunks: list[tuple[str, int]] = []
    current, count = "", 0
    for entry in entries:
        entry = entry[:limit]
        candidate = f"{current}{ABILITY_SEPARATOR}{entry}" if count else entry
        if len(candidate) <= limit:
            current, count = candidate, count + 1
            continue
        chunks.append((current, count))
        current, count = entry, 1
    if count:
        chunks.append((current, count))
    return chunks


def _add_abilities(embed: discord.Embed, abilities: Sequence[Ability], language: Language) -> None:
    """Add the abilities (investigative, then general) as fields, as many as the limits allow.

    What does not fit is summed up as "… and N more" at the end of the last ability field.
    """
    groups: list[tuple[str, list[str]]] = []
    for kind, key in (
        (AbilityKind.INVESTIGATIVE, "render.status.investigative"),
        (AbilityKind.GENERAL, "render.status.general"),
    ):
        entries = ability_entries(abilities, kind)
        if entries:
            groups.append((text(language, key), entries))
    total = sum(len(entries) for _, entries in groups)
    # Room for the "… and N more" note (and its separator), kept free in every field and in
    # the embed as a whole, so that it always fits where it is needed.
    reserve = len(text(language, "render.status.more", count=total)) + len(ABILITY_SEPARATOR)
    budget = EMBED_TOTAL_LIMIT - _EMBED_MARGIN - len(embed) - reserve
    shown = 0
    first_ability_field = len(embed.fields)
    for title, entries in groups:
        for index, (chunk, count) in enumerate(_pack(entries, FIELD_VALUE_LIMIT - reserve)):
            name = title if index == 0 else text(language, "render.status.continued", title=title)
            if len(embed.fields) >= FIELD_LIMIT or len(name) + len(chunk) > budget:
                _note_rest(embed, language, total - shown, first_ability_field)
                return
            embed.add_field(name=name, value=chunk, inline=False)
            budget -= len(name) + len(chunk)
            shown += count


def _note_rest(
    embed: discord.Embed, language: Language, missing: int, first_ability_field: int
) -> None:
    """Say how many abilities did not fit: after the last ability field, or in a field of its
    own when none fitted at all."""
    note = text(language, "render.status.more", count=missing)
    last_index = len(embed.fields) - 1
    if last_index >= first_ability_field:
        last = embed.fields[last_index]
        value = f"{last.value}{ABILITY_SEPARATOR}{note}"
        embed.set_field_at(last_index, name=last.name, value=value, inline=False)
    elif len(embed.fields) < FIELD_LIMIT:
        embed.add_field(name="\u200b", value=note, inline=False)


def status_embed(
    character: CharacterLike, language: Language, viewer: Viewer = EVERYONE
) -> discord.Embed:
    """The status embed of COMMANDS.md ("Replies"): what a player needs to know at a glance.

    Title: the name, as typed. Colour: by state. Fields, in order: ``Health``/``Salud``
    (value begins ``CURRENT / MAX``), ``State``/``Estado`` (state and flags, then the effects
    on a second line), ``First Aid``/``Primeros Auxilios`` (``POOL / RATING``), then the
    abilities, investigative first; ``Estabilidad`` (``POOL / RATING``, the state and its marks)
    only for a character that has Stability. Footer: Health at the start of the scene and the
    First Aid received this scene against its limit (F2, F3), and what failed Stability tests
    took this scene against the worst incident (M6) once one was rolled. The owner is not
    named: nobody is pinged.

    For a ``viewer`` who may not see the character's numbers: its state, flags and Stability
    in words, nothing more (``bot.render.words``).
    """
    health = character.health
    state = health.state
    embed = discord.Embed(title=character.name[:TITLE_LIMIT], colour=state_colour(state))
    if not shows_numbers(character, viewer):
        embed.add_field(
            name=text(language, "render.status.state"),
            value=state_words(character, language),
            inline=False,
        )
        return embed
    embed.add_field(
        name=text(language, "render.status.health"),
        value=f"{health.health} / {health.max_health}",
        inline=True,
    )
    gender = character.gender
    state_line = FLAG_SEPARATOR.join(
        [f"**{state_label(state, language, gender)}**", *flag_list(health, language, gender)]
    )
    embed.add_field(
        name=text(language, "render.status.state"),
        value=f"{state_line}\n*{effects_text(state, language)}*",
        inline=True,
    )
    embed.add_field(
        name=text(language, "render.status.first_aid"),
        value=f"{health.first_aid_pool} / {health.first_aid_rating}",
        inline=True,
    )
    stability = character.stability
    if stability is not None:  # M1: a character without Stability shows nothing of it
        embed.add_field(
            name=text(language, "render.stability.name"),
            value=stability_status_value(stability, language, gender, health),
            inline=False,
        )
    footer = []
    if gender is not None:
        footer.append(text(language, f"render.status.gender.{gender.value}"))
    if state is not HealthState.DEAD:
        footer.append(
            text(
                language,
                "render.status.footer",
                scene_start_health=health.scene_start_health,
                received=health.first_aid_received,
                limit=health.max_health // 3,
            )
        )
    if stability is not None and stability.scene_worst_loss and state is not HealthState.DEAD:
        footer.append(
            text(
                language,
                "render.stability.footer",
                lost=stability.scene_lost,
                worst=stability.scene_worst_loss,
            )
        )
    if footer:
        embed.set_footer(text=FLAG_SEPARATOR.join(footer))
    if character.abilities:
        _add_abilities(embed, character.abilities, language)
    return embed
