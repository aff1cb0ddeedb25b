"""Work over every character of a server at once (``/time``, ``/scene new``, ``/refresh``):
how many it concerns, so that a big change is acknowledged before Discord's 3 seconds; the
characters a batch at a time, so that no read builds a whole big server and the event loop
turns between batches; and saving every changed character of a batch in one statement."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from bot.interaction.here import Here
from bot.render.change_reply import Touched
from bot.storage import BATCH_SIZE, Among, StoredCharacter, Transaction
from rules.outcome import Outcome

__all__ = ["batches", "count_among", "save_all"]


async def save_all(
    tx: Transaction, changed: Sequence[tuple[StoredCharacter, Outcome]]
) -> list[Touched]:
    """Save every changed character in one statement (one storage round trip for all)."""
    if not changed:
        return []
    saved = await tx.save_healths([(character, outcome.after) for character, outcome in changed])
    return [
        Touched(character, after, outcome)
        for (character, outcome), after in zip(changed, saved, strict=True)
    ]


async def count_among(here: Here, among: Among) -> int:
    """How many of the server's characters a change ``among`` them would touch at most."""
    async with here.read() as reader:
        return await reader.count_among(here.guild_id, among)


async def batches(
    tx: Transaction, guild_id: int, among: Among
) -> AsyncIterator[list[StoredCharacter]]:
    """The server's characters ``among`` some, ``BATCH_SIZE`` at a time, by id (each batch
    one read inside the change's transaction; the loop turns between them)."""
    after = 0
    while True:
        batch = await tx.batch_of_characters(guild_id, among, after_id=after)
        if batch:
            yield batch
        if len(batch) < BATCH_SIZE:
            return
        after = batch[-1].id
