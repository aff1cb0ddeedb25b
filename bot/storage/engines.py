"""Which engine keeps the database, chosen once at start-up: ``open_storage`` gives the bot
its ``StorageEngine`` (today SQLite, the embedded default: ``bot/storage/sqlite/``), and
turns what the engine raises into the storage's own errors, so that ``bot/__main__.py``
words every failure without knowing an engine."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.errors import DatabaseOpenFailed
from bot.storage.interface import StorageEngine
from bot.storage.sqlite.storage import Storage

__all__ = ["open_storage"]


async def open_storage(path: Path) -> StorageEngine:
    """The SQLite database at ``path``, checked, opened and migrated. Raises
    ``DatabaseUnusable`` (a file left untouched), ``DatabaseOpenFailed``, ``MigrationError``
    or ``OSError``."""
    try:
        return await Storage.open(path)
    except sqlite3.Error as error:
        raise DatabaseOpenFailed(str(error)) from error
