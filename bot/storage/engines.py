"""Which engine keeps the database, chosen once at start-up: ``open_storage`` gives the bot
its ``StorageEngine`` (SQLite, the embedded default: ``bot/storage/sqlite/``, or
PostgreSQL with ``DATABASE_URL``: ``bot/storage/postgres/``), and
turns what the engine raises into the storage's own errors, so that ``bot/__main__.py``
words every failure without knowing an engine."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.errors import DatabaseOpenFailed
from bot.storage.interface import StorageEngine
from bot.storage.sqlite.storage import Storage

__all__ = ["open_storage"]


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
