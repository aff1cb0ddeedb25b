"""Whether a database file can be trusted, checked read-only before anything writes to it.

The bot opens its file with pragmas that write (``journal_mode = WAL``) and then migrates it.
A file it must refuse — not SQLite, truncated or damaged, another program's tables, a schema
newer than this code — has to be refused before that, and left byte for byte as it was
(COMMANDS.md, exit code 2). So this module opens the file with ``file:PATH?mode=ro`` (SQLite
then cannot write to it), reads ``user_version`` and the list of tables (reading them writes
nothing) and runs ``PRAGMA quick_check`` (every page read once, no index cross-checks).

``check_database_file`` is the one public function; ``salud check`` may reuse it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

__all__ = ["DatabaseFileError", "FileReport", "check_database_file", "read_only_uri"]

#: SQLite's own tables, which any database may hold.
_SQLITE_TABLES = ("sqlite_%",)


class DatabaseFileError(Exception):
    """A database file the bot must not use; ``str()`` is one line naming it and the fix."""

    def __init__(self, path: Path, problem: str, fix: str) -> None:
        self.path = path
        self.problem = problem
        self.fix = fix
        super().__init__(f"{path} {problem}. {fix}")


@dataclass(frozen=True)
class FileReport:
    """What the check found in a usable file: ``version`` 0 and ``fresh`` for a new one."""

    path: Path
    version: int
    fresh: bool


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` so that SQLite cannot write to it."""
    return f"file:{quote(str(path.resolve()))}?mode=ro"


def _move_away(path: Path) -> str:
    return (
        f"Set DATABASE_PATH to Salud's database, or move {path.name} away to start "
        "with an empty one"
    )


def _damaged(path: Path, detail: str) -> DatabaseFileError:
    one_line = " ".join(detail.split())[:200]
    return DatabaseFileError(
        path,
        f"is damaged ({one_line})",
        f"Restore a backup of it, or move {path.name} away to start with an empty one",
    )


def check_database_file(path: str | Path, latest: int) -> FileReport:
    """Check ``path`` without writing to it; raise ``DatabaseFileError`` when it cannot be used.

    A missing or empty file is fresh (the bot creates it). ``latest`` is the schema version
    this code writes: a higher ``user_version`` means a newer Salud wrote the file.
    Blocking: call it from a thread when a loop runs.
    """
    target = Path(path)
    if not target.exists() or (target.is_file() and target.stat().st_size == 0):
        return FileReport(target, 0, fresh=True)
    if not target.is_file():
        raise DatabaseFileError(target, "is not a file", "Set DATABASE_PATH to a file's path")
    try:
        conn = sqlite3.connect(read_only_uri(target), uri=True, timeout=5.0)
    except sqlite3.Error as error:
        raise DatabaseFileError(
            target, f"cannot be opened ({error})", "Check its permissions and DATABASE_PATH"
        ) from None
    try:
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE ?",
                _SQLITE_TABLES,
            ).fetchone()[0]
        except sqlite3.DatabaseError as error:
            if getattr(error, "sqlite_errorname", "") == "SQLITE_NOTADB":
                raise DatabaseFileError(
                    target, "is not an SQLite database", _move_away(target)
                ) from None
            raise _damaged(target, str(error)) from None
        if version > latest:
            raise DatabaseFileError(
                target,
                f"was written by a newer version of Salud (schema {version}, this one knows "
                f"up to {latest})",
                "Run the newer Salud, or restore a backup made by this version",
            )
        if version == 0 and tables:
            raise DatabaseFileError(
                target, "holds another program's tables, not Salud's", _move_away(target)
            )
        try:
            problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(5)")]
        except sqlite3.DatabaseError as error:
            problems = [str(error)]
        if problems != ["ok"]:
            raise _damaged(target, "; ".join(problems))
        return FileReport(target, version, fresh=version == 0)
    finally:
        conn.close()
