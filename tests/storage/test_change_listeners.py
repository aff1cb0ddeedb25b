"""``Storage.on_change``: what the live tracker and the roll buttons follow."""

from __future__ import annotations

import asyncio
import time

from bot.storage import Storage
from bot.storage.fair_lock import Ticket, current_ticket

from .conftest import ALICE, GM, GUILD_A, Interactions, health


async def test_listeners_hear_each_change_as_background_work(
    storage: Storage, next_id: Interactions
) -> None:
    """The work a listener schedules must not carry the committing interaction's storage
    ticket: its deadline would refuse that work the lock under load (a LockDeadline logged by
    the roll-button sweep or the tracker, seen in the kill -9 stress test)."""
    heard: list[tuple[int, tuple[int, ...], Ticket | None]] = []
    in_tasks: list[Ticket | None] = []
    tasks: list[asyncio.Task[None]] = []

    async def later() -> None:
        in_tasks.append(current_ticket.get())

    def listener(guild_id: int, character_ids: tuple[int, ...]) -> None:
        heard.append((guild_id, character_ids, current_ticket.get()))
        tasks.append(asyncio.get_running_loop().create_task(later()))

    storage.on_change(listener)
    token = current_ticket.set(Ticket(GUILD_A, time.time() + 2.4))
    try:
        async with storage.transaction() as tx:
            ann = await tx.create_character(GUILD_A, "Ann", ALICE, health(9))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
        async with storage.transaction(require_record=False) as tx:
            await tx.set_meta("unrecorded", "no change of a character")
    finally:
        current_ticket.reset(token)
    await asyncio.gather(*tasks)
    assert heard == [(GUILD_A, (ann.id,), None)]
    assert in_tasks == [None]
