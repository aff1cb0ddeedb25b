"""``salud backup PATH`` and ``salud check``: the database tools of whoever runs the bot.

Both read ``DATABASE_PATH`` (environment, then ``.env``) like the bot and need no token. They
use the standard library's ``sqlite3`` (a short command-line run, no event loop to keep free)
and print one line: what was found on success (exit 0), what is wrong and what to do on
failure (exit 1; 2 for a wrong command line).

- ``check`` opens the file read-only (``file:PATH?mode=ro``), so it never writes to it, and
  runs ``PRAGMA integrity_check`` and reads the schema version.
- ``backup`` copies the database with SQLite's online backup API, in one step: one read
  transaction, so the copy is the database as it was when the backup started, while the bot
  keeps writing (WAL readers do not block the writer). The copy is written beside its target
  and renamed into place only once it is complete and checked, and it is a single
  self-contained file (rollback journal, no ``-wal`` to carry along).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dotenv import load_dotenv

from bot.config.settings import DEFAULT_DATABASE_PATH
from bot.storage.file_check import read_only_uri

__all__ = [
    "COMMANDS",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "DatabaseReport",
    "OperateError",
    "backup",
    "check",
    "database_path",
    "main",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

#: The first arguments of ``salud`` that select one of these tools instead of the bot.
COMMANDS = frozenset({"backup", "check", "-h", "--help"})

_SQLITE_MAGIC = b"SQLite format 3\x00"
_BUSY_TIMEOUT_S = 10.0


class OperateError(Exception):
    """The database cannot be checked or copied; the message says why and what to do."""


@dataclass(frozen=True)
class DatabaseReport:
    """What a sound Salud database holds."""

    path: Path
    size_bytes: int
    schema_version: int
    expected_version: int
    characters: int
    servers: int


def database_path(environ: Mapping[str, str]) -> Path:
    """``DATABASE_PATH`` as the bot reads it (default ``data/bot.sqlite3``)."""
    return Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH).expanduser()


def _expected_version() -> int:
    # Imported here: the storage package pulls in aiosqlite, which `--help` does not need.
    from bot.storage.database import latest_version

    return latest_version()


def _require_sqlite_file(path: Path) -> None:
    """Refuse, without creating anything, what SQLite would open as a new empty database."""
    if not path.exists():
        raise OperateError(
            f"{path}: no such file. Set DATABASE_PATH to the bot's database "
            f"(default {DEFAULT_DATABASE_PATH}; the bot creates it on its first start)."
        )
    if path.is_dir():
        raise OperateError(f"{path} is a folder. Set DATABASE_PATH to the database file.")
    try:
        with path.open("rb") as handle:
            header = handle.read(len(_SQLITE_MAGIC))
    except OSError as error:
        raise OperateError(f"{path}: cannot read it ({error.strerror or error}).") from error
    if header != _SQLITE_MAGIC:
        raise OperateError(f"{path} is not an SQLite database (wrong header or empty file).")


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection that cannot write to ``path``.

    While the bot runs, its ``-wal`` file exists and ``mode=ro`` reads through it. When it is
    stopped (no ``-wal``), ``immutable=1`` as well: otherwise a read-only reader of a WAL
    database leaves empty ``-wal`` and ``-shm`` files behind, which it cannot delete.
    """
    in_use = Path(f"{path}-wal").exists() or Path(f"{path}-shm").exists()
    uri = read_only_uri(path) + ("" if in_use else "&immutable=1")
    conn = sqlite3.connect(uri, uri=True, timeout=_BUSY_TIMEOUT_S)
    try:
        yield conn
    finally:
        conn.close()


def _inspect(conn: sqlite3.Connection, path: Path, size_bytes: int) -> DatabaseReport:
    """Integrity, schema version and counts of an open database, in one read transaction."""
    expected = _expected_version()
    try:
        conn.execute("BEGIN")
        problems = [str(row[0]) for row in conn.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            raise OperateError(
                f"{path} is damaged (integrity check: {'; '.join(problems)}). "
                "Restore it from a backup."
            )
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version == 0:
            raise OperateError(f"{path} is an SQLite file but not a Salud database.")
        if version > expected:
            raise OperateError(
                f"{path} has schema version {version}, newer than this Salud's {expected}: "
                "it was written by a newer version. Update Salud."
            )
        characters = int(conn.execute("SELECT count(*) FROM characters").fetchone()[0])
        servers = int(
            conn.execute(
                "SELECT count(*) FROM (SELECT guild_id FROM characters"
                " UNION SELECT guild_id FROM guild_settings UNION SELECT guild_id FROM history)"
            ).fetchone()[0]
        )
        conn.execute("COMMIT")
    except sqlite3.DatabaseError as error:
        raise OperateError(f"{path} cannot be read as a Salud database ({error}).") from error
    return DatabaseReport(path, size_bytes, version, expected, characters, servers)


def check(path: Path) -> DatabaseReport:
    """Check the database read-only; raise OperateError when it is not sound."""
    _require_sqlite_file(path)
    try:
        with _read_only(path) as conn:
            return _inspect(conn, path, path.stat().st_size)
    except sqlite3.Error as error:
        raise OperateError(f"{path} cannot be opened ({error}).") from error


def _target(destination: Path, now: datetime) -> Path:
    """The backup file: ``destination`` itself, or a dated file in it when it is a folder."""
    if destination.is_dir():
        return destination / f"salud-{now.strftime('%Y%m%d-%H%M%S')}.sqlite3"
    return destination


def backup(source: Path, destination: Path, *, now: datetime | None = None) -> DatabaseReport:
    """Copy the live database to ``destination`` (a file, or a folder for a dated file),
    check the copy, and return what it holds."""
    _require_sqlite_file(source)
    target = _target(destination, now or datetime.now(UTC))
    if target.resolve() in {source.resolve(), Path(f"{source}-wal").resolve()}:
        raise OperateError(f"{target} is the database itself. Give another file or folder.")
    if not target.parent.is_dir():
        raise OperateError(f"{target.parent}: no such folder. Create it or choose another.")
    try:
        handle, partial_name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".partial", dir=target.parent
        )
    except OSError as error:
        raise OperateError(
            f"cannot write in {target.parent} ({error.strerror or error})."
        ) from error
    os.close(handle)
    partial = Path(partial_name)
    try:
        try:
            with _read_only(source) as conn, contextlib.closing(sqlite3.connect(partial)) as copy:
                conn.backup(copy)  # pages=-1: every page in one step, one snapshot
                copy.execute("PRAGMA journal_mode = DELETE")
        except sqlite3.Error as error:
            raise OperateError(f"{source} could not be copied ({error}).") from error
        with contextlib.closing(sqlite3.connect(partial)) as copy:
            report = _inspect(copy, target, partial.stat().st_size)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return report


def _size(size_bytes: int) -> str:
    if size_bytes < 1024 * 1024:
        return f"{size_bytes / 1024:.1f} KiB"
    return f"{size_bytes / (1024 * 1024):.1f} MiB"


def _counts(report: DatabaseReport) -> str:
    characters = "character" if report.characters == 1 else "characters"
    servers = "server" if report.servers == 1 else "servers"
    return f"{report.characters} {characters} in {report.servers} {servers}"


def _version(report: DatabaseReport) -> str:
    if report.schema_version == report.expected_version:
        return f"schema version {report.schema_version} (current)"
    return (
        f"schema version {report.schema_version} "
        f"(the bot updates it to {report.expected_version} when it starts)"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="salud",
        description="Without a command: run the bot. The database is DATABASE_PATH "
        f"(environment or .env; default {DEFAULT_DATABASE_PATH}).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    copy = commands.add_parser(
        "backup", help="write a consistent copy of the database, also while the bot runs"
    )
    copy.add_argument("path", type=Path, help="the backup file, or a folder for a dated file")
    commands.add_parser("check", help="check the database (integrity, schema version)")
    return parser


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """``salud backup PATH`` / ``salud check``: one line out, the exit code back."""
    arguments = _parser().parse_args(list(argv))  # exits 2 with usage on a bad command line
    if environ is None:
        load_dotenv(Path.cwd() / ".env", override=False)
        environ = os.environ
    source = database_path(environ)
    try:
        if arguments.command == "check":
            report = check(source)
            print(
                f"salud check: {report.path} is sound: integrity ok, {_version(report)}, "
                f"{_counts(report)}"
            )
        else:
            report = backup(source, arguments.path)
            print(
                f"salud backup: wrote {report.path} ({_size(report.size_bytes)}, "
                f"{_counts(report)}, integrity ok)"
            )
    except OperateError as error:
        print(f"salud {arguments.command}: {error}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK
