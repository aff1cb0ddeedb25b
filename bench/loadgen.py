# ruff: noqa: ASYNC109  (waits take an explicit timeout so a stuck bot cannot hang the run)
"""The load generator: the fake Discord of the tests, made cheap enough to drive hundreds of
interactions in flight without becoming the bottleneck itself.

- Completion is signalled by a future per interaction, settled from the fake's own callback and
  webhook handlers, instead of ``wait_until`` (whose condition wakes every waiter on every
  request: quadratic in the number in flight).
- The command ``data`` of a (server, command, options) is built once and reused.
- The payload validation against Discord's OpenAPI schemas (what the e2e tests check) can be
  switched off (``lightweight_validation``): it costs the fake more CPU than the bot's reply.

What remains of the fake's cost is the same for the floor bot and for Salud, which is why every
figure is also given as a ratio to the floor's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.fake_discord import validation as fake_validation

__all__ = [
    "BenchFake",
    "CellResult",
    "Request",
    "cpu_seconds",
    "lightweight_validation",
    "memory_kib",
    "percentile",
    "run_cell",
]

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Request:
    """One slash command to send: where, by whom, what."""

    guild: FakeGuild
    member: FakeMember
    command: str
    options: Mapping[str, Any]


class BenchFake(FakeDiscord):
    """A FakeDiscord whose replies settle futures (see the module docstring)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._waiting: dict[str, tuple[asyncio.Future[float], Reply]] = {}
        self._data_cache: dict[tuple[str, str, tuple[tuple[str, Any], ...]], dict[str, Any]] = {}
        #: Interactions answered with a deferral first (two requests for the reply, not one).
        self.deferred = 0

    def send(self, request: Request) -> tuple[Reply, asyncio.Future[float]]:
        """Dispatches the interaction; the future gets the loop time at which it completed."""
        key = (request.guild.id, request.command, tuple(sorted(request.options.items())))
        data = self._data_cache.get(key)
        if data is None:
            data = self.build_command_data(request.guild, request.command, request.options)
            self._data_cache[key] = data
        payload = self._base_interaction(2, request.guild, request.member, None, None)
        payload["data"] = data
        reply = self._send_interaction(payload, "/" + request.command)
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiting[reply.record.id] = (future, reply)
        return reply, future

    def forget(self, reply: Reply) -> None:
        """Stops waiting for a reply (after a timeout)."""
        self._waiting.pop(reply.record.id, None)

    def _settle(self, interaction_id: str | None) -> None:
        if interaction_id is None:
            return
        entry = self._waiting.get(interaction_id)
        if entry is None:
            return
        future, reply = entry
        if reply.is_complete():
            del self._waiting[interaction_id]
            if not future.done():
                future.set_result(asyncio.get_running_loop().time())

    def _callback(
        self, request: web.Request, iid: str, token: str, body: Any
    ) -> web.StreamResponse:
        if isinstance(body, dict) and body.get("type") in (5, 6):  # deferred (with a message)
            self.deferred += 1
        try:
            return super()._callback(request, iid, token, body)
        finally:
            self._settle(iid)

    def _webhook(
        self, request: web.Request, token: str, rest: list[str], body: Any
    ) -> web.StreamResponse:
        try:
            return super()._webhook(request, token, rest, body)
        finally:
            record = self._by_token.get(token)
            self._settle(record.id if record is not None else None)


@contextlib.contextmanager
def lightweight_validation(enabled: bool = True) -> Iterator[None]:
    """Skips the fake's schema validation of replies while inside (bench processes only)."""
    if not enabled:
        yield
        return
    names = ("callback_errors", "message_errors", "policy_errors")
    saved = {name: getattr(fake_validation, name) for name in names}

    def nothing(*args: Any, **kwargs: Any) -> list[str]:
        return []

    try:
        for name in names:
            setattr(fake_validation, name, nothing)
        yield
    finally:
        for name, function in saved.items():
            setattr(fake_validation, name, function)


@dataclass
class CellResult:
    """What one cell (command × servers × in flight) measured."""

    latencies: list[float] = field(default_factory=list)  # seconds, completed replies only
    wall: float = 0.0  # seconds for all replies of the cell (resets excluded)
    refused: list[str] = field(default_factory=list)  # texts of ephemeral (error) replies
    unanswered: list[str] = field(default_factory=list)  # interaction ids with no reply
    stored_unanswered: int = 0  # of those, how many changed something (set by the caller)
    fake_cpu: float = 0.0  # CPU seconds of this process (fake + load generator)
    bot_cpu: float = 0.0  # CPU seconds of the bot process
    deferred: int = 0  # replies that took a deferral and a followup (two requests, not one)

    @property
    def timeouts(self) -> int:
        return len(self.unanswered)

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def throughput(self) -> float:
        return self.count / self.wall if self.wall else 0.0

    @property
    def cpu_per_reply(self) -> float:
        """Bot CPU seconds per reply: steadier than latency on a machine shared with others."""
        return self.bot_cpu / self.count if self.count else 0.0

    def p(self, q: float) -> float:
        return percentile(self.latencies, q)

    def merge(self, other: CellResult) -> None:
        self.latencies += other.latencies
        self.wall += other.wall
        self.refused += other.refused
        self.unanswered += other.unanswered
        self.fake_cpu += other.fake_cpu
        self.bot_cpu += other.bot_cpu
        self.deferred += other.deferred


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100), interpolated; 0 for no values."""
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[round(q * 10) - 1]


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of a process (0 when it is gone)."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS


def memory_kib(pid: int | None, key: str = "VmHWM") -> int:
    """A memory figure of /proc/<pid>/status in KiB (VmHWM: peak resident set)."""
    if pid is None:
        return 0
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


async def run_cell(
    fake: BenchFake,
    requests: Sequence[Request],
    concurrency: int,
    *,
    bot_pid: int | None,
    timeout: float = 20.0,
) -> CellResult:
    """Sends ``requests`` keeping ``concurrency`` in flight (a closed loop: each reply lets the
    next request go) and measures each one from dispatch to its complete reply."""
    result = CellResult()
    pending = iter(requests)
    loop = asyncio.get_running_loop()

    async def worker() -> None:
        for request in pending:
            reply, future = fake.send(request)
            try:
                done_at = await asyncio.wait_for(future, timeout)
            except TimeoutError:
                fake.forget(reply)
                result.unanswered.append(reply.record.id)
                continue
            result.latencies.append(done_at - reply.record.created)
            if reply.ephemeral:
                result.refused.append(reply.text)

    cpu_before, bot_before = time.process_time(), cpu_seconds(bot_pid)
    deferred_before = fake.deferred
    start = loop.time()
    await asyncio.gather(*(worker() for _ in range(min(concurrency, len(requests)))))
    result.wall = loop.time() - start
    result.fake_cpu = time.process_time() - cpu_before
    result.bot_cpu = cpu_seconds(bot_pid) - bot_before
    result.deferred = fake.deferred - deferred_before
    return result
