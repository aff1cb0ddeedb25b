"""Calling the player (COMMANDS.md): the public reply in which a character's Consciousness
roll falls due mentions the character's owner, once, with words that a phone's notification
shows (``bot.render.calls``), so that a player who looked away hears of it. The member who
used the command is never called (a GM hurting their own NPC). It is the only mention the
bot ever makes: ``allowed_mentions`` lists those users and nothing else (never roles,
``@everyone``, or anyone named in typed text).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot.i18n import Language
from bot.render.calls import RollCall, call_text
from bot.render.visibility import EVERYONE, shows_numbers
from bot.storage.models import StoredCharacter
from rules.outcome import Outcome
from rules.stability_roll import stability_test_difficulty

__all__ = ["PlayerCall", "call_players", "call_testers"]


@dataclass(frozen=True)
class PlayerCall:
    """The first line of a reply, calling ``owner_ids``; they alone may be pinged."""

    text: str
    owner_ids: tuple[int, ...]

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        """Allowed mentions naming exactly these users (and nobody else)."""
        return discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(id=owner_id) for owner_id in self.owner_ids],
        )

    def before(self, content: str | None) -> str:
        """The reply's text with the call in front (on a line of its own)."""
        return self.text if not content else f"{self.text}\n{content}"


def call_players(
    changes: Iterable[tuple[StoredCharacter | None, Outcome | None]],
    *,
    caller: int,
    language: Language,
) -> PlayerCall | None:
    """The call of the owners of the characters for which this change made a Consciousness
    roll fall due (``Outcome.roll_fell_due``), in the order of the characters, leaving out the
    member who used the command (``caller``); None when there is nobody to call."""
    calls: list[RollCall] = []
    for character, outcome in changes:
        if character is None or outcome is None or not outcome.roll_fell_due:
            continue
        if character.owner_id == caller:
            continue
        difficulty = character.health.consciousness_difficulty
        shown = shows_numbers(character, EVERYONE)  # the call is public
        calls.append(RollCall(character.owner_id, character.name, difficulty if shown else None))
    said = call_text(calls, language)
    if said is None:
        return None
    owners = tuple(dict.fromkeys(call.owner_id for call in calls))
    return PlayerCall(said, owners)


def call_testers(
    characters: Iterable[StoredCharacter], *, caller: int, language: Language
) -> PlayerCall | None:
    """The call of the owners of the characters whose Stability test is due (a GM's call, a
    roll undone: COMMANDS.md "Stability": ``@Lucía: Amelia Ríos debe hacer una Prueba de
    Estabilidad (Dificultad 6)``), each with the Difficulty its player will roll against,
    wounds and being Shaken included; in the order given, leaving out the member who used
    the command; None when there is nobody to call."""
    calls = []
    for character in characters:
        stability = character.stability
        due = None if stability is None else stability.due_test
        if due is None or character.owner_id == caller:
            continue
        raised = stability_test_difficulty(character.health, stability, due.difficulty)
        shown = shows_numbers(character, EVERYONE)  # the call is public
        calls.append(RollCall(character.owner_id, character.name, raised.total if shown else None))
    said = call_text(calls, language, "render.call.stability")
    if said is None:
        return None
    return PlayerCall(said, tuple(dict.fromkeys(call.owner_id for call in calls)))
