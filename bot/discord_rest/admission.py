"""When a background request may go: the pacer's gate (``bot.discord_rest.pacer``).

Three things must allow it, checked by one task (the gate) for the requests waiting in
turn, so that they go in the order they came (urgent first, ``URGENT_TURNS`` to one) and a
request that waited longest is never overtaken by one that happened to wake first:

- **The budget**: a token of a bucket that fills at the pace (``rate``, lower for a while
  after a global 429) up to ``burst``; a global 429 or a refused token pauses it, and many
  invalid requests of late slow it to ``SLOW_PACE`` a second or stop it
  (``bot.discord_rest.invalid_requests``). Requests go at least half ``1 / rate`` apart,
  so that those that waited for a busy event loop are not sent bunched.
- **Discord's second**: Discord counts the requests that *arrive* in any one second, and a
  request arrives somewhere between when it was sent and when its answer came; a receiver
  that read late (a busy network, or Discord's side stalled) sees those sent seconds apart
  arrive together. So a request is counted from when it is sent until a second after its
  answer, and one goes only while fewer than the rate's worth are counted: then no second
  of arrivals can hold more than that, whatever the delays (of the requests that arrived in
  one second, the one sent last found every other in flight or answered within the second
  before it was sent).
- **Its turn**: urgent requests (a tracker) before the others (a sweep of old buttons), but
  the others after ``URGENT_TURNS`` urgent ones in a row while they waited.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import AsyncIterator

from bot.discord_rest.invalid_requests import SLOW_PACE, Backoff, InvalidRequests

__all__ = ["RECOVERY_SECONDS", "SLOWEST", "URGENT_TURNS", "Admission"]

#: After a global 429 the pace is halved (down to ``SLOWEST``); it is back at the full rate
#: this many seconds after the last one (it grows by ``rate / RECOVERY_SECONDS`` a second).
RECOVERY_SECONDS = 2.0
SLOWEST = 1.0
#: Urgent requests (trackers) admitted before the others (sweeps) at most this many in a row.
URGENT_TURNS = 7
#: How long background work waits before asking again whether invalid requests allow it.
_STOPPED_WAIT = 1.0


class Admission:
    """The gate of the pacer's requests; see the module's docstring."""

    def __init__(self, *, rate: float, burst: float, invalid: InvalidRequests) -> None:
        self.invalid = invalid
        self._rate = rate
        self._pace = rate  # the rate now: lower for a while after a global 429
        self._burst = burst
        self._tokens = burst
        self._refilled = time.monotonic()
        self._paused_until = 0.0
        self._slow_next = 0.0  # when the next request may go while invalid requests are many
        self._spacing = 0.5 / rate
        self._last_sent = float("-inf")
        #: At most this many requests counted at once (Discord's second, module docstring).
        self._per_second = max(1, int(rate))
        self._in_flight = 0
        self._answered: collections.deque[float] = collections.deque()
        self._released = asyncio.Event()
        #: The requests waiting for their turn: urgent, then the others.
        self._lines: tuple[collections.deque[asyncio.Future[None]], ...] = (
            collections.deque(),
            collections.deque(),
        )
        self._streak = 0  # urgent requests admitted in a row
        self._gate: asyncio.Task[None] | None = None

    @property
    def paused_for(self) -> float:
        """Seconds before background requests may go again after a global 429 or a 401."""
        return max(0.0, self._paused_until - time.monotonic())

    @contextlib.asynccontextmanager
    async def turn(self, *, urgent: bool) -> AsyncIterator[None]:
        """Wait until a request may go; it is counted until a second after the block ends
        (when its answer came)."""
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[None] = loop.create_future()
        self._lines[0 if urgent else 1].append(turn)
        if self._gate is None or self._gate.done():
            self._gate = loop.create_task(self._admit(), name="salud-pacer-gate")
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._answer()  # admitted as it was cancelled: nothing went
            raise
        try:
            yield
        finally:
            self._answer()

    def charge(self) -> None:
        """A request the bot made outside the pacer (an announcement): it counts against the
        budget and Discord's second, so that background work leaves room for it (at most a
        second's worth owed)."""
        now = time.monotonic()
        self._refill(now)
        self._tokens = max(self._tokens - 1.0, -self._pace)
        self._answered.append(now)

    def slow_down(self, pause: float) -> None:
        """A global 429 (or a refusal of every request): nothing for ``pause`` seconds, then
        half the pace, no burst."""
        now = time.monotonic()
        self._refill(now)
        if self._paused_until <= now:  # once per pause: requests refused together count once
            self._pace = max(SLOWEST, self._pace / 2.0)
        self._paused_until = max(self._paused_until, now + pause)
        self._tokens = min(self._tokens, 0.0)

    def close(self) -> None:
        """Stop the gate; the requests still waiting for their turn are cancelled."""
        if self._gate is not None:
            self._gate.cancel()
        for line in self._lines:
            while line:
                line.popleft().cancel()

    # --- the gate -----------------------------------------------------------------------------

    def _answer(self) -> None:
        self._in_flight -= 1
        self._answered.append(time.monotonic())
        self._released.set()

    async def _admit(self) -> None:
        """Admit the waiting requests in turn, each once the budget and the second allow it;
        ends when none waits (the next request starts it again)."""
        while (line := self._next_line()) is not None:
            now = time.monotonic()
            wait = self._wait(now)
            if wait is None:  # the second is full of requests still under way
                self._released.clear()
                await self._released.wait()
                continue
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            self._tokens -= 1.0
            self._in_flight += 1
            self._last_sent = now
            self._streak = self._streak + 1 if line == 0 else 0
            if self.invalid.level is Backoff.SLOW:
                self._slow_next = now + 1.0 / SLOW_PACE
            self._lines[line].popleft().set_result(None)

    def _next_line(self) -> int | None:
        """The line whose first request goes next (None: no request waits)."""
        for line in self._lines:
            while line and line[0].done():  # cancelled while it waited
                line.popleft()
        urgent, other = self._lines
        if urgent and (not other or self._streak < URGENT_TURNS):
            return 0
        return 1 if other else None

    def _wait(self, now: float) -> float | None:
        """Seconds before the next request may go (0: now; None: until one is answered)."""
        if now < self._paused_until:
            return self._paused_until - now
        backoff = self.invalid.level
        if backoff is Backoff.STOP:
            return _STOPPED_WAIT
        if backoff is Backoff.SLOW and now < self._slow_next:
            return self._slow_next - now
        self._refill(now)
        if self._tokens < 1.0:
            return (1.0 - self._tokens) / self._pace
        answered = self._answered
        while answered and answered[0] <= now - 1.0:
            answered.popleft()
        if self._in_flight + len(answered) >= self._per_second:
            return answered[0] + 1.0 - now if answered else None
        return max(0.0, self._last_sent + self._spacing - now)

    def _refill(self, now: float) -> None:
        elapsed = now - self._refilled
        self._tokens = min(self._burst, self._tokens + elapsed * self._pace)
        self._pace = min(self._rate, self._pace + elapsed * self._rate / RECOVERY_SECONDS)
        self._refilled = now
