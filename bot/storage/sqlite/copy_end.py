"""The SQLite ends of ``salud copy`` (``bot/storage/copy.py``): a file read in its one read
transaction (read-only, leaving nothing beside it), a file written in one ``BEGIN
IMMEDIATE`` with its foreign keys on, removed when the copy created it and failed."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

from bot.storage.copy_ends import CopySource, Reference, Row, older
from bot.storage.errors import DatabaseUnusable
from bot.storage.key_versions import SQL_FUNCTIONS
from bot.storage.reports import OperateError
from bot.storage.sqlite import database as sqlite_schema
from bot.storage.sqlite.file_check import (
    UnsoundDatabase,
    file_state,
    one_line,
    sound_database,
)
from bot.storage.sqlite.operate import COUNT_SERVERS, unsound_words

__all__ = ["SqliteEnd", "SqliteTarget", "sqlite_source", "sqlite_target"]


def quoted(name: str) -> str:
    """A table's or column's name in an SQLite statement."""
    return '"' + name.replace('"', '""') + '"'


class SqliteEnd:
    """An SQLite file, read through ``conn`` (the source's read transaction, or the target's
    write transaction)."""

    engine = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    async def tables(self) -> set[str]:
        rows = self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {str(row[0]) for row in rows}

    async def columns(self, table: str) -> list[str]:
        return [str(row[1]) for row in self.conn.execute(f"PRAGMA table_info({quoted(table)})")]

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[Row]:
        listed = ", ".join(quoted(column) for column in columns)
        for row in self.conn.execute(f"SELECT {listed} FROM {quoted(table)}"):
            yield tuple(row)

    async def count(self, table: str) -> int:
        return int(self.conn.execute(f"SELECT count(*) FROM {quoted(table)}").fetchone()[0])

    async def servers(self) -> int:
        return int(self.conn.execute(COUNT_SERVERS).fetchone()[0])

    async def high_water(self) -> dict[str, int]:
        if "sqlite_sequence" not in await self.tables():
            return {}
        found = self.conn.execute("SELECT name, seq FROM sqlite_sequence")
        return {str(name): int(seq) for name, seq in found}


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


class SqliteTarget(SqliteEnd):
    """The SQLite file the copy writes, in one ``BEGIN IMMEDIATE``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.created = not path.exists()
        conn = sqlite3.connect(path, isolation_level=None, timeout=5)
        for sql_name, function in SQL_FUNCTIONS.items():  # the migrations compute keys
            conn.create_function(sql_name, 1, function, deterministic=True)
        conn.execute("PRAGMA foreign_keys = ON")  # the copy's references are checked too
        super().__init__(conn)

    async def begin(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        current = await self.version()
        latest = sqlite_schema.latest_version()
        if current == 0 and await self.tables():
            raise DatabaseUnusable("holds tables of another program: give an empty file")
        if current > latest:
            raise DatabaseUnusable(
                f"was written by a newer Salud (schema {current}, this one knows {latest})"
            )
        for migration in sqlite_schema.load_migrations():
            if migration.version > current:
                for statement in sqlite_schema.split_statements(migration.sql):
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {migration.version}")

    async def references(self, table: str) -> list[Reference]:
        found = self.conn.execute(f"PRAGMA foreign_key_list({quoted(table)})")
        return [Reference(str(row[3]), str(row[2]), str(row[4])) for row in found]

    async def write(self, table: str, columns: Sequence[str], rows: AsyncIterator[Row]) -> None:
        listed = ", ".join(quoted(column) for column in columns)
        marks = ", ".join("?" for _ in columns)
        statement = f"INSERT INTO {quoted(table)} ({listed}) VALUES ({marks})"
        batch: list[Row] = []
        async for row in rows:
            batch.append(row)
            if len(batch) >= 1000:
                self.conn.executemany(statement, batch)
                batch.clear()
        self.conn.executemany(statement, batch)

    async def point(self, table: str, reference: Reference, pairs: list[Row]) -> None:
        self.conn.executemany(
            f"UPDATE {quoted(table)} SET {quoted(reference.column)} = ?"
            f" WHERE {quoted(reference.parent_column)} = ?",
            pairs,
        )

    async def continue_ids(self, high_water: Mapping[str, int]) -> None:
        """The AUTOINCREMENT counters at least the source's: an id is never reused."""
        for table, seq in high_water.items():
            changed = self.conn.execute(
                "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", (seq, table)
            ).rowcount
            if not changed and seq > 0:
                self.conn.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, seq)
                )

    async def commit(self) -> None:
        self.conn.execute("COMMIT")
        self.conn.close()

    async def abandon(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        self.conn.close()
        if self.created:  # the file was not there: it is not left behind
            _remove(self.path)


@contextlib.asynccontextmanager
async def sqlite_source(path: Path) -> AsyncIterator[CopySource]:
    latest = sqlite_schema.latest_version()
    try:
        with sound_database(path, latest, leave_nothing=True) as (found, conn):
            if found.state == "missing":
                raise OperateError(f"{path}: no such file.")
            if conn is None or found.state != "salud":
                raise OperateError(f"{path} is not a Salud database.")
            if found.version < latest:
                raise older(str(path), found.version, latest)
            yield SqliteEnd(conn)
    except UnsoundDatabase as error:
        raise unsound_words(error, path, latest, copying=False) from None


def sqlite_target(path: Path) -> SqliteTarget:
    if path.is_dir():
        raise OperateError(f"{path} is a folder: give the file to write.")
    if not path.parent.is_dir():
        raise OperateError(f"{path.parent}: no such folder. Create it or choose another.")
    try:
        if file_state(path) == "sqlite":
            with sound_database(path, sqlite_schema.latest_version(), leave_nothing=True):
                pass
    except UnsoundDatabase as error:
        raise unsound_words(error, path, sqlite_schema.latest_version(), copying=False) from None
    try:
        return SqliteTarget(path)
    except sqlite3.Error as error:
        raise OperateError(f"{path} cannot be written ({one_line(str(error))}).") from None
