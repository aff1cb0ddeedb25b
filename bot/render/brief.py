"""The reply to a command that moves no state (COMMANDS.md "Replies that move no state":
``/check``, ``/spend``, ``/ability set|remove``, ``/character create|rename``): one compact
embed of what happened, at most 6 lines on a phone. The title is the character's name, the
colour its state's; the sheet (the three columns, the abilities, the scene counters) is
``/character show``'s alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n.catalogs import Language, text
from bot.render.common import state_colour
from bot.render.limits import DESCRIPTION_LIMIT, FIELD_VALUE_LIMIT, TITLE_LIMIT
from bot.render.status import CharacterLike
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import state_words

__all__ = ["brief_embed", "created_embed"]


def brief_embed(
    character: CharacterLike,
    *,
    description: str | None = None,
    fields: Sequence[tuple[str, str]] = (),
    inline: bool = False,
    words: str | None = None,
    language: Language | None = None,
    viewer: Viewer = EVERYONE,
) -> discord.Embed:
    """The character's name, what happened in a sentence (``description``) and the
    command's own fields (a test's roll), each field ``inline`` or full width.

    When ``viewer`` may not see the character's numbers (``bot.render.visibility``), the
    fields are left out and the sentence is ``words`` (what happened, said without a
    number), else its state in words (in ``language``)."""
    if not shows_numbers(character, viewer):
        fields = ()
        if words is None and language is not None:
            words = state_words(character, language)
        description = words
    embed = discord.Embed(
        title=character.name[:TITLE_LIMIT],
        description=description[:DESCRIPTION_LIMIT] if description else None,
        colour=state_colour(character.health.state),
    )
    for name, value in fields:
        embed.add_field(name=name, value=value[:FIELD_VALUE_LIMIT], inline=inline)
    return embed


def created_embed(character: CharacterLike, said: str, language: Language) -> discord.Embed:
    """A new character: who plays it (``said``), and its Health and First Aid, side by side
    (and its Stability, when the table gave it one)."""
    health = character.health
    fields = [
        (text(language, "render.status.health"), f"{health.health} / {health.max_health}"),
        (
            text(language, "render.status.first_aid"),
            f"{health.first_aid_pool} / {health.first_aid_rating}",
        ),
    ]
    stability = character.stability
    if stability is not None:
        fields.append(
            (text(language, "render.stability.name"), f"{stability.pool} / {stability.rating}")
        )
    return brief_embed(character, description=said, fields=fields, inline=True, words=said)
