"""Every kind of roll made with buttons, by its button: the registry registers them
(``bot.features.registry``) and the keeper sweeps their messages (``Services``). A third kind
is one module beside ``consciousness`` and ``stability`` and one line here."""

from __future__ import annotations

from typing import Any

from bot.features.rolls.base import DueRoll, RollButton
from bot.features.rolls.consciousness import ConsciousnessButton
from bot.features.rolls.stability import StabilityTestButton

__all__ = ["ROLL_BUTTONS", "ROLL_KINDS"]

#: The button of each kind of roll.
ROLL_BUTTONS: tuple[type[RollButton], ...] = (ConsciousnessButton, StabilityTestButton)
#: Each kind of roll.
ROLL_KINDS: tuple[DueRoll[Any], ...] = tuple(button.roll_kind for button in ROLL_BUTTONS)
