"""One connection, many coroutines: serialized transactions, rollback, cancellation."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import Storage, StoredCharacter, TransactionStateError
from bot.storage.fair_lock import Ticket
from bot.storage.models import NewCharacter

from .conftest import ALICE, GM, GUILD_A, Interactions, general, health


async def decrement(storage: Storage, character: StoredCharacter, interaction_id: int) -> None:
    async with storage.transaction() as tx:
        current = await tx.get_character(GUILD_A, character.id)
        assert current is not None
        await asyncio.sleep(0)  # let the others run between read and write
        await tx.save_health(current, replace(current.health, health=current.health.health - 1))
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=interaction_id, actor_id=GM, command="hurt"
        )
        assert entry is not None


async def make(storage: Storage, next_id: Interactions, name: str = "Ann") -> StoredCharacter:
    async with storage.transaction() as tx:
        created = await tx.create_character(NewCharacter(GUILD_A, name, ALICE, health(99, 0)))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    return created


async def history_rows(storage: Storage, command: str) -> int:
    async with storage.read() as reader:
        row = await reader.fetch_one(
            "SELECT count(*) FROM history WHERE guild_id = ? AND command = ?", (GUILD_A, command)
        )
    assert row is not None
    return int(row[0])


async def test_200_concurrent_read_modify_writes(storage: Storage, next_id: Interactions) -> None:
    ann = await make(storage, next_id)
    await asyncio.gather(*(decrement(storage, ann, next_id()) for _ in range(200)))
    async with storage.read() as reader:
        final = await reader.get_character(GUILD_A, ann.id)
    assert final is not None and final.health.health == 99 - 200
    assert await history_rows(storage, "hurt") == 200


async def test_two_connections_to_one_file(db_path: Path, next_id: Interactions) -> None:
    """A second process (say, a maintenance script) waits on busy_timeout, never fails."""
    async with await Storage.open(db_path) as first, await Storage.open(db_path) as second:
        ann = await make(first, next_id)
        await asyncio.gather(
            *(decrement(store, ann, next_id()) for _ in range(20) for store in (first, second))
        )
        async with first.read() as reader:
            final = await reader.get_character(GUILD_A, ann.id)
    assert final is not None and final.health.health == 99 - 40


async def test_exception_rolls_everything_back(storage: Storage, next_id: Interactions) -> None:
    ann = await make(storage, next_id)
    with pytest.raises(RuntimeError, match="boom"):
        async with storage.transaction() as tx:
            await tx.update_settings(GUILD_A, language="en")
            await tx.set_meta("k", "v")
            other = await tx.create_character(NewCharacter(GUILD_A, "Bob", ALICE, health()))
            await tx.set_ability(other, general("Athletics", 3))
            await tx.save_health(ann, replace(ann.health, health=1))
            await tx.delete_character(GUILD_A, ann.id)
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="x")
            raise RuntimeError("boom")
    async with storage.read() as reader:
        assert await reader.list_characters(GUILD_A) == [ann]
        assert (await reader.get_settings(GUILD_A)).language is None
        assert await reader.get_meta("k") is None
        assert len(await reader.history(GUILD_A)) == 1
        rows = await reader.fetch_all("SELECT count(*) FROM abilities")
        assert rows[0][0] == 0
    # the connection is usable again
    await decrement(storage, ann, next_id())


async def test_cancelled_transaction_rolls_back_and_releases(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await make(storage, next_id)
    inside = asyncio.Event()

    async def slow() -> None:
        async with storage.transaction() as tx:
            await tx.save_health(ann, replace(ann.health, health=1))
            inside.set()
            await asyncio.Event().wait()  # never done: cancelled inside the transaction

    task = asyncio.create_task(slow())
    await inside.wait()
    waiting = asyncio.create_task(decrement(storage, ann, next_id()))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.wait_for(waiting, 5)
    async with storage.read() as reader:
        final = await reader.get_character(GUILD_A, ann.id)
    assert final is not None and final.health.health == 98


async def test_nested_transaction_is_refused(storage: Storage) -> None:
    async with storage.transaction():
        with pytest.raises(TransactionStateError):
            async with storage.read():
                pass  # pragma: no cover
    async with storage.read() as reader:  # the lock was released
        assert await reader.count_characters(GUILD_A) == 0


def watch_the_lock(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """An event set when a task asks for the storage's lock: by the time the asking task
    yields, it is queued (``FairLock.acquire`` queues a waiter before its first ``await``)."""
    asked = asyncio.Event()
    acquire = storage._lock.acquire

    async def watched(ticket: Ticket | None = None) -> None:
        asked.set()
        await acquire(ticket)

    monkeypatch.setattr(storage._lock, "acquire", watched)
    return asked


async def test_reads_wait_for_the_writer(
    storage: Storage, next_id: Interactions, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = await make(storage, next_id)
    seen: list[int] = []
    asked = watch_the_lock(storage, monkeypatch)

    async def read() -> None:
        async with storage.read() as reader:
            found = await reader.get_character(GUILD_A, ann.id)
            assert found is not None
            seen.append(found.health.health)

    async with storage.transaction() as tx:
        reader_task = asyncio.create_task(read())
        await asyncio.wait_for(asked.wait(), 5)
        await tx.save_health(ann, replace(ann.health, health=50))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="s")
        assert seen == []
    await reader_task
    assert seen == [50]


async def test_closed_storage_refuses(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    await storage.close()
    await storage.close()
    with pytest.raises(TransactionStateError):
        async with storage.transaction():
            pass  # pragma: no cover
