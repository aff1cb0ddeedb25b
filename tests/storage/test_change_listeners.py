"""``Storage.on_change``: what the live tracker and the roll buttons follow."""

from __future__ import annotations

from bot.storage import Storage
from bot.storage.models import NewCharacter

from .conftest import ALICE, GM, GUILD_A, Interactions, health


async def test_listeners_hear_each_recorded_change_once(
    storage: Storage, next_id: Interactions
) -> None:
    heard: list[tuple[int, tuple[int, ...]]] = []
    storage.on_change(lambda guild_id, ids: heard.append((guild_id, ids)))
    async with storage.transaction() as tx:
        ann = await tx.create_character(NewCharacter(GUILD_A, "Ann", ALICE, health(9)))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    async with storage.transaction(require_record=False) as tx:
        await tx.set_meta("unrecorded", "no change of a character")
    assert heard == [(GUILD_A, (ann.id,))]
