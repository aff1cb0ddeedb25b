"""Salud's storage: SQLite through one aiosqlite connection (see docs/DESIGN.md, Storage).

Use ``async with storage.transaction() as tx:`` for every change and ``storage.read()`` for
reads; every method takes the guild id.
"""

from __future__ import annotations

from bot.storage.errors import (
    AlreadyApplied,
    CharacterNotFound,
    DuplicateName,
    MigrationError,
    StorageClosed,
    StorageError,
    StorageFull,
    TooManyCharacters,
    TransactionStateError,
)
from bot.storage.fair_lock import LockDeadline, Ticket
from bot.storage.memory import ServerNames
from bot.storage.models import (
    BATCH_SIZE,
    Among,
    CharacterRef,
    GuildSettings,
    HistoryCharacter,
    HistoryEntry,
    LightCharacter,
    StoredCharacter,
    UndoResult,
)
from bot.storage.names import name_key
from bot.storage.sqlite.reader import Reader
from bot.storage.sqlite.rows import UNSET, Clock, Unset, utc_now
from bot.storage.sqlite.storage import Storage
from bot.storage.sqlite.transaction import Transaction

__all__ = [
    "BATCH_SIZE",
    "UNSET",
    "AlreadyApplied",
    "Among",
    "CharacterNotFound",
    "CharacterRef",
    "Clock",
    "DuplicateName",
    "GuildSettings",
    "HistoryCharacter",
    "HistoryEntry",
    "LightCharacter",
    "LockDeadline",
    "MigrationError",
    "Reader",
    "ServerNames",
    "Storage",
    "StorageClosed",
    "StorageError",
    "StorageFull",
    "StoredCharacter",
    "Ticket",
    "TooManyCharacters",
    "Transaction",
    "TransactionStateError",
    "UndoResult",
    "Unset",
    "name_key",
    "utc_now",
]
