"""One pace for the requests the bot makes to Discord on its own, in the background: the
live trackers' edits and the edits that disable old roll buttons (issues 19.5, 24.10).

Discord allows a bot 50 requests a second outside interactions (its global limit) and bans
it, in every server at once, after 10,000 invalid requests (401, 403, 429) in 10 minutes.
Replies to interactions are not bound by the global limit and never wait for this pacer;
the copies posted in announcement channels are, and are counted here (``charge``), so that
background work leaves them room: replies come first.

- **A budget for the whole bot**: every attempt takes a token of one bucket, ``RATE`` a
  second (``BURST`` at once), under Discord's 50; a process that runs only some of the
  shards takes their share of it (several processes of one bot share Discord's limit).
  The requests go in the order they asked, at least half ``1 / RATE`` apart, and each
  counts from when it goes until a second after its answer, never more than the rate's
  worth at once: however late a receiver reads them, no second of their arrivals holds
  more (``bot.discord_rest.admission``, the gate).
- **Trackers first**: work is submitted ``urgent`` (a tracker, which the contract wants
  current within 5 s) or not (a sweep of old roll buttons, which only looks); when both
  wait, the urgent goes first, but at most ``URGENT_TURNS`` times in a row, so that the
  sweeps are never starved and never take more than their share: when a worker takes its
  next piece of work, and when requests under way wait at the gate (a sweep of many
  messages holds no tracker back).
- **Coalescing**: work is submitted under a key (a server's tracker, a server's sweep of
  roll buttons); a key already waiting keeps its place and takes the newer work, and a
  key runs once at a time. However many changes a server makes, at most one piece of its
  work waits, and the work reads the state when it runs, so it shows the latest.
- **429**: the channel (the route's bucket) is not asked again before the ``retry_after``
  (nor a bucket Discord says is empty, ``X-RateLimit-Remaining: 0``, before it resets): its
  work goes back to wait (a newer submission replaces it) and runs again, until it goes
  through. A global 429 pauses every background request for ``retry_after`` and halves the
  pace, which comes back to the full rate within ``RECOVERY_SECONDS`` of the last one
  (something else spends the bot's global budget: several processes of one bot, each with
  its pacer, share it).
- **Invalid requests**: every 401, 403 and 429 is counted over 10 minutes, discord.py's own
  included (``bot.discord_rest.invalid_requests``); past a few hundred, background requests
  slow to one a second, past a couple of thousand they stop, far below Discord's ban.
- **Gone for good** (403, 404): raised to the work, which forgets what it edits. A channel
  that answered 403 is remembered as refused for an hour (``bot.discord_rest.channel_holds``):
  no background request goes there meanwhile (each would be one more invalid request), and
  the keepers ask ``refused`` before keeping a message there.

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

from bot.discord_rest.admission import URGENT_TURNS, Admission
from bot.discord_rest.channel_holds import ChannelHolds, RateLimited
from bot.discord_rest.invalid_requests import InvalidRequests
from bot.storage.errors import StorageUnreachable

__all__ = ["BURST", "RATE", "WORKERS", "Job", "RateLimited", "RestPacer"]

log = logging.getLogger(__name__)

#: Background requests a second, for the whole bot: under Discord's global 50, leaving room
#: for the announcements (``charge``) and discord.py's own requests. Requests that would
#: arrive bunched (a busy network, or a receiver that reads them late) are held back by the
#: gate (``bot.discord_rest.admission``), which counts each until a second after its
#: answer: 200 trackers edited after one change each take 4.2 s of it (issue 24.10).
RATE = 49.0
#: Requests that may go at once after a quiet moment.
BURST = 2.0
#: Pieces of work running at once (each reads the state it shows, then waits for Discord's
#: answer, 0.05–0.15 s: 12 keep the full rate going while the storage is busy).
WORKERS = 12
#: Tries of a piece of work that failed for a passing reason (5xx, network) before it is
#: dropped (the next change submits it again).
PASSING_FAILURES = 3
#: How long a 429 that is not Discord's JSON (Cloudflare's ban), or a 401 (the token no
#: longer works), pauses everything: each request would be one more invalid request.
BAN_PAUSE = 60.0

#: The lane of the work whose requests run in this context (0: urgent), for the gate's turn.
_LANE: contextvars.ContextVar[int] = contextvars.ContextVar("salud_pacer_lane", default=1)

#: A piece of work: requests made with ``RestPacer.request``.
Job = Callable[[], Coroutine[Any, Any, None]]


@dataclass
class _Pending:
    job: Job
    due: float
    seq: int
    failures: int = 0
    lane: int = 1  # 0: urgent (trackers), 1: the rest (sweeps)
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
        invalid: InvalidRequests | None = None,
    ) -> None:
        self._http = http
        self.invalid = invalid or InvalidRequests()
        self._admission = Admission(rate=rate, burst=burst, invalid=self.invalid)
        self._workers = workers
        self._base_url = base_url
        self._channels = ChannelHolds()  # buckets held after a 429, channels refused (403)
        self._pending: dict[Hashable, _Pending] = {}
        # One heap per lane (urgent first), of (due, seq, key).
        self._heaps: tuple[list[tuple[float, int, Hashable]], ...] = ([], [])
        self._passed = 0  # times in a row the other lane waited while urgent work went
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
        for heap in self._heaps:
            heap.clear()
        self._wakeup.set()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1.0)
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1.0)
        self._admission.close()
        if self._session is not None:
            await self._session.close()

    # --- work ---------------------------------------------------------------------------------

    def submit(
        self, key: Hashable, job: Job, *, not_before: float = 0.0, urgent: bool = False
    ) -> None:
        """Run ``job`` under ``key``, not before ``not_before`` (``time.monotonic()``): it
        replaces the work of that key still waiting, which keeps its place unless this one
        may go sooner. ``urgent`` work goes before the rest (module docstring)."""
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
            pending = _Pending(job, not_before, next(self._seq), lane=0 if urgent else 1)
            self._pending[key] = pending
        if key not in self._running:  # a running key is queued again when it ends
            self._push(key, pending)

    def _push(self, key: Hashable, pending: _Pending) -> None:
        heapq.heappush(self._heaps[pending.lane], (pending.due, pending.seq, key))
        self._wakeup.set()

    def refused(self, channel_id: int) -> bool:
        """Whether the channel answered 403 lately: no background request goes there."""
        return self._channels.refused(channel_id)

    @property
    def waiting(self) -> int:
        """Keys whose work waits (tests, logs)."""
        return len(self._pending)

    @property
    def paused_for(self) -> float:
        """Seconds before background requests may go again after a global 429 or a 401."""
        return self._admission.paused_for

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
        self._pending[key] = _Pending(
            failed.job, due, next(self._seq), failures, failed.lane, failed.context
        )

    async def _next(self) -> tuple[Hashable, _Pending] | None:
        """The next work that is due and whose key is not running, waiting for it (None once
        the pacer is closed)."""
        while not self._closed:
            wait: float | None = None
            now = time.monotonic()
            ready: list[int] = []
            for lane, heap in enumerate(self._heaps):
                while heap:
                    due, seq, key = heap[0]
                    pending = self._pending.get(key)
                    if pending is None or pending.seq != seq or key in self._running:
                        heapq.heappop(heap)  # replaced, or taken: its newer entry counts
                        continue
                    if due > now:
                        wait = due - now if wait is None else min(wait, due - now)
                    else:
                        ready.append(lane)
                    break
            if ready:
                lane = self._lane_of(ready)
                _, _, key = heapq.heappop(self._heaps[lane])
                return key, self._pending.pop(key)
            self._wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), wait)
        return None

    def _lane_of(self, ready: list[int]) -> int:
        """The lane to take from, of those with work due: urgent first, but the other lane
        after ``URGENT_TURNS`` urgent pieces in a row."""
        if len(ready) == 1:
            if ready[0] != 0:
                self._passed = 0
            return ready[0]
        if self._passed >= URGENT_TURNS:
            self._passed = 0
            return 1
        self._passed += 1
        return 0

    async def _work(self) -> None:
        while (due := await self._next()) is not None:
            key, pending = due
            self._running.add(key)
            try:
                loop = asyncio.get_running_loop()
                pending.context.run(_LANE.set, pending.lane)
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
                    self._push(key, waiting)

    # --- requests -----------------------------------------------------------------------------

    def charge(self) -> None:
        """A request the bot made outside the pacer (an announcement): it counts against the
        budget, so that background work leaves room for it."""
        self._admission.charge()

    async def request(
        self, method: str, path: str, *, channel_id: int, body: dict[str, Any] | None = None
    ) -> Any:
        """One request (inside a piece of work), once the budget allows: its JSON answer.
        Raises ``RateLimited`` on a 429 (and for a channel whose bucket is empty, or that
        answered 429 less than its ``retry_after`` ago), and discord.py's ``Forbidden`` (also,
        without asking, for a channel refused lately), ``NotFound``, ``DiscordServerError``
        or ``HTTPException`` for the other errors."""
        self._channels.check(channel_id)
        async with self._admission.turn(urgent=_LANE.get() == 0):
            self._channels.check(channel_id)  # a worker refused there while this one waited
            return await self._send(method, path, channel_id, body)

    async def _send(
        self, method: str, path: str, channel_id: int, body: dict[str, Any] | None
    ) -> Any:
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
            self.invalid.add(response.status, response.headers.get("X-RateLimit-Scope"))
            self._note_bucket(channel_id, response.headers)
            if 200 <= response.status < 300:
                return data
            if response.status == 429:
                self.limited += 1
                limited = self._limited(response, data)
                if not limited.is_global:
                    self._channels.hold(channel_id, limited.retry_after)
                raise limited
            if response.status == 401:  # the token no longer works: every request would fail
                log.error("Discord refused the bot's token: background requests paused")
                self._admission.slow_down(BAN_PAUSE)
            if response.status == 403:
                self._channels.refuse(channel_id)
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
        self._channels.hold(channel_id, _seconds(headers.get("X-RateLimit-Reset-After")) or 0.0)

    def _limited(self, response: aiohttp.ClientResponse, data: Any) -> RateLimited:
        """The 429's ``retry_after`` (from its JSON body, else its headers); a global one
        pauses every background request meanwhile."""
        if not isinstance(data, dict):  # not Discord's answer: Cloudflare's ban
            ban = _seconds(response.headers.get("Retry-After")) or BAN_PAUSE
            log.warning("Discord's gateway refused background requests: pausing %.0f s", ban)
            self._admission.slow_down(ban)
            return RateLimited(ban, is_global=True)
        after = _seconds(data.get("retry_after"))
        if after is None:
            after = _seconds(response.headers.get("Retry-After")) or 1.0
        is_global = bool(data.get("global")) or response.headers.get("X-RateLimit-Global") == "true"
        if is_global:
            log.warning("Discord's global rate limit: background requests paused %.2f s", after)
            self._admission.slow_down(after)
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
