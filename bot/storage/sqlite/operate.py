"""What ``salud backup PATH`` and ``salud check`` do to an SQLite database (the command line
is ``bot/config/operate.py``). They use the standard library's ``sqlite3`` (a short
command-line run, no event loop to keep free).

- ``check`` runs the bot's own soundness check of the file (``bot.storage.sqlite.file_check``:
  header, schema version, another program's tables, ``PRAGMA integrity_check``) read-only,
  leaving nothing beside the file, and counts what it holds.
- ``backup`` copies the database with SQLite's online backup API, in one step: one read
  transaction, so the copy is the database as it was when the backup started, while the bot
  keeps writing (WAL readers do not block the writer). The copy is written beside its target
  and renamed into place only once it is complete and checked (the same check), and it is a
  single self-contained file (rollback journal, no ``-wal`` to carry along). A target that is
  the database or a file SQLite keeps beside it (``-wal``, ``-shm``, ``-journal``), however
  spelled, is refused: the bot maps ``-shm`` in memory, and a file renamed over it splits
  the processes that share the database (issue 19).

Each failure is one line that names the file it is about (the database, never a copy that
was not written) and says what to do.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.default_path import DEFAULT_DATABASE_PATH
from bot.storage.reports import DatabaseReport, OperateError
from bot.storage.sqlite.database import latest_version
from bot.storage.sqlite.file_check import (
    COMPANION_SUFFIXES,
    Unsound,
    UnsoundDatabase,
    file_state,
    one_line,
    open_read_only,
    sound_database,
)

__all__ = [
    "COUNT_SERVERS",
    "backup",
    "backup_target",
    "check",
    "partial_beside",
    "sound_copy",
    "unsound_words",
    "writable_target",
]

#: The servers a database knows (said the same on both engines): a table's id, where a
#: character moved to another table plays and that table's history is kept, is its server's.
COUNT_SERVERS = (
    "SELECT count(*) FROM (SELECT guild_id FROM guild_settings"
    " UNION SELECT guild_id FROM game_tables"
    " UNION SELECT c.guild_id FROM characters AS c"
    " WHERE NOT EXISTS (SELECT 1 FROM game_tables AS t WHERE t.id = c.guild_id)"
    " UNION SELECT h.guild_id FROM history AS h"
    " WHERE NOT EXISTS (SELECT 1 FROM game_tables AS t WHERE t.id = h.guild_id)) AS known"
)


def _missing(path: Path) -> OperateError:
    return OperateError(
        f"{path}: no such file. Set DATABASE_PATH to the bot's database "
        f"(default {DEFAULT_DATABASE_PATH}; the bot creates it on its first start)."
    )


def _not_sqlite(path: Path) -> OperateError:
    return OperateError(f"{path} is not an SQLite database (wrong header or empty file).")


def _not_salud(path: Path) -> OperateError:
    return OperateError(f"{path} is an SQLite file but not a Salud database.")


def unsound_words(
    error: UnsoundDatabase, path: Path, expected: int, *, copying: bool
) -> OperateError:
    """``salud check``'s and ``salud backup``'s line for what the shared check found in the
    database at ``path`` (``error.path`` may be a copy of it)."""
    not_copied = ": no copy was written" if copying else ""
    match error.kind:
        case Unsound.NOT_A_FILE:
            return OperateError(f"{path} is a folder. Set DATABASE_PATH to the database file.")
        case Unsound.UNREADABLE:
            return OperateError(f"{path} cannot be read ({error.detail}){not_copied}.")
        case Unsound.NOT_SQLITE:
            return _not_sqlite(path)
        case Unsound.FOREIGN:
            return _not_salud(path)
        case Unsound.NEWER:
            return OperateError(
                f"{path} has schema version {error.version}, newer than this Salud's "
                f"{expected}: it was written by a newer version{not_copied}. Update Salud."
            )
        case Unsound.DAMAGED:
            return OperateError(
                f"{path} is damaged (integrity check: {error.detail}){not_copied}. "
                "Restore it from a backup."
            )


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    """Characters and servers, in the check's read transaction."""
    characters = int(conn.execute("SELECT count(*) FROM characters").fetchone()[0])
    servers = int(conn.execute(COUNT_SERVERS).fetchone()[0])
    return characters, servers


def _sound(path: Path, named: Path, expected: int, *, copying: bool = False) -> DatabaseReport:
    """The shared soundness check (``bot.storage.sqlite.file_check``, thorough), read-only and
    leaving nothing beside the file; what is wrong is said of ``named``."""
    try:
        with sound_database(path, expected, thorough=True, leave_nothing=True) as (found, conn):
            if found.state == "missing":
                raise _missing(named)
            if found.state == "empty":
                raise _not_sqlite(named)
            if conn is None or found.state == "blank":
                raise _not_salud(named)
            characters, servers = _counts(conn)
    except UnsoundDatabase as error:
        raise unsound_words(error, named, expected, copying=copying) from None
    except sqlite3.DatabaseError as error:
        raise OperateError(
            f"{named} cannot be read as a Salud database ({one_line(str(error))})."
        ) from None
    return DatabaseReport(named, path.stat().st_size, found.version, expected, characters, servers)


def check(path: Path) -> DatabaseReport:
    """Check the database read-only; raise OperateError when it is not sound."""
    return _sound(path, path, latest_version())


def backup_target(destination: Path, now: datetime) -> Path:
    """The backup file: ``destination`` itself, or a dated file in it when it is a folder."""
    if destination.is_dir():
        return destination / f"salud-{now.strftime('%Y%m%d-%H%M%S')}.sqlite3"
    return destination


def _database_file(source: Path, target: Path) -> str | None:
    """The name of the file of the live database that ``target`` is (the database or a
    companion SQLite keeps beside it), however it is spelled: relative, with ``..``, through
    a symbolic link, or a hard link. None when it is another file."""
    spelled = {Path(os.path.abspath(target)), target.resolve()}
    bases = {Path(os.path.abspath(source)), source.resolve()}
    for base in bases:
        for suffix in ("", *COMPANION_SUFFIXES):
            candidate = Path(f"{base}{suffix}")
            if candidate in spelled or candidate.resolve() in spelled:
                return candidate.name
            with contextlib.suppress(OSError):
                if target.exists() and candidate.exists() and target.samefile(candidate):
                    return candidate.name
    return None


def _refuse_target(source: Path, target: Path) -> None:
    """Refuse what a copy must not replace: the live database or its companions (the bot
    maps ``-shm`` in memory: a file put in its place splits the processes that share the
    database, and destroys it), what is not a regular file, a folder that is not there."""
    name = _database_file(source, target)
    if name is not None:
        what = "the database itself" if name == source.name else f"the database's {name} file"
        raise OperateError(
            f"{target} is {what}: a copy written there would destroy the database. "
            "Give another file or folder (e.g. salud backup backups/)."
        )
    writable_target(target)


def writable_target(target: Path) -> None:
    """Refuse a target that is not a regular file, or whose folder is not there."""
    if target.exists() and not target.is_file():
        raise OperateError(
            f"{target} is not a regular file: a copy cannot replace it. Give a file or a folder."
        )
    if not target.parent.is_dir():
        raise OperateError(f"{target.parent}: no such folder. Create it or choose another.")


def partial_beside(target: Path) -> Path:
    """A new empty file beside ``target``, renamed over it once the copy in it is sound."""
    try:
        handle, partial_name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".partial", dir=target.parent
        )
    except OSError as error:
        raise OperateError(
            f"cannot write in {target.parent} ({error.strerror or error}): a copy is made "
            "beside its target, then renamed. Give a folder you can write in."
        ) from None
    os.close(handle)
    return Path(partial_name)


def sound_copy(partial: Path, named: Path) -> DatabaseReport:
    """The thorough check of a copy just written; what is wrong is said of ``named``."""
    return _sound(partial, named, latest_version(), copying=True)


def backup(source: Path, destination: Path, *, now: datetime | None = None) -> DatabaseReport:
    """Copy the live database to ``destination`` (a file, or a folder for a dated file),
    check the copy, and return what it holds. The copy is written beside its target and
    renamed into place once checked: a target it cannot write that way is refused."""
    expected = latest_version()
    target = backup_target(destination, now or datetime.now(UTC))
    _refuse_target(source, target)
    try:
        state = file_state(source)
    except UnsoundDatabase as error:
        raise unsound_words(error, source, expected, copying=True) from None
    if state == "missing":
        raise _missing(source)
    if state == "empty":
        raise _not_sqlite(source)
    partial = partial_beside(target)
    try:
        try:
            with (
                open_read_only(source, leave_nothing=True) as conn,
                contextlib.closing(sqlite3.connect(partial)) as copy,
            ):
                conn.backup(copy)  # pages=-1: every page in one step, one snapshot
                copy.execute("PRAGMA journal_mode = DELETE")
        except sqlite3.Error as error:
            raise OperateError(
                f"{source} could not be copied ({one_line(str(error))}): no copy was written."
            ) from None
        # The copy holds the database page for page: what is wrong with it is the source's.
        report = _sound(partial, source, expected, copying=True)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return replace(report, path=target)
