"""The result of an action on one character: before, after, and what happened."""

from __future__ import annotations

from dataclasses import dataclass

from rules.character import CharacterHealth
from rules.events import Event, RollDue

__all__ = ["Outcome"]


@dataclass(frozen=True)
class Outcome:
    """``before`` and ``after`` are whole values, so the bot can store and undo them."""

    before: CharacterHealth
    after: CharacterHealth
    events: tuple[Event, ...]

    @property
    def changed(self) -> bool:
        """Whether any stored value changed (COMMANDS.md: what counts as a change)."""
        return self.before != self.after

    @property
    def roll_fell_due(self) -> bool:
        """Whether a Consciousness roll fell due in this action (C1; G2 for a correction):
        the one answer to "call the player and offer the roll's buttons?"."""
        return any(isinstance(event, RollDue) for event in self.events)
