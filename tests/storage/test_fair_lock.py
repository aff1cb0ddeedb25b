"""``FairLock``: per-key queues served in turn; a waiter past its deadline leaves the queue."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.storage.fair_lock import FairLock, LockDeadline, Ticket


async def assert_free(lock: FairLock) -> None:
    """Nobody holds or waits for ``lock``: it is taken at once, and given back."""
    await asyncio.wait_for(lock.acquire(Ticket("check", None)), 0.5)
    lock.release()


async def test_keys_are_served_in_turn_not_in_arrival_order() -> None:
    lock = FairLock()
    await lock.acquire(Ticket("flood", None))
    order: list[str] = []

    async def use(key: str, label: str) -> None:
        await lock.acquire(Ticket(key, None))
        order.append(label)
        lock.release()

    tasks = [asyncio.create_task(use("flood", f"f{n}")) for n in range(5)]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(use("quiet", "q0")), asyncio.create_task(use("other", "o0"))]
    await asyncio.sleep(0)
    assert order == []  # all 7 wait
    lock.release()
    await asyncio.gather(*tasks)
    # One flood waiter, then each other server's, then the rest of the flood.
    assert order == ["f0", "q0", "o0", "f1", "f2", "f3", "f4"]
    await assert_free(lock)


async def test_a_waiter_past_its_deadline_gets_lock_deadline_and_leaves_the_queue() -> None:
    lock = FairLock()
    await lock.acquire()
    started = time.monotonic()
    with pytest.raises(LockDeadline):
        await lock.acquire(Ticket(1, time.time() + 0.05))
    assert 0.04 <= time.monotonic() - started < 1.0
    lock.release()  # the waiter that gave up is not handed the lock: it is free
    await assert_free(lock)
    await lock.acquire(Ticket(1, time.time() - 10))  # free: taken even when late
    lock.release()


async def test_a_cancelled_waiter_does_not_keep_the_lock() -> None:
    lock = FairLock()
    await lock.acquire()
    waiting = asyncio.create_task(lock.acquire(Ticket(1, None)))
    behind = asyncio.create_task(lock.acquire(Ticket(2, None)))
    await asyncio.sleep(0)
    lock.release()  # handed to ``waiting``…
    waiting.cancel()  # …which is cancelled before it runs: the lock goes on to ``behind``
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await asyncio.wait_for(behind, 1)
    third = asyncio.create_task(lock.acquire(Ticket(3, None)))
    await asyncio.sleep(0.01)
    assert not third.done()  # ``behind`` holds it
    lock.release()
    await asyncio.wait_for(third, 1)
    lock.release()
    await assert_free(lock)
