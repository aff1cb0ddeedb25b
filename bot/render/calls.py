"""The words that call a player whose character must make a Consciousness roll or a
Stability test (COMMANDS.md "Calling the player", "Stability"): the first line of the reply,
the one a phone's notification shows.

One player called for one character: the sentence in full (``@Lucía: Amelia Ríos debe hacer
una Tirada de Consciencia (Dificultad 3)``). More: one line naming each player with their
characters as their buttons do (``Tirada de Consciencia: @Lucía (Amelia) y @Marcos
(Jack)``: four players fit three lines of a phone), the Difficulties being on the reply's
own lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.i18n.catalogs import Language, text
from bot.render.common import join_words, mention, safe

__all__ = ["RollCall", "call_text", "short_names"]

#: First words that are a title, not a name, in the two languages: ``Padre: Tirar`` would
#: not say who rolls, so such a character's buttons carry the whole name.
_TITLE_WORDS = """
    padre madre hermano hermana fray sor don doña señor señora señorita doctor doctora
    profesor profesora sargento capitán capitana teniente inspector inspectora agente
    detective father mother brother sister mister miss lady lord sir dame professor
    sergeant captain lieutenant agent reverend
"""
_TITLES = frozenset(_TITLE_WORDS.split())


def short_names(names: Sequence[str]) -> list[str]:
    """What one message calls each of several characters (their buttons, ``Amelia: Roll``,
    and the call of their players): its first word when that word is nobody else's here and
    is no abbreviation (``Sgt.``) or title (``Padre``), else its whole name."""
    firsts = [name.split(" ", 1)[0] for name in names]
    short = []
    for name, first in zip(names, firsts, strict=True):
        unique = firsts.count(first) == 1
        is_title = first.endswith(".") or first.casefold() in _TITLES
        usable = unique and not is_title and len(first) >= 3
        short.append(first if usable else name)
    return short


def _name(name: str) -> str:
    """A character's name in the call's text: as typed, and never read as a mention (a
    character named ``@everyone`` or ``<@&1>`` shows as such; it would ping nobody anyway)."""
    return discord.utils.escape_mentions(safe(name))


@dataclass(frozen=True)
class RollCall:
    """One character whose roll fell due, and the player to call for it."""

    owner_id: int
    name: str
    #: None for a character whose numbers the table does not see: called without it.
    difficulty: int | None


def call_text(
    calls: Sequence[RollCall], language: Language, what: str = "render.call"
) -> str | None:
    """The line that calls the players of ``calls`` (None when nobody is called); ``what``:
    the keys of the words, ``render.call`` for a Consciousness roll, ``render.call.stability``
    for a Stability test (each with ``.one`` and ``.several``)."""
    if not calls:
        return None
    owners: dict[int, list[str]] = {}
    shown = short_names([call.name for call in calls])
    for call, name in zip(calls, shown, strict=True):
        owners.setdefault(call.owner_id, []).append(_name(name))
    if len(calls) == 1:
        (call,) = calls
        return text(
            language,
            f"{what}.one" if call.difficulty is not None else f"{what}.one.words",
            player=mention(call.owner_id),
            name=_name(call.name),
            difficulty=call.difficulty,
        )
    named = [f"{mention(owner)} ({join_words(language, names)})" for owner, names in owners.items()]
    return text(language, f"{what}.several", players=join_words(language, named))
