"""The dice the bot rolls with: one ``Roller`` given to the bot at start (never global).

Production uses ``rules.dice.SystemRoller`` (``random.SystemRandom``); tests build the bot with
a scripted roller instead, through ``SaludBot(roller=...)``.
"""

from __future__ import annotations

from rules.dice import Roller, SystemRoller

__all__ = ["Roller", "SystemRoller", "production_roller"]


def production_roller() -> Roller:
    """The roller of a real game: the operating system's randomness."""
    return SystemRoller()
