"""The result of an action on one character: before, after, and what happened."""

from __future__ import annotations

from dataclasses import dataclass

from rules.character import CharacterHealth
from rules.events import Event

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
