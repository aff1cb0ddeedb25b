"""``FairLock``: per-key queues served in turn; a waiter whose turn comes after its deadline
acknowledges its interaction (``Ticket.on_late``) and keeps its place, or, when it cannot be
acknowledged, gets ``LockDeadline`` and leaves the queue."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.storage.fair_lock import FairLock, LockDeadline, Ticket


async def taken_at_once(lock: FairLock) -> bool:
    """Whether the lock is free: a background acquire gets it without waiting."""
    try:
        await asyncio.wait_for(lock.acquire(), 0.05)
    except TimeoutError:
        return False
    lock.release()
    return True


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
    lock.release()
    await asyncio.gather(*tasks)
    # One flood waiter, then each other server's, then the rest of the flood.
    assert order == ["f0", "q0", "o0", "f1", "f2", "f3", "f4"]
    assert await taken_at_once(lock)


async def test_a_waiter_that_cannot_be_acknowledged_gets_lock_deadline_and_leaves() -> None:
    lock = FairLock()
    await lock.acquire()
    started = time.monotonic()
    with pytest.raises(LockDeadline):
        await lock.acquire(Ticket(1, time.monotonic() + 0.05))
    assert 0.04 <= time.monotonic() - started < 1.0
    lock.release()
    assert await taken_at_once(lock)  # the refused waiter left no place behind
    await lock.acquire(Ticket(1, time.monotonic() - 10))  # free: taken even when late
    lock.release()


async def test_a_late_waiter_is_acknowledged_once_and_keeps_its_place() -> None:
    """COMMANDS.md Busy servers: a command that must wait past its deadline is deferred,
    then served, instead of answered "busy"."""
    lock = FairLock()
    await lock.acquire()
    acknowledged: list[float] = []
    late = asyncio.Event()
    ticket = Ticket(1, time.monotonic() + 0.05)

    async def on_late() -> None:
        acknowledged.append(time.monotonic())
        ticket.deadline = None  # what the bot's deferral does
        late.set()

    ticket.on_late = on_late
    waiting = asyncio.create_task(lock.acquire(ticket))
    behind = asyncio.create_task(lock.acquire(Ticket(2, None)))
    await asyncio.wait_for(late.wait(), 5)  # its deadline passed while it waited
    await asyncio.sleep(0)  # the waiter goes on waiting after its acknowledgement
    assert len(acknowledged) == 1 and not waiting.done()
    lock.release()
    await asyncio.wait_for(waiting, 1)  # served first: it kept its place
    assert not behind.done()
    lock.release()
    await asyncio.wait_for(behind, 1)
    lock.release()
    assert len(acknowledged) == 1


async def test_a_waiter_expected_to_be_late_is_acknowledged_before_it_queues() -> None:
    """The expected wait (turns ahead × the average turn) decides at once: the interaction
    is deferred while it has time, not at its deadline."""
    lock = FairLock()
    await lock.acquire()
    lock.turn_seconds = 1.0
    behind = [asyncio.create_task(lock.acquire(Ticket(1, None))) for _ in range(3)]
    await asyncio.sleep(0)
    acknowledged: list[bool] = []
    ticket = Ticket(1, time.monotonic() + 1.5)

    async def on_late() -> None:
        acknowledged.append(True)
        ticket.deadline = None

    ticket.on_late = on_late
    late = asyncio.create_task(lock.acquire(ticket))
    await asyncio.sleep(0)
    assert acknowledged == [True]
    for _ in range(4):
        lock.release()
        await asyncio.sleep(0)
    await asyncio.wait_for(asyncio.gather(*behind, late), 1)
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
    assert not await taken_at_once(lock)
    lock.release()
    assert await taken_at_once(lock)
