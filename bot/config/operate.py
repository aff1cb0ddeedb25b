"""``salud backup PATH``, ``salud check`` and ``salud copy FROM TO``: the database tools of
whoever runs the bot.

``backup`` and ``check`` read ``DATABASE_PATH`` or ``DATABASE_URL`` (environment, then
``.env``) like the bot; ``copy`` is given both ends (an SQLite path or a PostgreSQL URL each).
None needs a token; each prints one line: what was found or done on success (exit 0), what is
wrong and what to do on failure (exit 1; 2 for a wrong command line or settings). What they
do to a database is the storage's (``bot.storage``: ``check_database``, ``backup_database``,
``check_url``, ``backup_url``, ``copy_database``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from dotenv import load_dotenv

from bot.config.settings import SettingsError
from bot.config.settings import database_url as url_of
from bot.storage.default_path import DEFAULT_DATABASE_PATH
from bot.storage.engines import backup_file as backup
from bot.storage.engines import backup_url, check_url, copy_database, shown_url
from bot.storage.engines import check_file as check
from bot.storage.reports import DatabaseReport, OperateError

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
EXIT_BAD_SETTINGS = 2

#: The first arguments of ``salud`` that select one of these tools instead of the bot.
COMMANDS = frozenset({"backup", "check", "copy", "-h", "--help"})


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
        description="Without a command: run the bot. The database is DATABASE_URL "
        "(PostgreSQL) or else DATABASE_PATH (environment or .env; default "
        f"{DEFAULT_DATABASE_PATH}).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    copy = commands.add_parser(
        "backup", help="write a consistent copy of the database, also while the bot runs"
    )
    copy.add_argument("path", type=Path, help="the backup file, or a folder for a dated file")
    commands.add_parser("check", help="check the database (integrity, schema version)")
    between = commands.add_parser(
        "copy", help="copy a whole database into an empty one (SQLite paths, PostgreSQL URLs)"
    )
    between.add_argument("source", metavar="FROM", help="an SQLite file or a postgresql:// URL")
    between.add_argument("target", metavar="TO", help="an SQLite file or a postgresql:// URL")
    return parser


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    """``salud backup PATH`` / ``salud check`` / ``salud copy FROM TO``: one line out, the
    exit code back."""
    arguments = _parser().parse_args(list(argv))  # exits 2 with usage on a bad command line
    if environ is None:
        load_dotenv(Path.cwd() / ".env", override=False)
        environ = os.environ
    try:
        print(f"salud {arguments.command}: {_run(arguments, environ)}")
    except SettingsError as error:
        print(f"salud {arguments.command}: {error}", file=sys.stderr)
        return EXIT_BAD_SETTINGS
    except OperateError as error:
        print(f"salud {arguments.command}: {error}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _run(arguments: argparse.Namespace, environ: Mapping[str, str]) -> str:
    """What the command did, in one line."""
    if arguments.command == "copy":
        return copy_database(arguments.source, arguments.target).line()
    url = url_of(environ)
    if arguments.command == "check":
        if url is not None:
            report = check_url(url)
            return f"{shown_url(url)} is sound: rows sound, {_version(report)}, {_counted(report)}"
        report = check(database_path(environ))
        return f"{report.path} is sound: integrity ok, {_version(report)}, {_counted(report)}"
    if url is not None:
        report = backup_url(url, arguments.path)
    else:
        report = backup(database_path(environ), arguments.path)
    return f"wrote {report.path} ({_size(report.size_bytes)}, {_counted(report)}, integrity ok)"
