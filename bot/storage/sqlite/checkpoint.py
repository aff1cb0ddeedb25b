"""WAL checkpoints off the command path.

In WAL mode SQLite appends each commit to the ``-wal`` file and, by default, the commit that
takes the file past 1,000 pages copies it back into the database and syncs it to disk
(``fsync``): a stall of 5–20 ms on the command that happens to commit then. The benchmark of
issue 6 found these stalls as the p99 of every changing command with one in flight (16 ms
against a median of 5). So the bot's connection has ``wal_autocheckpoint = 0`` and this
class checkpoints from a second connection, on its own thread, in the background, once
enough commits have accumulated. A ``PASSIVE`` checkpoint never waits for the writer: the
bot keeps committing while the pages are copied and synced.

A checkpoint running beside the writer may never catch up with it while commands keep coming,
and SQLite starts the WAL file over only once it has been copied whole. So when the WAL holds
more than ``wal_limit`` frames at a round, one more round runs while the bot's storage lock
is held: it copies only what the first round left (the commits made meanwhile), and the WAL
starts over at the next commit. That round is the only one a command may wait for, and only
under a load without pauses.

Nothing is less durable: a commit is in the WAL file either way (``synchronous = NORMAL``),
and a crash between checkpoints only leaves a longer WAL for SQLite to recover on opening.

The main file alone must still be a complete database soon after the commands stop (someone
copies it as a backup; SQLITE-NOTES.md): so a round also runs once no commit came for
``QUIET_SECONDS``, and ``Storage.close`` truncates the WAL. A quiet round delays no command:
it runs when there is none, and ``PASSIVE`` never blocks the writer.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import aiosqlite

from bot.storage.sqlite.full_disk import FullDisk, is_full

__all__ = ["COMMITS_PER_CHECKPOINT", "QUIET_SECONDS", "WAL_LIMIT_FRAMES", "Checkpointer"]

log = logging.getLogger(__name__)

#: A changing command writes 5–10 pages; ~100 commits is about SQLite's own default of 1,000.
COMMITS_PER_CHECKPOINT = 100
#: Frames (pages) left in the WAL after a round that make the next round hold the lock: 16 MB.
WAL_LIMIT_FRAMES = 4000
#: Seconds without a commit after which the WAL is copied into the main file.
QUIET_SECONDS = 1.0


class Checkpointer:
    """Runs ``PRAGMA wal_checkpoint(PASSIVE)`` on its own connection after every ``every``
    commits, one round at a time, off the caller's path; ``exclusive`` holds the storage's
    lock (for the catch-up round, see the module's docstring)."""

    def __init__(
        self,
        path: Path,
        exclusive: Callable[[], AbstractAsyncContextManager[None]],
        *,
        every: int = COMMITS_PER_CHECKPOINT,
        wal_limit: int = WAL_LIMIT_FRAMES,
        quiet: float | None = QUIET_SECONDS,
        full: FullDisk | None = None,
    ) -> None:
        self._path = path
        self._exclusive = exclusive
        self._every = every
        self._wal_limit = wal_limit
        self._pending = 0
        self._conn: aiosqlite.Connection | None = None
        self._running: asyncio.Task[None] | None = None
        self._closed = False
        self._quiet = quiet
        self._quiet_timer: asyncio.TimerHandle | None = None
        self._last_commit = 0.0  # the loop's time of the latest commit
        self._full = full
        self.completed = 0  # rounds run (the tests read them)
        self.exclusive_rounds = 0

    def committed(self) -> None:
        """Count a commit; start a checkpoint when enough have piled up and none runs, or
        once no other commit follows for ``quiet`` seconds."""
        self._pending += 1
        if self._closed:
            return
        if self._quiet is not None:
            # One timer for a stretch of commits, not one per commit: when it fires it looks
            # at the last commit's time and waits out the rest of the quiet, if any.
            loop = asyncio.get_running_loop()
            self._last_commit = loop.time()
            if self._quiet_timer is None:
                self._quiet_timer = loop.call_later(
                    self._quiet, self._on_quiet, context=contextvars.Context()
                )
        if self._pending >= self._every:
            self._start()

    def _on_quiet(self) -> None:
        self._quiet_timer = None
        if self._quiet is None or self._closed:
            return
        loop = asyncio.get_running_loop()
        left = self._last_commit + self._quiet - loop.time()
        # A commit came meanwhile (wait out the rest), or a round is already running (look
        # again later).
        if left > 0 or (self._pending and not self._start()):
            self._quiet_timer = loop.call_later(
                max(left, 0.0) or self._quiet, self._on_quiet, context=contextvars.Context()
            )

    def _start(self) -> bool:
        if self._running is not None and not self._running.done():
            return False
        self._pending = 0
        # A context of its own: not the one of the command whose commit started it.
        self._running = asyncio.get_running_loop().create_task(
            self._checkpoint(), name="salud-wal-checkpoint", context=contextvars.Context()
        )
        return True

    async def _round(self) -> int:
        """One PASSIVE checkpoint; returns the frames in the WAL (all copied but those
        committed meanwhile: SQLite starts the WAL over only when it was copied whole)."""
        if self._conn is None:
            # mode=rw: a file deleted meanwhile is not created anew, empty, at its path.
            uri = f"{self._path.absolute().as_uri()}?mode=rw"
            self._conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        async with self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
            row = await cursor.fetchone()
        self.completed += 1
        log.debug("WAL checkpoint (busy, frames, copied): %s", row and tuple(row))
        return 0 if row is None else int(row[1])

    async def _checkpoint(self) -> None:
        try:
            frames = await self._round()
            if frames > self._wal_limit:
                async with self._exclusive():
                    self.exclusive_rounds += 1
                    await self._round()
        except Exception as error:
            # The next checkpoint (or closing the database) copies what this one could not.
            if self._full is not None and is_full(error):
                self._full.notice(error)
            else:
                log.exception("WAL checkpoint of %s failed", self._path)

    async def wait(self) -> None:
        """Wait for the checkpoint in progress, if any."""
        running = self._running
        if running is not None:
            await asyncio.shield(running)

    async def close(self) -> None:
        """Let a checkpoint in progress finish, then close its connection."""
        self._closed = True
        if self._quiet_timer is not None:
            self._quiet_timer.cancel()
            self._quiet_timer = None
        await self.wait()
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()
