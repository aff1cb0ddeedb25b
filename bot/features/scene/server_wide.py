"""Work over every character of a server at once (``/time``, ``/scene new``, ``/refresh``):
how many it concerns, so that a big change is acknowledged before Discord's 3 seconds; the
characters a batch at a time, so that no read builds a whole big server and the event loop
turns between batches; and saving every changed character of a batch in one statement
(Stability too, for those that have it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from bot.interaction.here import Here
from bot.render.change_reply import Touched
from bot.storage.interface import StorageChange
from bot.storage.models import BATCH_SIZE, Among, StoredCharacter
from rules.outcome import Outcome
from rules.scene import start_stability_scene

__all__ = ["batches", "count_among", "new_stability_scene", "save_all"]


async def save_all(
    tx: StorageChange, changed: Sequence[tuple[StoredCharacter, Outcome]]
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
        return await reader.count_among(here.table_id, among)


async def batches(
    tx: StorageChange, guild_id: int, among: Among, size: int = BATCH_SIZE
) -> AsyncIterator[list[StoredCharacter]]:
    """The server's characters ``among`` some, ``size`` at a time, by id (each batch one read
    inside the change's transaction; the loop turns between them). A prepared change reads
    ``TURN_EVERY`` at a time: each read is a trip under the lock of its own, and what is
    worked out between two turns of the loop stays short."""
    after = 0
    while True:
        batch = await tx.batch_of_characters(guild_id, among, after_id=after, limit=size)
        if batch:
            yield batch
        if len(batch) < size:
            return
        after = batch[-1].id


async def new_stability_scene(
    tx: StorageChange,
    started: Sequence[tuple[StoredCharacter, Outcome]],
    touched: Sequence[Touched],
) -> list[Touched]:
    """``/scene new`` for Stability (M6, M10): each character's scene counters back to 0 and
    its lucidity over, saved in one statement; ``touched`` (the Health part) with those
    characters added or brought up to date, their Stability's outcome kept (``stability``)
    for ``bot.render.scene_new.stability_scene_said`` to say in each reader's language. A
    character without Stability costs nothing here."""
    minds = [
        (character, outcome, start_stability_scene(character.stability))
        for character, outcome in started
        if character.stability is not None
    ]
    minds = [item for item in minds if item[2].changed]
    if not minds:
        return list(touched)
    saved = await tx.save_stabilities([(character, mind.after) for character, _, mind in minds])
    result = list(touched)
    where = {item.after.id: index for index, item in enumerate(result) if item.after is not None}
    for (character, outcome, mind), after in zip(minds, saved, strict=True):
        index = where.get(character.id)
        if index is None:
            result.append(Touched(character, after, outcome, stability=mind))
        else:
            item = result[index]
            result[index] = Touched(item.before, after, item.outcome, stability=mind)
    return result
