"""Typed storage errors, so that cogs can answer each case without parsing messages."""

from __future__ import annotations

__all__ = [
    "AlreadyApplied",
    "CharacterNotFound",
    "DatabaseGone",
    "DatabaseOpenFailed",
    "DatabaseUnreachable",
    "DatabaseUnusable",
    "DuplicateName",
    "MigrationError",
    "SchemaMovedOn",
    "StorageClosed",
    "StorageError",
    "StorageFull",
    "StorageUnreachable",
    "StorageUnwritable",
    "TooManyCharacters",
    "TransactionStateError",
]


class StorageError(Exception):
    """Base class of everything the storage layer raises on purpose."""


class DuplicateName(StorageError):
    """A character with this name (compared with casefold) already exists in the guild."""

    def __init__(self, guild_id: int, name: str) -> None:
        super().__init__(f"character name {name!r} already used in guild {guild_id}")
        self.guild_id = guild_id
        self.name = name


class CharacterNotFound(StorageError):
    """No character with this id in this guild (it may exist in another guild: not reachable)."""

    def __init__(self, guild_id: int, character_id: int) -> None:
        super().__init__(f"no character {character_id} in guild {guild_id}")
        self.guild_id = guild_id
        self.character_id = character_id


class AlreadyApplied(StorageError):
    """This interaction already produced a history entry: the transaction must not apply twice."""

    def __init__(self, interaction_id: int) -> None:
        super().__init__(f"interaction {interaction_id} was already applied")
        self.interaction_id = interaction_id


class DatabaseUnusable(StorageError):
    """At start-up: a database the bot must not use, left exactly as it was (not Salud's,
    damaged, written by a newer Salud); ``str()`` is one line naming it and the fix."""


class DatabaseOpenFailed(StorageError):
    """At start-up: the engine refused to open the database (``str()``: its own words)."""


class DatabaseUnreachable(StorageError):
    """At start-up: the database server cannot be reached (refused, timed out, DNS): worth
    trying again later (exit 4), as when Discord cannot be reached."""


class MigrationError(StorageError):
    """The migrations are inconsistent, or the database is newer than this code."""


class StorageFull(StorageError):
    """The change was not stored: the disk of the host is full (or a quota or a file size
    limit refused the write). Nothing was changed; it works again once space is freed."""

    def __init__(self, database: str) -> None:
        super().__init__(f"the disk of {database} is full: the change was not stored")
        self.database = database


class StorageUnreachable(StorageError):
    """The change was not stored: the database server could not be reached (restarted,
    failing over, the network). The engine reconnects by itself on a later command."""


class StorageUnwritable(StorageError):
    """The change was not stored: the disk refuses to write the database (mounted read-only,
    or failing), though it is not full. Nothing was changed; it works again once it writes."""

    def __init__(self, database: str) -> None:
        super().__init__(f"the disk of {database} refuses writes: the change was not stored")
        self.database = database


class DatabaseGone(StorageError):
    """The change was not stored: the database path no longer names the file the bot opened
    (deleted, moved or replaced while it ran), so the next start would not find it."""

    def __init__(self, database: str) -> None:
        super().__init__(f"the database file {database} is gone: the change was not stored")
        self.database = database


class TooManyCharacters(StorageError):
    """The guild has ``limit`` characters already: no more may be created there (a
    character deleted makes room)."""

    def __init__(self, guild_id: int, limit: int) -> None:
        super().__init__(f"guild {guild_id} has {limit} characters already")
        self.guild_id = guild_id
        self.limit = limit


class TransactionStateError(StorageError, RuntimeError):
    """A transaction was misused: nested, used after it ended, or left unrecorded changes."""


class StorageClosed(TransactionStateError):
    """The storage was closed (the bot is stopping): nothing was done."""


class SchemaMovedOn(StorageClosed):
    """Another process, a newer Salud, migrated the database past the schema this code
    knows: nothing was done, and this process must stop rather than write what the newer
    schema would misread (issue 24 point 12: a history number 0, UNIQUE failures)."""

    def __init__(self, found: int | None, known: int) -> None:
        super().__init__(f"the database schema is {found}, this code knows {known}")
        self.found = found
        self.known = known
