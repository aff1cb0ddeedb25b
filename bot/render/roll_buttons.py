"""The words of a roll's buttons (the Consciousness roll, the Stability test): ``Roll
Consciousness``, ``Spend 2 Health``, or, on a message that carries several characters'
buttons, ``Amelia: Roll`` and ``Amelia: +1`` with each character's short name. Which buttons
a reply carries is ``bot.features.rolls.base``'s."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.catalogs import Language, text
from bot.render.calls import short_names as short_call_names
from bot.render.cut import cut
from bot.render.limits import BUTTON_LABEL_LIMIT
from bot.storage.models import StoredCharacter

__all__ = ["roll_label", "safe_label", "short_names"]

#: A name in a label leaves room for ": Roll" / ": +3".
_NAME_IN_LABEL = 60


def short_names(characters: Sequence[StoredCharacter]) -> dict[int, str]:
    """What a button calls each character when one message carries several characters'
    buttons (COMMANDS.md: ``Amelia: Roll``): ``bot.render.calls.short_names``, by id."""
    shown = short_call_names([character.name for character in characters])
    return {character.id: name for character, name in zip(characters, shown, strict=True)}


def safe_label(name: str) -> str:
    """A name in a button's label: labels show no markdown, so it is shown as typed; a name
    longer than the label allows is cut so that the action still shows."""
    return cut(name, _NAME_IN_LABEL)


def roll_label(language: Language, key: str, name: str | None = None, **params: object) -> str:
    """A roll button's words, the catalog's ``key``: naming its character when ``name`` is
    given (``safe_label``), with ``params`` (``points``); within a label's length."""
    if name is not None:
        params["name"] = safe_label(name)
    return cut(text(language, key, **params), BUTTON_LABEL_LIMIT)
