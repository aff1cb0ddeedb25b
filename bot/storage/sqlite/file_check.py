"""Whether a database file is sound, checked read-only: the one check that the bot runs at
start and ``salud check`` / ``salud backup`` run on demand (each says what it found in its
own words: ``check_database_file`` here for the start, ``bot.config.operate`` for the tools).

The bot opens its file with pragmas that write (``journal_mode = WAL``) and then migrates it.
A file it must refuse — not SQLite, truncated or damaged, another program's tables, a schema
newer than this code — has to be refused before that, and left byte for byte as it was
(COMMANDS.md, exit code 2). So the check reads the file's header, then opens it so that
SQLite cannot write to it (``open_read_only``), reads ``user_version`` and the list of tables
(reading them writes nothing) and runs ``PRAGMA quick_check`` (every page read once) or, for
``salud check``, the slower ``integrity_check`` (indexes cross-checked too).
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from urllib.parse import quote

from bot.storage.errors import DatabaseUnusable

__all__ = [
    "COMPANION_SUFFIXES",
    "DatabaseFileError",
    "Soundness",
    "Unsound",
    "UnsoundDatabase",
    "check_database_file",
    "file_state",
    "one_line",
    "open_read_only",
    "read_only_uri",
    "sound_database",
]

#: The files SQLite keeps beside a database ``X``: ``X-wal``, ``X-shm``, ``X-journal``.
COMPANION_SUFFIXES = ("-wal", "-shm", "-journal")

_SQLITE_MAGIC = b"SQLite format 3\x00"
#: SQLite's own tables, which any database may hold.
_SQLITE_TABLES = ("sqlite_%",)
_BUSY_TIMEOUT_S = 10.0


def one_line(text: str, limit: int = 200) -> str:
    """``text`` on one line (SQLite's reports hold line breaks), at most ``limit`` long."""
    flat = " ".join(text.replace("*** in database main ***", "").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` so that SQLite cannot write to it."""
    return f"file:{quote(str(path.resolve()))}?mode=ro"


class Unsound(Enum):
    """What is wrong with a database file."""

    NOT_A_FILE = "not a file"
    UNREADABLE = "cannot be opened"
    NOT_SQLITE = "not SQLite"
    DAMAGED = "damaged"
    FOREIGN = "another program's tables"
    NEWER = "newer schema"


class UnsoundDatabase(Exception):
    """The file cannot be used: ``kind`` says why, ``detail`` (one line) what SQLite said,
    ``version`` the schema version it has (``NEWER``)."""

    def __init__(self, path: Path, kind: Unsound, detail: str = "", version: int = 0) -> None:
        super().__init__(f"{path}: {kind.value}{f' ({detail})' if detail else ''}")
        self.path = path
        self.kind = kind
        self.detail = detail
        self.version = version


@dataclass(frozen=True)
class Soundness:
    """What the check found in a usable file.

    ``state`` is ``"missing"``, ``"empty"`` (no bytes), ``"blank"`` (SQLite, no table, no
    version) or ``"salud"``; ``version`` is its schema version (0 unless ``"salud"``)."""

    path: Path
    state: str
    version: int

    @property
    def fresh(self) -> bool:
        """Nothing in it yet: the bot creates its schema."""
        return self.state != "salud"


@contextlib.contextmanager
def open_read_only(path: Path, *, leave_nothing: bool = False) -> Iterator[sqlite3.Connection]:
    """A connection through which nothing is written to ``path``.

    With a ``-shm`` beside it (a bot has it open, or had) it reads through the WAL as a
    reader among others. Otherwise SQLite would create a ``-shm`` (and a ``-wal``) beside a
    database in WAL mode, which a read-only connection cannot remove: with ``leave_nothing``
    (``salud check`` and ``salud backup``, run by hand) the file is read as immutable when it
    has no ``-wal`` either, and through a private copy of the file and its ``-wal`` when it
    has one (the committed changes of a bot that did not stop cleanly). The start-up check
    lets SQLite make them: the bot opens the file right after and uses them, and a read that
    honours other processes' locks is what two processes starting together need.
    """
    wal, shm = (Path(f"{path}{suffix}") for suffix in ("-wal", "-shm"))
    if shm.exists() or not leave_nothing:
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=_BUSY_TIMEOUT_S)
        try:
            yield conn
        finally:
            conn.close()
        return
    if not wal.exists():
        uri = read_only_uri(path) + "&immutable=1"
        conn = sqlite3.connect(uri, uri=True, timeout=_BUSY_TIMEOUT_S)
        try:
            yield conn
        finally:
            conn.close()
        return
    with tempfile.TemporaryDirectory(prefix="salud-check-") as private:
        copy = Path(private) / path.name
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, Path(f"{copy}-wal"))
        conn = sqlite3.connect(read_only_uri(copy), uri=True, timeout=_BUSY_TIMEOUT_S)
        try:
            yield conn
        finally:
            conn.close()


def _header(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(len(_SQLITE_MAGIC))
    except OSError as error:
        raise UnsoundDatabase(path, Unsound.UNREADABLE, error.strerror or str(error)) from None


def file_state(path: Path) -> str:
    """``"missing"``, ``"empty"`` or ``"sqlite"`` (its header says so), from the first bytes
    of ``path`` alone; ``UnsoundDatabase`` for what is not a file, cannot be read or is not
    SQLite."""
    if not path.exists():
        return "missing"
    if not path.is_file():
        raise UnsoundDatabase(path, Unsound.NOT_A_FILE)
    header = _header(path)
    if not header:
        return "empty"
    if header != _SQLITE_MAGIC:
        raise UnsoundDatabase(path, Unsound.NOT_SQLITE)
    return "sqlite"


@contextlib.contextmanager
def sound_database(
    path: str | Path, latest: int, *, thorough: bool = False, leave_nothing: bool = False
) -> Iterator[tuple[Soundness, sqlite3.Connection | None]]:
    """Check ``path`` without writing to it; raise ``UnsoundDatabase`` when it cannot be
    used. ``latest`` is the schema version this code writes: a higher ``user_version`` means
    a newer Salud wrote the file. ``thorough``: ``integrity_check`` instead of
    ``quick_check``. Yields what was found and, for a file that has one, the connection,
    inside the read transaction of the check (what else the caller reads comes from the same
    state). Blocking: call it from a thread when a loop runs.
    """
    target = Path(path)
    state = file_state(target)
    if state != "sqlite":
        yield Soundness(target, state, 0), None
        return
    with contextlib.ExitStack() as stack:
        try:
            conn = stack.enter_context(open_read_only(target, leave_nothing=leave_nothing))
        except (sqlite3.Error, OSError) as error:
            raise UnsoundDatabase(target, Unsound.UNREADABLE, one_line(str(error))) from None
        yield _inspect(conn, target, latest, thorough), conn


def _unsound(target: Path, error: sqlite3.DatabaseError) -> UnsoundDatabase:
    """What an error of SQLite's says about the file: not SQLite, damaged (its content), or
    unreadable (permissions, a lock, the disk)."""
    name = getattr(error, "sqlite_errorname", "")
    if name == "SQLITE_NOTADB":
        return UnsoundDatabase(target, Unsound.NOT_SQLITE)
    if name.startswith("SQLITE_CORRUPT") or name == "SQLITE_IOERR_SHORT_READ" or not name:
        return UnsoundDatabase(target, Unsound.DAMAGED, one_line(str(error)))
    return UnsoundDatabase(target, Unsound.UNREADABLE, one_line(str(error)))


def _inspect(conn: sqlite3.Connection, target: Path, latest: int, thorough: bool) -> Soundness:
    try:
        conn.execute("BEGIN")
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE ?",
            _SQLITE_TABLES,
        ).fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise _unsound(target, error) from None
    if version > latest:
        raise UnsoundDatabase(target, Unsound.NEWER, version=version)
    if version == 0 and tables:
        raise UnsoundDatabase(target, Unsound.FOREIGN)
    check = "integrity_check" if thorough else "quick_check"
    try:
        problems = [str(row[0]) for row in conn.execute(f"PRAGMA {check}(5)")]
    except sqlite3.DatabaseError as error:
        problems = [str(error)]
    if problems != ["ok"]:
        raise UnsoundDatabase(target, Unsound.DAMAGED, one_line("; ".join(problems)))
    return Soundness(target, "salud" if version else "blank", version)


# --- the start-up's words ---------------------------------------------------------------------


class DatabaseFileError(DatabaseUnusable):
    """A database file the bot must not use; ``str()`` is one line naming it and the fix."""

    def __init__(self, path: Path, problem: str, fix: str) -> None:
        self.path = path
        self.problem = problem
        self.fix = fix
        super().__init__(f"{path} {problem}. {fix}")


def _move_away(path: Path) -> str:
    return (
        f"Set DATABASE_PATH to Salud's database, or move {path.name} away to start "
        "with an empty one"
    )


def _start_up_error(error: UnsoundDatabase, latest: int) -> DatabaseFileError:
    path = error.path
    match error.kind:
        case Unsound.NOT_A_FILE:
            return DatabaseFileError(path, "is not a file", "Set DATABASE_PATH to a file's path")
        case Unsound.UNREADABLE:
            return DatabaseFileError(
                path,
                f"cannot be opened ({error.detail})",
                "Check its permissions and DATABASE_PATH",
            )
        case Unsound.NOT_SQLITE:
            return DatabaseFileError(path, "is not an SQLite database", _move_away(path))
        case Unsound.FOREIGN:
            return DatabaseFileError(
                path, "holds another program's tables, not Salud's", _move_away(path)
            )
        case Unsound.NEWER:
            return DatabaseFileError(
                path,
                f"was written by a newer version of Salud (schema {error.version}, this one "
                f"knows up to {latest})",
                "Run the newer Salud, or restore a backup made by this version",
            )
        case Unsound.DAMAGED:
            return DatabaseFileError(
                path,
                f"is damaged ({error.detail})",
                f"Restore a backup of it, or move {path.name} away to start with an empty one",
            )


def check_database_file(path: str | Path, latest: int) -> Soundness:
    """The start-up's check of ``path`` (``sound_database``): ``DatabaseFileError`` when it
    cannot be used; a missing, empty or blank file is fresh (the bot creates it)."""
    try:
        with sound_database(path, latest) as (found, _conn):
            return found
    except UnsoundDatabase as error:
        raise _start_up_error(error, latest) from None
