"""A database that cannot grow: the host's disk is full (or a quota, or a size limit of its
files, refuses more). Every change is refused then, with ``StorageFull``, which the bot
answers with one sentence saying so; whoever runs the bot reads it in the log once a minute,
not once per command (issue 19)."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeGuard

from bot.storage.errors import StorageFull

__all__ = ["NOTICE_SECONDS", "FullDisk", "is_full"]

log = logging.getLogger(__name__)

#: At most one log line per this many seconds while the disk stays full.
NOTICE_SECONDS = 60.0

#: SQLite's codes for a write the disk refused: SQLITE_FULL (ENOSPC), a write refused
#: otherwise (SQLITE_IOERR_WRITE: a quota, a file size limit), the shared memory that could
#: not grow (SQLITE_IOERR_SHMSIZE).
_SQLITE_FULL = 13
_REFUSED_WRITES = frozenset({_SQLITE_FULL, 778, 4874})


def is_full(error: BaseException) -> TypeGuard[sqlite3.Error]:
    """Whether ``error`` is SQLite saying that the disk refused to store more."""
    if not isinstance(error, sqlite3.Error):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and (code in _REFUSED_WRITES or code & 0xFF == _SQLITE_FULL)


class FullDisk:
    """Turns SQLite's "database or disk is full" into ``StorageFull``, and says so in the
    log at most once every ``every`` seconds."""

    def __init__(
        self,
        path: Path,
        *,
        every: float = NOTICE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._path = path
        self._every = every
        self._clock = clock
        self._said: float | None = None

    def notice(self, error: sqlite3.Error) -> None:
        """Log it, unless it was said less than ``every`` seconds ago."""
        now = self._clock()
        if self._said is not None and now - self._said < self._every:
            return
        self._said = now
        log.error(
            "The disk of %s is full (%s): every change is refused until the host frees "
            "space. Free space on that disk; the bot goes on by itself.",
            self._path,
            error,
        )

    def refused(self, error: sqlite3.Error) -> StorageFull:
        """The error to raise instead of ``error`` (after ``notice``)."""
        self.notice(error)
        return StorageFull(str(self._path))
