# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""Counting the asyncio tasks of the bot process, for tests of what its background work
costs (issue 19: tasks and memory that grow with the load).

Inside the bot (``install``, called by ``devkit/sitecustomize`` when
``SALUD_DEVKIT_TASK_PROBE`` names a file): every task the event loop creates is counted, by
the name of its coroutine, until it is done; the largest number alive at once is kept, since
the start and since the last report. On ``SIGUSR1`` the process writes its counts to that
file, as JSON.

In the test (``TaskProbe``): ``await probe.report()`` asks for the counts and reads them;
``rss_kib()`` reads the process's resident memory from ``/proc``.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ENV", "TaskCounts", "TaskProbe", "install", "probe_env"]

#: The environment variable naming the file the bot writes its counts to.
ENV = "SALUD_DEVKIT_TASK_PROBE"


def install(path: str) -> None:
    """Count the tasks of every event loop of this process; write the counts to ``path`` on
    ``SIGUSR1``."""
    live: Counter[str] = Counter()
    state = {"live": 0, "max": 0, "max_since_report": 0, "reports": 0}
    most: Counter[str] = Counter()
    original = asyncio.base_events.BaseEventLoop.create_task

    def finished(name: str) -> Any:
        def done(_: object) -> None:
            state["live"] -= 1
            live[name] -= 1

        return done

    def create_task(self: Any, coro: Any, *args: Any, **kwargs: Any) -> Any:
        task = original(self, coro, *args, **kwargs)
        name = getattr(coro, "__qualname__", type(coro).__name__)
        state["live"] += 1
        live[name] += 1
        most[name] = max(most[name], live[name])
        state["max"] = max(state["max"], state["live"])
        state["max_since_report"] = max(state["max_since_report"], state["live"])
        task.add_done_callback(finished(name))
        return task

    asyncio.base_events.BaseEventLoop.create_task = create_task  # type: ignore[method-assign]

    def report(signum: int, frame: object) -> None:
        state["reports"] += 1
        counts = {
            "reports": state["reports"],
            "live": state["live"],
            "max": state["max"],
            "max_since_report": state["max_since_report"],
            "live_by_name": {name: count for name, count in live.items() if count},
            "max_by_name": dict(most),
        }
        state["max_since_report"] = state["live"]
        temporary = f"{path}.tmp"
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(counts, file)
        os.replace(temporary, path)

    signal.signal(signal.SIGUSR1, report)


def probe_env(path: Path) -> dict[str, str]:
    """The environment of a bot that counts its tasks into ``path``."""
    return {ENV: str(path)}


@dataclass(frozen=True)
class TaskCounts:
    """One report of the bot's tasks."""

    reports: int
    live: int
    max: int
    max_since_report: int
    live_by_name: dict[str, int]
    max_by_name: dict[str, int]


class TaskProbe:
    """The test's side: asks the bot process ``pid`` for its task counts."""

    def __init__(self, pid: int, path: Path) -> None:
        self.pid = pid
        self.path = path
        self._reports = 0

    async def report(self, timeout: float = 5.0) -> TaskCounts:
        """Ask for the counts (``SIGUSR1``) and wait until the bot wrote them."""
        os.kill(self.pid, signal.SIGUSR1)
        wanted = self._reports + 1
        deadline = time.monotonic() + timeout
        while True:
            counts = self._read()
            if counts is not None and counts.reports >= wanted:
                self._reports = counts.reports
                return counts
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot wrote no task counts to {self.path} in {timeout} s")
            await asyncio.sleep(0.02)

    def _read(self) -> TaskCounts | None:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        return TaskCounts(**raw)

    def rss_kib(self) -> int:
        """The process's resident memory now (``VmRSS``), in KiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError(f"no VmRSS for process {self.pid}")
