"""The public reply to a change: one status embed per character touched, in words.

Every health command (``/hurt``, ``/conscious``, ``/firstaid``, ``/rest``, ``/time`` …) answers
the same way, so players learn one shape: the character's status embed *after* the change,
the events in its description ("Ana takes 5 damage.", "Ana is now Hurt."), the dice as extra
fields where a roll was made, and a death embed when it died. ``should_announce`` says whether
that reply also goes to the announcement channel (``bot.context.send_change``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import discord

from bot.context import announce_worthy
from bot.i18n import Language
from bot.render import death_embed, describe_events, status_embed
from bot.storage import StoredCharacter
from rules.outcome import Outcome
from rules.state import HealthState

__all__ = [
    "DESCRIPTION_LIMIT",
    "MESSAGE_EMBED_LIMIT",
    "Field",
    "change_embeds",
    "died",
    "should_announce",
]

#: Discord: all the embeds of one message together hold at most 6000 characters.
MESSAGE_EMBED_LIMIT = 6000
#: Discord: an embed description holds at most 4096 characters.
DESCRIPTION_LIMIT = 4096
#: The Health, State and First Aid fields of the status embed come first; extra fields follow.
_STATUS_FIELDS = 3
_FIELD_NAME_LIMIT = 256
_FIELD_VALUE_LIMIT = 1024

#: An extra field: ``(name, value)``; shown full width under the status fields.
Field = tuple[str, str]


def died(outcome: Outcome) -> bool:
    """Whether the change killed the character (it was alive before and is dead after)."""
    return outcome.after.state is HealthState.DEAD and outcome.before.state is not HealthState.DEAD


def should_announce(outcomes: Iterable[Outcome]) -> bool:
    """Whether a reply also goes to the announcement channel: some character touched changed
    state, was knocked out, or died (COMMANDS.md ``/config channel``)."""
    return any(
        outcome.changed and announce_worthy(outcome.before, outcome.after) for outcome in outcomes
    )


def _clip(value: str, limit: int) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _status_with_events(
    character: StoredCharacter,
    outcome: Outcome,
    language: Language,
    extra_fields: Sequence[Field],
    description_limit: int,
) -> discord.Embed:
    embed = status_embed(character, language)
    sentences = describe_events(character.name, outcome.events, language)
    if sentences:
        embed.description = _clip("\n".join(sentences), description_limit)
    for offset, (name, value) in enumerate(extra_fields):
        embed.insert_field_at(
            min(_STATUS_FIELDS + offset, len(embed.fields)),
            name=_clip(name, _FIELD_NAME_LIMIT),
            value=_clip(value, _FIELD_VALUE_LIMIT),
            inline=False,
        )
    return embed


def change_embeds(
    character: StoredCharacter,
    outcome: Outcome,
    language: Language,
    *,
    extra_fields: Sequence[Field] = (),
    budget: int = MESSAGE_EMBED_LIMIT,
) -> list[discord.Embed]:
    """The embeds that show one character's change: its status embed after it (``character``
    as saved), with the events of ``outcome`` in words as the description and ``extra_fields``
    (a roll, the dice) after the Health/State/First Aid fields; then a death embed when the
    change killed it.

    The embeds together stay within ``budget`` characters (give each character its share when
    one message shows several): the ability fields are left out first (``/character show``
    has them), then the description is shortened.
    """
    extra = list(extra_fields)
    tail = [death_embed(character, language)] if died(outcome) else []
    tail_size = sum(len(embed) for embed in tail)
    embed = _status_with_events(character, outcome, language, extra, DESCRIPTION_LIMIT)
    if len(embed) + tail_size > budget and character.abilities:
        bare = dataclasses.replace(character, abilities=())
        embed = _status_with_events(bare, outcome, language, extra, DESCRIPTION_LIMIT)
    excess = len(embed) + tail_size - budget
    if excess > 0 and embed.description:
        room = max(1, len(embed.description) - excess)
        embed.description = _clip(embed.description, room)
    return [embed, *tail]
