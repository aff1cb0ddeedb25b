"""A database that cannot grow: the host's disk is full (or a quota, or a size limit of its
files, refuses more). Every change is refused then, with ``StorageFull``, which the bot
answers with one sentence saying so; whoever runs the bot reads it in the log once a minute,
not once per command (issue 19).

A disk that refuses writes for another reason (mounted read-only: EROFS; failing: EIO) is
not full, and players were told so (issue 24 point 15). SQLite says ``SQLITE_FULL`` only
for ENOSPC; every other refused ``write`` is ``SQLITE_IOERR_WRITE``, without its errno. So
such an error is looked into once: a read-only mount, or a limit on file sizes this process
runs under (``ulimit -f``: as full as a full disk), and otherwise a disk that refuses to
write. The bot then says that it cannot write its database (``StorageUnwritable``)."""

from __future__ import annotations

import logging
import os
import resource
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeGuard

from bot.storage.errors import StorageFull, StorageUnwritable

__all__ = ["NOTICE_SECONDS", "FullDisk", "is_full", "mounted_read_only", "size_limited"]

log = logging.getLogger(__name__)

#: At most one log line per this many seconds while the disk stays full.
NOTICE_SECONDS = 60.0

#: SQLite's codes for a write the disk refused: SQLITE_FULL (ENOSPC), a write refused
#: otherwise (SQLITE_IOERR_WRITE: a quota, a file size limit, a read-only mount, EIO), the
#: shared memory that could not grow (SQLITE_IOERR_SHMSIZE), a sync that failed
#: (SQLITE_IOERR_FSYNC), and the SQLITE_READONLY family (a file that may not be written).
_SQLITE_FULL = 13
_SQLITE_READONLY = 8
_REFUSED_WRITES = frozenset({_SQLITE_FULL, 778, 4874, 1034})


def is_full(error: BaseException) -> TypeGuard[sqlite3.Error]:
    """Whether ``error`` is SQLite saying that the disk refused a write (full, or refusing
    for another reason: ``FullDisk.refused`` tells which)."""
    if not isinstance(error, sqlite3.Error):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and (
        code in _REFUSED_WRITES or code & 0xFF in (_SQLITE_FULL, _SQLITE_READONLY)
    )


def mounted_read_only(path: Path) -> bool:
    """Whether the file system holding ``path`` is mounted read-only."""
    try:
        return bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def size_limited() -> bool:
    """Whether this process may write files only up to a size (``ulimit -f``)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    return soft != resource.RLIM_INFINITY


class FullDisk:
    """Turns SQLite's "database or disk is full" into ``StorageFull``, and says so in the
    log at most once every ``every`` seconds."""

    def __init__(
        self,
        path: Path,
        *,
        every: float = NOTICE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        read_only: Callable[[Path], bool] = mounted_read_only,
        limited: Callable[[], bool] = size_limited,
    ) -> None:
        self._path = path
        self._every = every
        self._clock = clock
        self._read_only = read_only
        self._limited = limited
        self._said: float | None = None

    def is_full(self, error: sqlite3.Error) -> bool:
        """Whether the refused write means no room (rather than a disk refusing writes)."""
        code = getattr(error, "sqlite_errorcode", None)
        if code is None or code & 0xFF == _SQLITE_FULL:
            return True
        if code & 0xFF == _SQLITE_READONLY or code == 1034 or self._read_only(self._path):
            return False
        return self._limited()

    def notice(self, error: sqlite3.Error) -> None:
        """Log it, unless it was said less than ``every`` seconds ago."""
        now = self._clock()
        if self._said is not None and now - self._said < self._every:
            return
        self._said = now
        if self.is_full(error):
            log.error(
                "The disk of %s is full (%s): every change is refused until the host frees "
                "space. Free space on that disk; the bot goes on by itself.",
                self._path,
                error,
            )
        else:
            log.error(
                "The disk of %s refuses to write (%s: mounted read-only, or failing): every "
                "change is refused until it writes again. Check that disk (mount, dmesg); the "
                "bot goes on by itself.",
                self._path,
                error,
            )

    def refused(self, error: sqlite3.Error) -> StorageFull | StorageUnwritable:
        """The error to raise instead of ``error`` (after ``notice``)."""
        self.notice(error)
        if self.is_full(error):
            return StorageFull(str(self._path))
        return StorageUnwritable(str(self._path))
