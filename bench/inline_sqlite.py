"""An experiment, not a product: run the bot with aiosqlite's calls made on the event loop's
own thread (``python -m bench --inline-sqlite``).

The benchmark found that most of Salud's cost per command is the round trips to aiosqlite's
worker thread (a queue put, a thread wake-up, a wake-up of the loop: ~0.1–0.4 ms each on a
busy 2-core machine, 20–35 per changing command), not SQLite itself (~10 µs a statement).
This wrapper measures what Salud would cost without them, by patching aiosqlite in the bot
process only; the production code is unchanged. Whether to make the change for real (blocking
the loop for each statement; a checkpoint's fsync would then block it too) is a design choice.
"""

from __future__ import annotations

import runpy
import sqlite3
import sys
from typing import Any

import aiosqlite.core


def _patch() -> None:
    connect: Any = sqlite3.connect

    def connect_any_thread(*args: Any, **kwargs: Any) -> Any:
        kwargs["check_same_thread"] = False
        return connect(*args, **kwargs)

    sqlite3.connect = connect_any_thread
    queued: Any = aiosqlite.core.Connection._execute

    async def execute_inline(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if not self._running or self._connection is None:
            return await queued(self, fn, *args, **kwargs)  # connecting, closing
        return fn(*args, **kwargs)

    aiosqlite.core.Connection._execute = execute_inline  # type: ignore[method-assign]


if __name__ == "__main__":
    _patch()
    sys.argv = ["bot"]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
