"""Which engine keeps the database, chosen once at start-up: ``open_storage`` gives the bot
its ``StorageEngine`` (SQLite, the embedded default: ``bot/storage/sqlite/``, or
PostgreSQL with ``DATABASE_URL``: ``bot/storage/postgres/``), and
turns what the engine raises into the storage's own errors, so that ``bot/__main__.py``
words every failure without knowing an engine."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.storage.errors import DatabaseOpenFailed
from bot.storage.interface import StorageEngine
from bot.storage.reports import DatabaseReport
from bot.storage.sqlite import operate as sqlite_operate
from bot.storage.sqlite.storage import Storage

if TYPE_CHECKING:
    from bot.storage.copy import CopyReport

__all__ = [
    "backup_file",
    "backup_url",
    "check_file",
    "check_url",
    "copy_database",
    "open_storage",
    "shown_url",
]


async def open_storage(path: Path, url: str | None = None) -> StorageEngine:
    """The PostgreSQL database at ``url`` (``bot/storage/postgres/``) when given, else the
    SQLite database at ``path``; checked, opened and migrated. Raises ``DatabaseUnusable``
    (a database left untouched), ``DatabaseOpenFailed``, ``DatabaseUnreachable`` (no server
    answered), ``MigrationError`` or ``OSError``."""
    if url is not None:
        from bot.storage.postgres.storage import PgStorage  # psycopg only when it is used

        return await PgStorage.open_url(url)
    try:
        return await Storage.open(path)
    except sqlite3.Error as error:
        raise DatabaseOpenFailed(str(error)) from error


# ``salud backup`` / ``salud check`` of either engine, and ``salud copy`` (psycopg only when
# they run with ``DATABASE_URL``; each raises ``OperateError``, one line).


def backup_file(path: Path, destination: Path, *, now: datetime | None = None) -> DatabaseReport:
    """``salud backup PATH`` of the SQLite database at ``path``: one self-contained file."""
    return sqlite_operate.backup(path, destination, now=now)


def check_file(path: Path) -> DatabaseReport:
    """``salud check`` of the SQLite database at ``path``, read-only."""
    return sqlite_operate.check(path)


def copy_database(source: str, target: str) -> CopyReport:
    """``salud copy FROM TO`` (``bot/storage/copy.py``)."""
    from bot.storage.copy import copy_database as copy

    return asyncio.run(copy(source, target))


def backup_url(url: str, destination: Path, *, now: datetime | None = None) -> DatabaseReport:
    """``salud backup PATH`` of the PostgreSQL database at ``url``: an SQLite file."""
    from bot.storage.postgres.operate import backup

    return backup(url, destination, now=now)


def check_url(url: str) -> DatabaseReport:
    """``salud check`` of the PostgreSQL database at ``url``, read-only."""
    from bot.storage.postgres.operate import check

    return check(url)


def shown_url(url: str) -> str:
    """The URL as a line shows it: without its password."""
    from bot.storage.postgres.schema import hidden

    return hidden(url)
