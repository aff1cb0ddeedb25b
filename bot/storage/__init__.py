"""Salud's storage: one interface (``bot.storage.interface``), SQLite its embedded engine
(``bot/storage/sqlite/``; see docs/DESIGN.md, Storage).

Use ``async with storage.transaction() as tx:`` for every change and ``storage.read()`` for
reads; every method takes the guild id. Above ``bot/storage/`` a module types what it holds
with ``StorageEngine``, ``StorageChange`` and ``StorageReads``, never an engine's classes.
"""

from __future__ import annotations

from bot.storage.default_path import DEFAULT_DATABASE_PATH
from bot.storage.engines import (
    backup_file,
    backup_url,
    check_file,
    check_url,
    copy_database,
    open_storage,
    shown_url,
)
from bot.storage.errors import (
    AlreadyApplied,
    CharacterNotFound,
    DatabaseOpenFailed,
    DatabaseUnusable,
    DuplicateName,
    MigrationError,
    SchemaMovedOn,
    StorageClosed,
    StorageError,
    StorageFull,
    StorageUnreachable,
    StorageUnwritable,
    TooManyCharacters,
    TransactionStateError,
)
from bot.storage.fair_lock import LockDeadline, Ticket
from bot.storage.interface import (
    ChangeListener,
    HistoryCharacter,
    HistoryEntry,
    StorageChange,
    StorageEngine,
    StorageReads,
    UndoResult,
)
from bot.storage.memory import ServerNames
from bot.storage.models import (
    BATCH_SIZE,
    TURN_EVERY,
    UNSET,
    Among,
    CharacterRef,
    Clock,
    GuildSettings,
    LightCharacter,
    Numbers,
    StoredCharacter,
    Unset,
    utc_now,
)
from bot.storage.reports import DatabaseReport, OperateError
from bot.storage.sqlite.reader import Reader
from bot.storage.sqlite.storage import Storage
from bot.storage.sqlite.transaction import Transaction
from rules.names import name_key

__all__ = [
    "BATCH_SIZE",
    "DEFAULT_DATABASE_PATH",
    "TURN_EVERY",
    "UNSET",
    "AlreadyApplied",
    "Among",
    "ChangeListener",
    "CharacterNotFound",
    "CharacterRef",
    "Clock",
    "DatabaseOpenFailed",
    "DatabaseReport",
    "DatabaseUnusable",
    "DuplicateName",
    "GuildSettings",
    "HistoryCharacter",
    "HistoryEntry",
    "LightCharacter",
    "LockDeadline",
    "MigrationError",
    "Numbers",
    "OperateError",
    "Reader",
    "SchemaMovedOn",
    "ServerNames",
    "Storage",
    "StorageChange",
    "StorageClosed",
    "StorageEngine",
    "StorageError",
    "StorageFull",
    "StorageReads",
    "StorageUnreachable",
    "StorageUnwritable",
    "StoredCharacter",
    "Ticket",
    "TooManyCharacters",
    "Transaction",
    "TransactionStateError",
    "UndoResult",
    "Unset",
    "backup_file",
    "backup_url",
    "check_file",
    "check_url",
    "copy_database",
    "name_key",
    "open_storage",
    "shown_url",
    "utc_now",
]
