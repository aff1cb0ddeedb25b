"""Whether the database path still names the file the bot opened (issue 24 point 14).

SQLite keeps its file open: when someone deletes it (``rm`` of the file and its ``-wal`` and
``-shm``) or moves it away while the bot runs, every commit still succeeds, into a file the
next start will not find. Last round five ``/hurt`` were answered publicly so, and every
character was gone after the restart, with no line in the log. So each ``COMMIT`` is preceded,
in the same trip to aiosqlite's thread, by a ``stat`` of the path, compared with the device
and inode the bot opened: one system call, off the event loop, no trip of its own (its
``-wal`` and ``-shm`` go with it in every ``rm`` or ``mv`` the issue saw; a ``stat`` of each
would double the cost for a case nobody met). When the path names another file or none, the
change is refused (``DatabaseGone``, nothing stored), the log says so once, with how to put
the file back, and the bot stores again as soon as the path names the opened file again
(moved back).

Kept apart so that another engine can do without it (a server's database has no path).
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from bot.storage.errors import DatabaseGone

__all__ = ["DatabaseFile"]

log = logging.getLogger(__name__)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


class DatabaseFile:
    """The database file as opened; ``check`` refuses a commit once the path no longer
    names it."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._opened = _identity(path)
        self._lock = threading.Lock()  # checks run in aiosqlite's thread
        self._told = False

    def check(self) -> None:
        """Raise ``DatabaseGone`` when the path is no longer the file opened; logged once
        until it is back."""
        gone = _identity(self._path) != self._opened
        with self._lock:
            if not gone:
                if self._told:
                    self._told = False
                    log.warning(
                        "The database file %s is back: changes are stored again.", self._path
                    )
                return
            if not self._told:
                self._told = True
                log.error("%s", self._advice())
        raise DatabaseGone(str(self._path))

    def _advice(self) -> str:
        path = self._path
        still_open = _deleted_but_open(path)
        rescue = (
            f" While this process runs, the deleted file can still be copied back: "
            f"cp {still_open} {path}, then restart the bot."
            if still_open is not None
            else ""
        )
        return (
            f"The database file {path} was deleted, moved or replaced while the bot ran: "
            "every change is refused (the next start would not find it). If it was moved, "
            f"move it back to {path} with its -wal and -shm files, and the bot stores again by "
            f"itself. If it was deleted, stop the bot and restore {path} from a backup "
            f"(salud backup).{rescue}"
        )


def _deleted_but_open(path: Path) -> str | None:
    """``/proc/<pid>/fd/<n>`` of this process's handle on the deleted file (Linux), if any."""
    folder = Path("/proc/self/fd")
    wanted = f"{path.resolve(strict=False)} (deleted)"
    try:
        handles = list(folder.iterdir())
    except OSError:
        return None
    for handle in handles:
        try:
            target = os.readlink(handle)
        except OSError:
            continue
        if target == wanted:
            return f"/proc/{os.getpid()}/fd/{handle.name}"
    return None
