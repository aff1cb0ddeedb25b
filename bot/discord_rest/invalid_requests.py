"""The bot's invalid requests (401, 403, 429) over the last 10 minutes, the count Discord
keeps before it bans a bot's IP from its API for an hour (10,000; issue 24.10).

Every response the bot receives is counted, whoever made the request: the background
pacer (``bot.discord_rest.pacer``) tells it of its own, and discord.py's requests (replies,
announcements, command syncs) are seen through an aiohttp trace (``trace_config``). The
pacer reads ``level`` before each background request: past ``SLOW`` invalid requests it
slows every background request to ``SLOW_PACE`` a second, past ``STOP`` it sends none
until the count falls, so that even a storm in which every request is refused stays far
below Discord's ban. The first time ``SLOW`` is passed it logs a warning (once per process).

A 429 whose scope is ``shared`` (a resource's limit, not the bot's) is not counted: Discord
does not count it either.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from enum import Enum
from types import SimpleNamespace
from typing import Any

import aiohttp

__all__ = ["DISCORD_BAN", "SLOW", "SLOW_PACE", "STOP", "WINDOW", "Backoff", "InvalidRequests"]

log = logging.getLogger(__name__)

#: Discord's window and its ban: 10,000 invalid requests in 10 minutes.
WINDOW = 600.0
DISCORD_BAN = 10_000
#: Past this many in the window, background requests go at ``SLOW_PACE`` a second at most:
#: even if every one of them were refused, the count stays under ``SLOW + 600 * SLOW_PACE``.
SLOW = 500
SLOW_PACE = 1.0
#: Past this many (discord.py's own requests count too), no background request at all.
STOP = 2_000
#: The statuses Discord counts as invalid.
INVALID_STATUSES = frozenset({401, 403, 429})


class Backoff(Enum):
    """How background work must go, given the invalid requests of the last 10 minutes."""

    NONE = "none"
    SLOW = "slow"
    STOP = "stop"


class InvalidRequests:
    """A sliding count of invalid requests over ``WINDOW`` seconds, a bucket per second."""

    def __init__(self, *, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._seconds: deque[list[int]] = deque()  # [second, count], oldest first
        self._total = 0
        self._warned = False

    def add(self, status: int, scope: str | None = None) -> None:
        """A response with ``status`` came back (counted only when Discord counts it)."""
        if status not in INVALID_STATUSES or (status == 429 and scope == "shared"):
            return
        second = int(self._clock())
        self._expire(second)
        if self._seconds and self._seconds[-1][0] == second:
            self._seconds[-1][1] += 1
        else:
            self._seconds.append([second, 1])
        self._total += 1
        if self._total >= SLOW and not self._warned:
            self._warned = True
            log.warning(
                "%d invalid requests (401, 403, 429) to Discord in the last 10 minutes (Discord"
                " bans the bot at %d): background requests slowed to %.0f a second",
                self._total,
                DISCORD_BAN,
                SLOW_PACE,
            )

    def _expire(self, second: int) -> None:
        while self._seconds and self._seconds[0][0] <= second - WINDOW:
            self._total -= self._seconds.popleft()[1]

    @property
    def count(self) -> int:
        """Invalid requests in the last 10 minutes."""
        self._expire(int(self._clock()))
        return self._total

    @property
    def level(self) -> Backoff:
        """How background work must go now."""
        count = self.count
        if count >= STOP:
            return Backoff.STOP
        return Backoff.SLOW if count >= SLOW else Backoff.NONE

    def trace_config(self) -> aiohttp.TraceConfig:
        """An aiohttp trace that counts every response of discord.py's session."""
        trace = aiohttp.TraceConfig()

        async def on_request_end(
            _session: aiohttp.ClientSession,
            _context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            response = params.response
            self.add(response.status, response.headers.get("X-RateLimit-Scope"))

        trace.on_request_end.append(on_request_end)
        return trace
