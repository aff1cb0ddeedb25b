"""``salud backup PATH`` and ``salud check``: the database tools of whoever runs the bot.

Both read ``DATABASE_PATH`` (environment, then ``.env``) like the bot and need no token, and
print one line: what was found on success (exit 0), what is wrong and what to do on failure
(exit 1; 2 for a wrong command line). What they do to the database is the storage's
(``bot.storage``: ``check_database``, ``backup_database``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from dotenv import load_dotenv

from bot.storage import DEFAULT_DATABASE_PATH, DatabaseReport, OperateError
from bot.storage import backup_database as backup
from bot.storage import check_database as check

__all__ = [
    "COMMANDS",
    "EXIT_FAILED",
    "EXIT_OK",
    "DatabaseReport",
    "OperateError",
    "backup",
    "check",
    "database_path",
    "main",
]

EXIT_OK = 0
EXIT_FAILED = 1

#: The first arguments of ``salud`` that select one of these tools instead of the bot.
COMMANDS = frozenset({"backup", "check", "-h", "--help"})


def database_path(environ: Mapping[str, str]) -> Path:
    """``DATABASE_PATH`` as the bot reads it (default ``data/bot.sqlite3``)."""
    return Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH).expanduser()


def _size(size_bytes: int) -> str:
    if size_bytes < 1024 * 1024:
        return f"{size_bytes / 1024:.1f} KiB"
    return f"{size_bytes / (1024 * 1024):.1f} MiB"


def _counted(report: DatabaseReport) -> str:
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
                f"{_counted(report)}"
            )
        else:
            report = backup(source, arguments.path)
            print(
                f"salud backup: wrote {report.path} ({_size(report.size_bytes)}, "
                f"{_counted(report)}, integrity ok)"
            )
    except OperateError as error:
        print(f"salud {arguments.command}: {error}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK
