"""One pace for the requests the bot makes to Discord on its own, in the background: the
live trackers' edits and the edits that disable old roll buttons (issue 19.5).

Discord allows a bot 50 requests a second outside interactions (its global limit) and bans
it, in every server at once, after 10,000 invalid requests (401, 403, 429) in 10 minutes.
Replies to interactions are not bound by the global limit and never wait for this pacer;
the copies posted in announcement channels are, and are counted here (``charge``), so that
background work leaves them room: replies come first.

- **A budget for the whole bot**: every attempt takes a token of one bucket, ``RATE`` a
  second (``BURST`` at once), half of Discord's limit.
- **Coalescing**: work is submitted under a key (a server's tracker, a server's sweep of
  roll buttons); a key already waiting keeps its place and takes the newer work, and a
  key runs once at a time. However many changes a server makes, at most one piece of its
  work waits, and the work reads the state when it runs, so it shows the latest.
- **429**: the work goes back to wait ``retry_after`` (a newer submission replaces it) and
  runs again, until it goes through; a global 429 pauses every background request for
  ``retry_after`` and halves the pace, which then comes back by ``RECOVERY`` a second
  (something else spends the bot's global budget: several processes of one bot, each with
  its pacer, share it). A bucket Discord says is empty (``X-RateLimit-Remaining: 0``) holds that
  channel's work until it resets, instead of drawing a 429.
- **Gone for good** (403, 404): raised to the work, which forgets what it edits.

Why not discord.py's ``HTTPClient.request``: on a 429 it sleeps ``retry_after`` and tries
again, up to five times, outside any budget (200 trackers refused once each made 1,000
requests in a second), then raises an error without the ``retry_after``. Background work
wants one attempt per token and, when refused, to wait in its queue where a newer state
replaces it. So the pacer sends its few kinds of request itself, with the bot's token,
through a small aiohttp session of its own (``Route.BASE``: Discord, or the fake in tests).

A fixed number of workers (``WORKERS``) run the work: the tasks do not grow with the load.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import json
import logging
import time
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.storage.errors import StorageUnreachable

__all__ = ["BURST", "RATE", "WORKERS", "Job", "RateLimited", "RestPacer"]

log = logging.getLogger(__name__)

#: Background requests a second, for the whole bot: half of Discord's global 50.
RATE = 25.0
#: Requests that may go at once after a quiet moment.
BURST = 5.0
#: After a global 429 the pace is halved (down to ``SLOWEST``), then grows back by this many
#: requests a second, each second.
RECOVERY = 1.0
SLOWEST = 1.0
#: Pieces of work running at once (each waits for Discord's answer to its requests).
WORKERS = 4
#: Tries of a piece of work that failed for a passing reason (5xx, network) before it is
#: dropped (the next change submits it again).
PASSING_FAILURES = 3
#: How long a 429 that is not Discord's JSON (Cloudflare's ban), or a 401 (the token no
#: longer works), pauses everything: each request would be one more invalid request.
BAN_PAUSE = 60.0
#: Channels whose bucket is remembered as empty, at most (older holds are dropped).
_HOLDS = 1024

#: A piece of work: requests made with ``RestPacer.request``.
Job = Callable[[], Coroutine[Any, Any, None]]


class RateLimited(Exception):
    """Discord answered 429 (or said the channel's bucket is empty): try again after
    ``retry_after`` seconds."""

    def __init__(self, retry_after: float, *, is_global: bool = False) -> None:
        super().__init__(f"rate limited for {retry_after:.2f} s{' (global)' if is_global else ''}")
        self.retry_after = retry_after
        self.is_global = is_global


@dataclass
class _Pending:
    job: Job
    due: float
    seq: int
    failures: int = 0
    #: The context of whoever submitted it: the work runs in it, as a task it had started
    #: would (``contextvars``), whichever worker takes it.
    context: contextvars.Context = field(default_factory=contextvars.copy_context)


class RestPacer:
    """The bot's background requests, paced; see the module's docstring."""

    def __init__(
        self,
        http: discord.http.HTTPClient,
        *,
        rate: float = RATE,
        burst: float = BURST,
        workers: int = WORKERS,
        base_url: str | None = None,
    ) -> None:
        self._http = http
        self._rate = rate
        self._pace = rate  # the rate now: lower for a while after a global 429
        self._burst = burst
        self._workers = workers
        self._base_url = base_url
        self._tokens = burst
        self._refilled = time.monotonic()
        self._paused_until = 0.0
        self._holds: dict[int, float] = {}  # channel id -> when its bucket is full again
        self._pending: dict[Hashable, _Pending] = {}
        self._heap: list[tuple[float, int, Hashable]] = []
        self._running: set[Hashable] = set()
        self._seq = itertools.count()
        self._wakeup = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._session: aiohttp.ClientSession | None = None
        self._closed = False
        #: Requests sent, and 429s received, since the start (logs and tests).
        self.sent = 0
        self.limited = 0

    def start(self) -> None:
        """Start the workers (in the running event loop)."""
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._work(), name=f"salud-pacer-{number}")
            for number in range(self._workers)
        ]

    async def close(self) -> None:
        """Take no more work; let the work under way finish (at most 1 s), drop what waits."""
        self._closed = True
        self._pending.clear()
        self._heap.clear()
        self._wakeup.set()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1.0)
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1.0)
        if self._session is not None:
            await self._session.close()

    # --- work ---------------------------------------------------------------------------------

    def submit(self, key: Hashable, job: Job, *, not_before: float = 0.0) -> None:
        """Run ``job`` under ``key``, not before ``not_before`` (``time.monotonic()``): it
        replaces the work of that key still waiting, which keeps its place unless this one
        may go sooner."""
        if self._closed:
            return
        pending = self._pending.get(key)
        if pending is not None:
            pending.job = job
            pending.context = contextvars.copy_context()
            if not_before >= pending.due:
                return
            pending.due = not_before
            pending.seq = next(self._seq)
        else:
            pending = _Pending(job, not_before, next(self._seq))
            self._pending[key] = pending
        if key not in self._running:  # a running key is queued again when it ends
            heapq.heappush(self._heap, (pending.due, pending.seq, key))
            self._wakeup.set()

    @property
    def waiting(self) -> int:
        """Keys whose work waits (tests, logs)."""
        return len(self._pending)

    @property
    def paused_for(self) -> float:
        """Seconds before background requests may go again after a global 429 or a 401."""
        return max(0.0, self._paused_until - time.monotonic())

    def _again(self, key: Hashable, failed: _Pending, delay: float, *, failure: bool) -> None:
        """Put the work of ``key`` back to run after ``delay``; a newer submission made
        meanwhile replaces it but waits as long."""
        due = time.monotonic() + delay
        newer = self._pending.get(key)
        if newer is not None:
            newer.due = max(newer.due, due)
            newer.seq = next(self._seq)
            return
        failures = failed.failures + 1 if failure else 0
        self._pending[key] = _Pending(failed.job, due, next(self._seq), failures, failed.context)

    async def _next(self) -> tuple[Hashable, _Pending] | None:
        """The next work that is due and whose key is not running, waiting for it (None once
        the pacer is closed)."""
        while not self._closed:
            wait: float | None = None
            while self._heap:
                due, seq, key = self._heap[0]
                pending = self._pending.get(key)
                if pending is None or pending.seq != seq or key in self._running:
                    heapq.heappop(self._heap)  # replaced, or taken: its newer entry counts
                    continue
                now = time.monotonic()
                if due > now:
                    wait = due - now
                    break
                heapq.heappop(self._heap)
                del self._pending[key]
                return key, pending
            self._wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), wait)
        return None

    async def _work(self) -> None:
        while (due := await self._next()) is not None:
            key, pending = due
            self._running.add(key)
            try:
                loop = asyncio.get_running_loop()
                await loop.create_task(pending.job(), context=pending.context)
            except RateLimited as limited:
                self._again(key, pending, limited.retry_after, failure=False)
            except (
                aiohttp.ClientError,
                OSError,
                TimeoutError,
                discord.DiscordServerError,
                StorageUnreachable,  # the database server is back in a moment
            ) as error:
                if pending.failures + 1 < PASSING_FAILURES:
                    self._again(key, pending, 1.0 + 2.0 * pending.failures, failure=True)
                else:
                    log.warning("background work %s dropped after %s", key, error)
            except Exception:
                log.exception("background work %s failed", key)
            finally:
                self._running.discard(key)
                waiting = self._pending.get(key)
                if waiting is not None:
                    heapq.heappush(self._heap, (waiting.due, waiting.seq, key))
                    self._wakeup.set()

    # --- requests -----------------------------------------------------------------------------

    def charge(self) -> None:
        """A request the bot made outside the pacer (an announcement): it counts against the
        budget, so that background work leaves room for it (at most a second's worth owed)."""
        self._refill(time.monotonic())
        self._tokens = max(self._tokens - 1.0, -self._pace)

    def _refill(self, now: float) -> None:
        elapsed = now - self._refilled
        self._tokens = min(self._burst, self._tokens + elapsed * self._pace)
        self._pace = min(self._rate, self._pace + elapsed * RECOVERY)
        self._refilled = now

    async def _take(self) -> None:
        """Wait for a token of the budget (and for a global pause to end)."""
        while True:
            now = time.monotonic()
            if now < self._paused_until:
                await asyncio.sleep(self._paused_until - now)
                continue
            self._refill(now)
            if self._tokens >= 1.0:
                self._tokens -= 1.0
                return
            await asyncio.sleep((1.0 - self._tokens) / self._pace)

    async def request(
        self, method: str, path: str, *, channel_id: int, body: dict[str, Any] | None = None
    ) -> Any:
        """One request (inside a piece of work), once the budget allows: its JSON answer.
        Raises ``RateLimited`` on a 429 (and for a channel whose bucket is empty), and
        discord.py's ``Forbidden``, ``NotFound``, ``DiscordServerError`` or
        ``HTTPException`` for the other errors."""
        held = self._holds.get(channel_id)
        if held is not None:
            if held > time.monotonic():
                raise RateLimited(held - time.monotonic())
            del self._holds[channel_id]
        await self._take()
        base = self._base_url or discord.http.Route.BASE
        headers = {"User-Agent": self._http.user_agent}
        if self._http.token is not None:
            headers["Authorization"] = f"Bot {self._http.token}"
        if self._session is None:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=30), connector=aiohttp.TCPConnector(limit=8)
            )
        self.sent += 1
        async with self._session.request(
            method,
            base + path,
            headers=headers,
            json=body,
            proxy=self._http.proxy,
            proxy_auth=self._http.proxy_auth,
        ) as response:
            data = await _json_or_text(response)
            self._note_bucket(channel_id, response.headers)
            if 200 <= response.status < 300:
                return data
            if response.status == 429:
                self.limited += 1
                raise self._limited(response, data)
            if response.status == 401:  # the token no longer works: every request would fail
                log.error("Discord refused the bot's token: background requests paused")
                self._slow_down(BAN_PAUSE)
            if response.status == 403:
                raise discord.Forbidden(response, data)
            if response.status == 404:
                raise discord.NotFound(response, data)
            if response.status >= 500:
                raise discord.DiscordServerError(response, data)
            raise discord.HTTPException(response, data)

    def _note_bucket(self, channel_id: int, headers: Any) -> None:
        """Hold the channel's work while Discord says its bucket is empty."""
        if headers.get("X-RateLimit-Remaining") != "0":
            return
        try:
            reset_after = float(headers.get("X-RateLimit-Reset-After") or 0.0)
        except ValueError:
            return
        if reset_after <= 0:
            return
        if len(self._holds) >= _HOLDS:
            now = time.monotonic()
            self._holds = {key: at for key, at in self._holds.items() if at > now}
            if len(self._holds) >= _HOLDS:
                self._holds.pop(next(iter(self._holds)))
        self._holds[channel_id] = time.monotonic() + reset_after

    def _slow_down(self, pause: float) -> None:
        """A global 429: nothing for ``pause`` seconds, then half the pace, no burst."""
        now = time.monotonic()
        self._refill(now)
        if self._paused_until <= now:  # once per pause: workers refused together count once
            self._pace = max(SLOWEST, self._pace / 2.0)
        self._paused_until = max(self._paused_until, now + pause)
        self._tokens = min(self._tokens, 0.0)

    def _limited(self, response: aiohttp.ClientResponse, data: Any) -> RateLimited:
        """The 429's ``retry_after`` (from its JSON body, else its headers); a global one
        pauses every background request meanwhile."""
        if not isinstance(data, dict):  # not Discord's answer: Cloudflare's ban
            ban = _seconds(response.headers.get("Retry-After")) or BAN_PAUSE
            log.warning("Discord's gateway refused background requests: pausing %.0f s", ban)
            self._slow_down(ban)
            return RateLimited(ban, is_global=True)
        after = _seconds(data.get("retry_after"))
        if after is None:
            after = _seconds(response.headers.get("Retry-After")) or 1.0
        is_global = bool(data.get("global")) or response.headers.get("X-RateLimit-Global") == "true"
        if is_global:
            log.warning("Discord's global rate limit: background requests paused %.2f s", after)
            self._slow_down(after)
        return RateLimited(after, is_global=is_global)


def _seconds(value: Any) -> float | None:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 else None


async def _json_or_text(response: aiohttp.ClientResponse) -> Any:
    text = await response.text(encoding="utf-8")
    if response.headers.get("Content-Type", "").startswith("application/json"):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text
