"""The storage's lock, fair between servers: each server's waiters queue on their own and the
queues are served in turn (round-robin), so a flood of one server's commands cannot push
another server's command past Discord's 3 seconds (COMMANDS.md, Busy servers).

Who is waiting comes from a ``Ticket`` in a context variable, set where an interaction
arrives (``bot.gateway.intake``) and inherited by the task that runs it, so that the
storage's callers need not pass it: the ticket's ``key`` is the server, its ``deadline`` the
moment after which an answer could no longer reach Discord in time. A waiter still queued at
its deadline is taken out of the queue and gets ``LockDeadline``: it has changed nothing and
can still be answered ("busy, try again"). Work without a ticket (start-up, checkpoints)
queues under ``None`` and waits as long as needed.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import OrderedDict, deque
from collections.abc import Hashable
from dataclasses import dataclass

__all__ = ["FairLock", "LockDeadline", "Ticket", "current_ticket"]


@dataclass
class Ticket:
    """Who waits: ``key`` (a server's id) and a wall-clock ``deadline`` (``time.time()``), or
    None once the interaction was acknowledged and may take its time."""

    key: Hashable
    deadline: float | None


#: The ticket of the interaction the current task serves (None: background work).
current_ticket: contextvars.ContextVar[Ticket | None] = contextvars.ContextVar(
    "salud_storage_ticket", default=None
)


class LockDeadline(Exception):
    """The lock could not be had before the ticket's deadline; nothing was done."""


class FairLock:
    """A non-reentrant lock whose waiters queue per key, the keys served in turn."""

    def __init__(self) -> None:
        self._held = False
        self._queues: OrderedDict[Hashable, deque[asyncio.Future[None]]] = OrderedDict()
        self._last_turn: float | None = None  # when the lock last changed hands (monotonic)
        self.turn_seconds = 0.0  # average time between turns while others wait

    async def acquire(self, ticket: Ticket | None = None) -> None:
        """Take the lock, after the waiters ahead in this key's queue and one turn of every
        other key's; ``LockDeadline`` when the ticket's deadline passes first."""
        if not self._held and not self._queues:
            self._held = True
            self._last_turn = time.monotonic()
            return
        key = None if ticket is None else ticket.key
        deadline = None if ticket is None else ticket.deadline
        if deadline is not None and time.time() + self._expected_wait(key) > deadline:
            # Turned away now rather than at its deadline: the "busy" answer goes out while
            # there is time, and a flood's refusals do not all fall due at the same moment.
            raise LockDeadline(f"{key!r}'s turn would come after its deadline")
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(key, deque()).append(waiter)
        try:
            if deadline is None:
                await waiter
            else:
                async with asyncio.timeout(max(0.0, deadline - time.time())):
                    await waiter
        except BaseException as error:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed over just as it gave up: pass it on
            else:
                self._forget(key, waiter)
            if isinstance(error, TimeoutError):
                raise LockDeadline(f"no turn for {key!r} before its deadline") from None
            raise

    def release(self) -> None:
        """Hand the lock to the first waiter of the next key in turn, or free it."""
        while self._queues:
            key, queue = next(iter(self._queues.items()))
            waiter = queue.popleft()
            if queue:
                self._queues.move_to_end(key)  # its next waiter comes after the other keys
            else:
                del self._queues[key]
            if not waiter.done():
                waiter.set_result(None)
                self._count_turn()
                return
        self._held = False
        self._last_turn = None

    def _count_turn(self) -> None:
        now = time.monotonic()
        if self._last_turn is not None:
            took = now - self._last_turn
            self.turn_seconds = (
                took if not self.turn_seconds else 0.8 * self.turn_seconds + 0.2 * took
            )
        self._last_turn = now

    def _expected_wait(self, key: Hashable) -> float:
        """Seconds until a new waiter of ``key`` would have its turn: the waiters served
        before it (those of its key, and of every other key one per round) times the
        average turn."""
        own = len(self._queues.get(key, ()))
        ahead = own + sum(
            min(len(queue), own + 1) for other, queue in self._queues.items() if other != key
        )
        return (ahead + 1) * self.turn_seconds

    def _forget(self, key: Hashable, waiter: asyncio.Future[None]) -> None:
        queue = self._queues.get(key)
        if queue is None:
            return
        try:
            queue.remove(waiter)
        except ValueError:
            return
        if not queue:
            del self._queues[key]
