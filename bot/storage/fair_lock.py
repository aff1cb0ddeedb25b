"""The storage's lock, fair between servers: each server's waiters queue on their own and the
queues are served in turn (round-robin), so a flood of one server's commands cannot push
another server's command past Discord's 3 seconds (COMMANDS.md, Busy servers).

Who is waiting comes from a ``Ticket`` in a context variable, set where an interaction
arrives (``bot.app``) and inherited by the task that runs it, so that the storage's callers
need not pass it: the ticket's ``key`` is the server, its ``deadline`` the moment after which
an answer could no longer reach Discord in time. A waiter still queued at its deadline is
taken out of the queue and gets ``LockDeadline``: it has changed nothing and can still be
answered ("busy, try again"). Work without a ticket (start-up, checkpoints) queues under
``None`` and waits as long as needed.
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

    def locked(self) -> bool:
        return self._held

    def waiting(self) -> int:
        """How many acquirers wait (the tests read it)."""
        return sum(len(queue) for queue in self._queues.values())

    async def acquire(self, ticket: Ticket | None = None) -> None:
        """Take the lock, after the waiters ahead in this key's queue and one turn of every
        other key's; ``LockDeadline`` when the ticket's deadline passes first."""
        if not self._held and not self._queues:
            self._held = True
            return
        key = None if ticket is None else ticket.key
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(key, deque()).append(waiter)
        deadline = None if ticket is None else ticket.deadline
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
                return
        self._held = False

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
