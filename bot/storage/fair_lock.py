"""The storage's lock, fair between servers: each server's waiters queue on their own and the
queues are served in turn (round-robin), so a flood of one server's commands cannot push
another server's command past Discord's 3 seconds (COMMANDS.md, Busy servers).

An interaction's storage calls carry its ``Ticket`` (``Storage.transaction(ticket=...)``,
``Storage.read(ticket=...)``): the ticket's ``key`` is the server, its ``deadline`` the moment
(``time.monotonic()``, counted from when Discord created the interaction, as the gateway
estimates it) after which the answer could no longer reach Discord
in time unless the interaction is acknowledged first. A waiter whose turn would come after its
deadline calls the ticket's ``on_late`` — the bot defers the interaction there, which gives
it 15 minutes and clears the deadline — and keeps its place; a ticket without ``on_late`` (an
autocomplete, which cannot be deferred) gets ``LockDeadline`` instead, having done nothing.
Work without a ticket (start-up, checkpoints, background edits) queues under ``None`` and
waits as long as needed.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

__all__ = ["FairLock", "LockDeadline", "Ticket"]


@dataclass
class Ticket:
    """Who waits: ``key`` (a server's id), the ``deadline`` (``time.monotonic()``) past which
    the interaction must be acknowledged first, or None once it was acknowledged; and
    ``on_late``, which acknowledges it (None: it cannot be, and is refused at its deadline)."""

    key: Hashable
    deadline: float | None
    on_late: Callable[[], Awaitable[None]] | None = None

    def late_by(self, moment: float) -> bool:
        """Whether ``moment`` (``time.monotonic()``) is past the deadline."""
        return self.deadline is not None and moment > self.deadline


class LockDeadline(Exception):
    """The lock could not be had before the ticket's deadline, and the interaction could not
    be acknowledged (an autocomplete); nothing was done."""


class FairLock:
    """A non-reentrant lock whose waiters queue per key, the keys served in turn."""

    def __init__(self) -> None:
        self._held = False
        self._queues: OrderedDict[Hashable, deque[asyncio.Future[None]]] = OrderedDict()
        self._last_turn: float | None = None  # when the lock last changed hands (monotonic)
        self.turn_seconds = 0.0  # average time between turns while others wait

    async def acquire(self, ticket: Ticket | None = None) -> None:
        """Take the lock, after the waiters ahead in this key's queue and one turn of every
        other key's. When the turn would come after the ticket's deadline, the ticket's
        ``on_late`` acknowledges the interaction first (its place in the queue is kept); a
        ticket that cannot be acknowledged gets ``LockDeadline``."""
        if not self._held and not self._queues:
            self._held = True
            self._last_turn = time.monotonic()
            return
        key = None if ticket is None else ticket.key
        if ticket is not None and ticket.late_by(time.monotonic() + self._expected_wait(key)):
            # Acknowledged now rather than at the deadline: the interaction keeps its time.
            await self._too_late(ticket, key)
            if not self._held and not self._queues:  # freed while acknowledging
                self._held = True
                self._last_turn = time.monotonic()
                return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(key, deque()).append(waiter)
        try:
            deadline = None if ticket is None else ticket.deadline
            if deadline is not None:
                try:
                    async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                        await asyncio.shield(waiter)
                except TimeoutError:
                    if not waiter.done():
                        assert ticket is not None
                        await self._too_late(ticket, key)
            await waiter
        except BaseException:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed over just as it gave up: pass it on
            else:
                self._forget(key, waiter)
                waiter.cancel()
            raise

    @staticmethod
    async def _too_late(ticket: Ticket, key: Hashable) -> None:
        """The ticket's turn comes after its deadline: acknowledge it, or refuse it."""
        if ticket.on_late is None:
            raise LockDeadline(f"{key!r}'s turn would come after its deadline")
        await ticket.on_late()

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
