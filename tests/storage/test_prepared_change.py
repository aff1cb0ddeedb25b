"""A whole server's change prepared before the write lock (``Storage.prepared_change``, issue
24 point 16b): the same one transaction with its history entry as an ordinary change, on both
engines; another server's change goes through while it is prepared; a change of one of its
characters made between its reads and its write is not lost (it is prepared again)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.storage import Among, Storage, StorageChange
from bot.storage.interface import HistoryQuery
from rules.scene import start_scene

from .conftest import ALICE, GM, GUILD_A, GUILD_B, Interactions, create, health


async def new_scene(
    tx: StorageChange, interaction_id: int, runs: list[int]
) -> list[tuple[str, int]]:
    """``/scene new``'s work, as the cog does it: each living character's scene starts at its
    Health now; returns the names and Health it saved."""
    runs.append(1)
    saved = []
    after = 0
    while batch := await tx.batch_of_characters(GUILD_A, Among.LIVING, after_id=after):
        changed = [(c, start_scene(c.health).after) for c in batch]
        saved += await tx.save_healths(changed)
        after = batch[-1].id
    await tx.record(
        guild_id=GUILD_A, interaction_id=interaction_id, actor_id=GM, command="scene new"
    )
    return [(c.name, c.health.scene_start_health) for c in saved]


async def wounded(storage: Storage, next_id: Interactions, names: list[str]) -> None:
    """Characters whose Health is below the start of their scene."""
    for name in names:
        character = await create(storage, next_id, name)
        async with storage.transaction(guild_id=GUILD_A) as tx:
            await tx.save_health(character, replace(health(), health=6))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="hurt")


async def test_a_prepared_change_is_one_recorded_transaction(
    storage: Storage, next_id: Interactions
) -> None:
    await wounded(storage, next_id, ["Ana", "Bea"])
    runs: list[int] = []
    interaction = next_id()
    saved = await storage.prepared_change(
        lambda tx: new_scene(tx, interaction, runs), guild_id=GUILD_A
    )
    assert saved == [("Ana", 6), ("Bea", 6)] and len(runs) == 1
    async with storage.read() as reader:
        latest = (await reader.history(GUILD_A, HistoryQuery(limit=1)))[0]
        ana = (await reader.list_characters(GUILD_A))[0]
    assert latest.interaction_id == interaction and latest.command == "scene new"
    assert latest.number == 5 and {c.name for c in latest.characters} == {"Ana", "Bea"}
    assert ana.health.scene_start_health == 6
    # Its entry is undone as any other: both back to a scene started at 10.
    async with storage.transaction(guild_id=GUILD_A) as tx:
        undone = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert undone is not None and undone.reverted.id == latest.id
    assert {c.health.scene_start_health for c in undone.restored} == {10}


async def test_a_change_between_its_reads_and_its_write_is_not_lost(
    storage: Storage, next_id: Interactions
) -> None:
    await wounded(storage, next_id, ["Ana", "Bea"])
    runs: list[int] = []
    interaction = next_id()

    async def meanwhile(tx: StorageChange) -> list[tuple[str, int]]:
        saved = await new_scene(tx, interaction, runs)
        if len(runs) == 1:  # another command wounds Bea after the reads of the first try
            async with storage.transaction(guild_id=GUILD_A) as other:
                bea = (await other.list_characters(GUILD_A))[1]
                await other.save_health(bea, replace(bea.health, health=2))
                await other.record(
                    guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="hurt"
                )
        return saved

    saved = await storage.prepared_change(meanwhile, guild_id=GUILD_A)
    assert len(runs) == 2, "prepared again after the other change"
    assert saved == [("Ana", 6), ("Bea", 2)]
    async with storage.read() as reader:
        bea = (await reader.list_characters(GUILD_A))[1]
        entries = await reader.history(GUILD_A, HistoryQuery(limit=2))
    assert (bea.health.health, bea.health.scene_start_health) == (2, 2)
    assert [e.command for e in entries] == ["scene new", "hurt"]
    assert entries[0].number == entries[1].number + 1


async def test_a_server_that_keeps_changing_is_changed_under_the_lock(
    storage: Storage, next_id: Interactions
) -> None:
    await wounded(storage, next_id, ["Ana"])
    runs: list[int] = []
    interaction = next_id()

    async def always(tx: StorageChange) -> list[tuple[str, int]]:
        saved = await new_scene(tx, interaction, runs)
        if len(runs) <= 2:  # every prepared try is overtaken by a new character
            await create(storage, next_id, f"Nuevo {len(runs)}")
        return saved

    saved = await storage.prepared_change(always, guild_id=GUILD_A)
    assert len(runs) == 3  # two prepared tries, then the ordinary way
    assert [name for name, _ in saved] == ["Ana", "Nuevo 1", "Nuevo 2"]
    async with storage.read() as reader:
        latest = (await reader.history(GUILD_A, HistoryQuery(limit=1)))[0]
    assert latest.interaction_id == interaction
    assert {c.name for c in latest.characters} == {"Ana"}  # the new ones started at 10


async def test_another_server_changes_while_a_change_is_prepared(
    storage: Storage, next_id: Interactions
) -> None:
    await wounded(storage, next_id, ["Ana"])
    other = await create(storage, next_id, "Otra", guild=GUILD_B)
    reached = asyncio.Event()
    go_on = asyncio.Event()
    runs: list[int] = []
    interaction = next_id()

    async def slow(tx: StorageChange) -> list[tuple[str, int]]:
        saved = await new_scene(tx, interaction, runs)
        reached.set()
        await go_on.wait()  # the work of thousands of characters
        return saved

    wide = asyncio.create_task(storage.prepared_change(slow, guild_id=GUILD_A))
    await asyncio.wait_for(reached.wait(), 5)
    async with asyncio.timeout(1):  # not held by the prepared change
        async with storage.transaction(guild_id=GUILD_B) as tx:
            await tx.save_health(other, replace(other.health, health=3))
            await tx.record(guild_id=GUILD_B, interaction_id=next_id(), actor_id=GM, command="hurt")
    go_on.set()
    assert await wide == [("Ana", 6)]
    assert len(runs) == 1  # another server's change is no change of this one
