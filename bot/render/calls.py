"""The words that call a player whose character must make a Consciousness roll or a
Stability test (COMMANDS.md "Calling the player", "Stability"): the first line of the reply,
the one a phone's notification shows.

One player called for one character: the sentence in full (``@Lucía: Amelia Ríos debe hacer
una Tirada de Consciencia (Dificultad 3)``). More: one line naming each player with their
characters (``Tirada de Consciencia: @Lucía (Amelia Ríos) y @Marcos (Jack Malone)``), the
Difficulties being on the reply's own lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.i18n import Language, text
from bot.render.common import join_words, safe
from bot.render.history import mention

__all__ = ["RollCall", "call_text"]


def _name(name: str) -> str:
    """A character's name in the call's text: as typed, and never read as a mention (a
    character named ``@everyone`` or ``<@&1>`` shows as such; it would ping nobody anyway)."""
    return discord.utils.escape_mentions(safe(name))


@dataclass(frozen=True)
class RollCall:
    """One character whose roll fell due, and the player to call for it."""

    owner_id: int
    name: str
    difficulty: int


def call_text(
    calls: Sequence[RollCall], language: Language, what: str = "render.call"
) -> str | None:
    """The line that calls the players of ``calls`` (None when nobody is called); ``what``:
    the keys of the words, ``render.call`` for a Consciousness roll, ``render.call.stability``
    for a Stability test (each with ``.one`` and ``.several``)."""
    if not calls:
        return None
    owners: dict[int, list[str]] = {}
    for call in calls:
        owners.setdefault(call.owner_id, []).append(_name(call.name))
    if len(calls) == 1:
        (call,) = calls
        return text(
            language,
            f"{what}.one",
            player=mention(call.owner_id),
            name=_name(call.name),
            difficulty=call.difficulty,
        )
    named = [f"{mention(owner)} ({join_words(language, names)})" for owner, names in owners.items()]
    return text(language, f"{what}.several", players=join_words(language, named))
