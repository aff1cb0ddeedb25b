"""Calling the player (COMMANDS.md): the public reply in which a character's Consciousness
roll falls due mentions the character's owner, once, so that a player who looked away hears
of it. It is the only mention the bot ever makes: ``allowed_mentions`` lists those users and
nothing else (never roles, ``@everyone``, or anyone named in typed text).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from bot.storage import StoredCharacter
from rules.outcome import Outcome

__all__ = ["call_content", "call_mentions", "owners_to_call"]


def owners_to_call(changes: Iterable[tuple[StoredCharacter | None, Outcome | None]]) -> list[int]:
    """The owners of the characters for which this change made a roll fall due, each once,
    in the order of the characters."""
    owners: list[int] = []
    for character, outcome in changes:
        if character is None or outcome is None:
            continue
        if outcome.roll_fell_due and character.owner_id not in owners:
            owners.append(character.owner_id)
    return owners


def call_mentions(owner_ids: Sequence[int]) -> discord.AllowedMentions:
    """Allowed mentions naming exactly these users (and nobody else)."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=owner_id) for owner_id in owner_ids],
    )


def call_content(owner_ids: Sequence[int], content: str | None) -> str | None:
    """The reply's text with the mentions of the players called in front (on a line of their
    own when there was text already)."""
    if not owner_ids:
        return content
    mentions = " ".join(f"<@{owner_id}>" for owner_id in owner_ids)
    return mentions if not content else f"{mentions}\n{content}"
