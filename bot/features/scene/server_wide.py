"""Work over every character of a server at once (``/time``, ``/scene new``, ``/refresh``):
how many there are, so that a big change is acknowledged before Discord's 3 seconds, and
saving every changed character in one statement."""

from __future__ import annotations

from collections.abc import Sequence

from bot.interaction.here import Here
from bot.render.change_reply import Touched
from bot.storage import StoredCharacter, Transaction
from rules.outcome import Outcome

__all__ = ["count_characters", "save_all"]


async def save_all(
    tx: Transaction, changed: Sequence[tuple[StoredCharacter, Outcome]]
) -> list[Touched]:
    """Save every changed character in one statement (one storage round trip for all)."""
    saved = await tx.save_healths([(character, outcome.after) for character, outcome in changed])
    return [
        Touched(character, after, outcome)
        for (character, outcome), after in zip(changed, saved, strict=True)
    ]


async def count_characters(here: Here, *, living_only: bool) -> int:
    """How many characters the server has (the living ones only, when asked)."""
    async with here.read() as reader:
        return await reader.count_characters(here.guild_id, living_only=living_only)
