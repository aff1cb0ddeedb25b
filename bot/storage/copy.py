"""``salud copy FROM TO``: a whole Salud database from one engine to the other (each an SQLite
path or a PostgreSQL URL; also SQLite to SQLite and PostgreSQL to PostgreSQL), and the copy
that ``salud backup`` makes of a PostgreSQL database (``bot.storage.postgres.operate``).

- What is copied is derived from the schema, never listed: every table of the target's
  schema but each engine's own bookkeeping (``_OWN_TABLES``), with every column. The source
  must hold exactly those tables and columns, so a table added to one engine's migrations
  and not the other's makes the copy refuse, not forget it.
- The source is read in one snapshot: SQLite's one read transaction (read-only, leaving
  nothing beside the file), PostgreSQL's ``REPEATABLE READ READ ONLY`` transaction. Its schema
  must be the current one: an older database is refused with the advice to start the bot on
  it once (the bot migrates it in one transaction; a copy that migrated would have to write
  to the source, or migrate a whole temporary copy of it).
- The target is written in one transaction: its schema created or migrated, the rows, the
  self-references (``history.undone_by`` points at a later row: written once every row is
  in), the identity values (the next id continues after the source's highest, also one of a
  deleted row), then every table's count compared with the source's; any failure rolls it
  all back, and an SQLite file the copy created is removed. A target that holds Salud's
  data, another program's tables, or a newer schema is refused before anything is written.

Each failure is one ``OperateError`` line; nothing here prints.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import psycopg
from psycopg import sql

from bot.storage.errors import DatabaseOpenFailed, DatabaseUnreachable, DatabaseUnusable
from bot.storage.key_versions import SQL_FUNCTIONS
from bot.storage.postgres import schema as pg_schema
from bot.storage.sqlite import database as sqlite_schema
from bot.storage.sqlite.file_check import (
    Unsound,
    UnsoundDatabase,
    file_state,
    one_line,
    sound_database,
)
from bot.storage.sqlite.operate import COUNT_SERVERS, OperateError

__all__ = ["CopyReport", "copy_database", "is_url", "named"]

Row = tuple[Any, ...]
#: Each engine's own tables, not Salud's data: the target keeps its own (SQLite's AUTOINCREMENT
#: counters, PostgreSQL's schema version and the rows that lock a server, made on demand).
_OWN_TABLES = {
    "sqlite": frozenset({"sqlite_sequence"}),
    "postgres": frozenset({"schema_version", "servers"}),
}
#: The tables the one line names, in its words (the rest are counted in its total).
_SAID = (
    ("characters", "character", "characters"),
    ("history", "history entry", "history entries"),
    ("roll_messages", "roll message", "roll messages"),
    ("trackers", "tracker", "trackers"),
    ("game_tables", "table", "tables"),
)


def is_url(where: str) -> bool:
    """A PostgreSQL URL rather than an SQLite path."""
    return where.startswith(("postgresql://", "postgres://"))


def named(where: str) -> str:
    """How a line names a database: a URL without its password."""
    return pg_schema.hidden(where) if is_url(where) else where


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


@dataclass(frozen=True)
class CopyReport:
    """What was copied: every table's rows, and the servers they belong to."""

    source: str
    target: str
    counts: Mapping[str, int]
    servers: int
    schema_version: int

    def line(self) -> str:
        """``copied 2 servers, 5 characters, … from X to Y``."""
        parts = [_plural(self.servers, "server", "servers")]
        parts += [_plural(self.counts.get(table, 0), one, many) for table, one, many in _SAID]
        total = sum(self.counts.values())
        parts.append(f"{_plural(total, 'row', 'rows')} in {len(self.counts)} tables")
        return f"copied {', '.join(parts)} from {self.source} to {self.target}"


@dataclass(frozen=True)
class Reference:
    """A column that points at a row of ``parent`` (by its ``parent_column``)."""

    column: str
    parent: str
    parent_column: str


class _Source(Protocol):
    engine: str

    async def version(self) -> int: ...
    async def tables(self) -> set[str]: ...
    async def columns(self, table: str) -> list[str]: ...
    def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[Row]: ...
    async def count(self, table: str) -> int: ...
    async def servers(self) -> int: ...
    async def high_water(self) -> dict[str, int]: ...


class _Target(_Source, Protocol):
    async def begin(self) -> None: ...
    async def references(self, table: str) -> list[Reference]: ...
    async def write(self, table: str, columns: Sequence[str], rows: AsyncIterator[Row]) -> None: ...
    async def point(self, table: str, reference: Reference, pairs: list[Row]) -> None: ...
    async def continue_ids(self, high_water: Mapping[str, int]) -> None: ...
    async def commit(self) -> None: ...
    async def abandon(self) -> None: ...


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# --- SQLite ------------------------------------------------------------------------------------


class _SqliteEnd:
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
        return [str(row[1]) for row in self.conn.execute(f"PRAGMA table_info({_quoted(table)})")]

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[Row]:
        listed = ", ".join(_quoted(column) for column in columns)
        for row in self.conn.execute(f"SELECT {listed} FROM {_quoted(table)}"):
            yield tuple(row)

    async def count(self, table: str) -> int:
        return int(self.conn.execute(f"SELECT count(*) FROM {_quoted(table)}").fetchone()[0])

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


class _SqliteTarget(_SqliteEnd):
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
        found = self.conn.execute(f"PRAGMA foreign_key_list({_quoted(table)})")
        return [Reference(str(row[3]), str(row[2]), str(row[4])) for row in found]

    async def write(self, table: str, columns: Sequence[str], rows: AsyncIterator[Row]) -> None:
        listed = ", ".join(_quoted(column) for column in columns)
        marks = ", ".join("?" for _ in columns)
        statement = f"INSERT INTO {_quoted(table)} ({listed}) VALUES ({marks})"
        batch: list[Row] = []
        async for row in rows:
            batch.append(row)
            if len(batch) >= 1000:
                self.conn.executemany(statement, batch)
                batch.clear()
        self.conn.executemany(statement, batch)

    async def point(self, table: str, reference: Reference, pairs: list[Row]) -> None:
        self.conn.executemany(
            f"UPDATE {_quoted(table)} SET {_quoted(reference.column)} = ?"
            f" WHERE {_quoted(reference.parent_column)} = ?",
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


# --- PostgreSQL --------------------------------------------------------------------------------


class _PgEnd:
    """A PostgreSQL database, inside the transaction its user began."""

    engine = "postgres"

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def _all(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        cursor = await self.conn.execute(query.encode(), params)
        return [tuple(row) for row in await cursor.fetchall()]

    async def version(self) -> int:
        if "schema_version" not in await self.tables():
            return 0
        (row,) = await self._all("SELECT max(version) FROM schema_version")
        return int(row[0] or 0)

    async def tables(self) -> set[str]:
        found = await self._all(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        return {str(row[0]) for row in found}

    async def columns(self, table: str) -> list[str]:
        found = await self._all(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position",
            (table,),
        )
        return [str(row[0]) for row in found]

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[Row]:
        query = sql.SQL("SELECT {} FROM {}").format(
            sql.SQL(", ").join(map(sql.Identifier, columns)), sql.Identifier(table)
        )
        async with self.conn.cursor() as cursor:
            async for row in cursor.stream(query):
                yield tuple(row)

    async def count(self, table: str) -> int:
        query = sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
        cursor = await self.conn.execute(query)
        row = await cursor.fetchone()
        return int(row[0]) if row is not None else 0

    async def servers(self) -> int:
        (row,) = await self._all(COUNT_SERVERS)
        return int(row[0])

    async def _identities(self) -> list[tuple[str, str, str]]:
        """Each identity column: its table, its name, its sequence."""
        found = await self._all(
            "SELECT table_name, column_name,"
            " pg_get_serial_sequence(quote_ident(table_name), column_name)"
            " FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND is_identity = 'YES'"
        )
        return [(str(table), str(column), str(sequence)) for table, column, sequence in found]

    async def high_water(self) -> dict[str, int]:
        """The last id each identity gave (of a deleted row too), as SQLite's counters."""
        found: dict[str, int] = {}
        for table, _, sequence in await self._identities():
            (row,) = await self._all(f"SELECT last_value, is_called FROM {sequence}")
            found[table] = int(row[0]) if row[1] else int(row[0]) - 1
        return found


class _PgTarget(_PgEnd):
    """The PostgreSQL database the copy writes, in one transaction."""

    async def begin(self) -> None:
        await self.conn.execute("BEGIN")
        await pg_schema.migrate(self.conn)

    async def references(self, table: str) -> list[Reference]:
        found = await self._all(
            "SELECT a.attname, confrelid::regclass::text, b.attname FROM pg_constraint AS c"
            " JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
            " JOIN pg_attribute AS b ON b.attrelid = c.confrelid AND b.attnum = c.confkey[1]"
            " WHERE c.contype = 'f' AND c.conrelid = %s::regclass",
            (table,),
        )
        return [Reference(str(row[0]), str(row[1]), str(row[2])) for row in found]

    async def write(self, table: str, columns: Sequence[str], rows: AsyncIterator[Row]) -> None:
        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
        )
        async with self.conn.cursor() as cursor, cursor.copy(statement) as copy:
            async for row in rows:
                await copy.write_row(row)

    async def point(self, table: str, reference: Reference, pairs: list[Row]) -> None:
        statement = sql.SQL("UPDATE {} SET {} = %s WHERE {} = %s").format(
            sql.Identifier(table),
            sql.Identifier(reference.column),
            sql.Identifier(reference.parent_column),
        )
        async with self.conn.cursor() as cursor:
            await cursor.executemany(statement, pairs)

    async def continue_ids(self, high_water: Mapping[str, int]) -> None:
        """Each identity continues after the copied ids and the source's last one."""
        for table, column, sequence in await self._identities():
            query = sql.SQL("SELECT coalesce(max({}), 0) FROM {}").format(
                sql.Identifier(column), sql.Identifier(table)
            )
            cursor = await self.conn.execute(query)
            row = await cursor.fetchone()
            last = max(int(row[0]) if row is not None else 0, high_water.get(table, 0))
            if last > 0:
                await self.conn.execute("SELECT setval(%s::regclass, %s, true)", (sequence, last))

    async def commit(self) -> None:
        await self.conn.execute("COMMIT")
        await self.conn.close()

    async def abandon(self) -> None:
        if not self.conn.closed and not self.conn.broken:
            with contextlib.suppress(psycopg.Error):
                await self.conn.execute("ROLLBACK")
        await self.conn.close()


# --- opening each end --------------------------------------------------------------------------


async def _connect(url: str) -> psycopg.AsyncConnection[Any]:
    try:
        return await pg_schema.connect(url)
    except (DatabaseOpenFailed, DatabaseUnreachable) as error:
        raise OperateError(f"{one_line(str(error))}.") from None


def _older(where: str, version: int, latest: int) -> OperateError:
    return OperateError(
        f"{named(where)} has schema version {version}, older than this Salud's {latest}: "
        "start the bot on it once (it updates the schema), stop it, then copy."
    )


@contextlib.asynccontextmanager
async def _sqlite_source(path: Path) -> AsyncIterator[_Source]:
    latest = sqlite_schema.latest_version()
    try:
        with sound_database(path, latest, leave_nothing=True) as (found, conn):
            if found.state == "missing":
                raise OperateError(f"{path}: no such file.")
            if conn is None or found.state != "salud":
                raise OperateError(f"{path} is not a Salud database.")
            if found.version < latest:
                raise _older(str(path), found.version, latest)
            yield _SqliteEnd(conn)
    except UnsoundDatabase as error:
        raise OperateError(_unsound_words(error, path)) from None


def _unsound_words(error: UnsoundDatabase, path: Path) -> str:
    match error.kind:
        case Unsound.NEWER:
            return f"{path} was written by a newer Salud (schema {error.version}): update Salud."
        case Unsound.NOT_A_FILE:
            return f"{path} is a folder, not a database file."
        case Unsound.NOT_SQLITE:
            return f"{path} is not an SQLite database."
        case Unsound.FOREIGN:
            return f"{path} is an SQLite file but not a Salud database."
        case Unsound.DAMAGED:
            return f"{path} is damaged ({error.detail}): restore it from a backup."
        case Unsound.UNREADABLE:
            return f"{path} cannot be read ({error.detail})."


@contextlib.asynccontextmanager
async def _pg_source(url: str) -> AsyncIterator[_Source]:
    conn = await _connect(url)
    try:
        await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        source = _PgEnd(conn)
        version, latest = await source.version(), pg_schema.latest_version()
        if version == 0:
            raise OperateError(f"{named(url)} holds no Salud database.")
        if version > latest:
            raise OperateError(
                f"{named(url)} was written by a newer Salud (schema {version}): update Salud."
            )
        if version < latest:
            raise _older(url, version, latest)
        yield source
    finally:
        await conn.close()


def _sqlite_target(path: Path) -> _SqliteTarget:
    if path.is_dir():
        raise OperateError(f"{path} is a folder: give the file to write.")
    if not path.parent.is_dir():
        raise OperateError(f"{path.parent}: no such folder. Create it or choose another.")
    try:
        if file_state(path) == "sqlite":
            with sound_database(path, sqlite_schema.latest_version(), leave_nothing=True):
                pass
    except UnsoundDatabase as error:
        raise OperateError(_unsound_words(error, path)) from None
    try:
        return _SqliteTarget(path)
    except sqlite3.Error as error:
        raise OperateError(f"{path} cannot be written ({one_line(str(error))}).") from None


def _open_source(where: str) -> contextlib.AbstractAsyncContextManager[_Source]:
    return _pg_source(where) if is_url(where) else _sqlite_source(Path(where))


async def _open_target(where: str) -> _Target:
    if is_url(where):
        return _PgTarget(await _connect(where))
    return _sqlite_target(Path(where))


def _same(source: str, target: str) -> bool:
    if is_url(source) or is_url(target):
        return source == target
    with contextlib.suppress(OSError):
        return Path(source).resolve() == Path(target).resolve() or (
            Path(target).exists() and Path(source).samefile(target)
        )
    return False


# --- the copy ----------------------------------------------------------------------------------


def _in_order(tables: set[str], parents: Mapping[str, set[str]]) -> list[str]:
    """The tables, each after those its rows point at (by name among equals)."""
    ordered: list[str] = []
    waiting = sorted(tables)
    while waiting:
        ready = [t for t in waiting if not (parents[t] - {t}) - set(ordered)]
        if not ready:  # a cycle between tables: not in Salud's schema; keep going by name
            ready = waiting[:1]
        ordered += ready
        waiting = [t for t in waiting if t not in ready]
    return ordered


async def _salud_tables(end: _Source) -> set[str]:
    return await end.tables() - _OWN_TABLES[end.engine]


async def _same_schema(source: _Source, target: _Target, where: tuple[str, str]) -> list[str]:
    """The tables to copy: the target's; the source must hold them, column for column."""
    tables, found = await _salud_tables(target), await _salud_tables(source)
    if tables != found:
        odd = sorted(tables ^ found)
        raise OperateError(
            f"{named(where[0])} and {named(where[1])} differ in their tables "
            f"({', '.join(odd[:3])}) at the same schema version: nothing was copied."
        )
    for table in sorted(tables):
        if set(await target.columns(table)) != set(await source.columns(table)):
            raise OperateError(
                f"{named(where[0])} and {named(where[1])} differ in the columns of {table}: "
                "nothing was copied."
            )
    return sorted(tables)


async def _refuse_data(target: _Target, tables: Sequence[str], where: str) -> None:
    held = {table: await target.count(table) for table in tables}
    if any(held.values()):
        said = ", ".join(f"{count} in {table}" for table, count in held.items() if count)
        raise OperateError(
            f"{named(where)} already holds Salud's data ({said}): give an empty database "
            "(nothing was copied)."
        )


async def _deferring(
    rows: AsyncIterator[Row],
    columns: Sequence[str],
    later: Sequence[Reference],
    pending: list[list[Row]],
) -> AsyncIterator[Row]:
    """``rows`` with their self-references blanked, kept in ``pending`` as (value, key) pairs
    (one list per reference) to be written once every row is in."""
    held = [(columns.index(r.column), columns.index(r.parent_column)) for r in later]
    async for row in rows:
        if held:
            values = list(row)
            for index, (column, key) in enumerate(held):
                if values[column] is not None:
                    pending[index].append((values[column], values[key]))
                    values[column] = None
            row = tuple(values)
        yield row


async def _copy_rows(source: _Source, target: _Target, tables: Sequence[str]) -> dict[str, int]:
    """Every row of ``tables``; the self-references once all rows are in. Source counts."""
    references = {table: await target.references(table) for table in tables}
    parents = {table: {r.parent for r in found} for table, found in references.items()}
    counts: dict[str, int] = {}
    for table in _in_order(set(tables), parents):
        columns = await target.columns(table)
        later = [r for r in references[table] if r.parent == table]
        pending: list[list[Row]] = [[] for _ in later]
        rows = _deferring(source.rows(table, columns), columns, later, pending)
        await target.write(table, columns, rows)
        for index, reference in enumerate(later):
            if pending[index]:
                await target.point(table, reference, pending[index])
        counts[table] = await source.count(table)
    return counts


async def _check_counts(target: _Target, counts: Mapping[str, int], where: str) -> None:
    for table, expected in counts.items():
        got = await target.count(table)
        if got != expected:
            raise OperateError(
                f"the copy in {named(where)} holds {got} rows of {table}, the source "
                f"{expected}: nothing was written."
            )


async def copy_database(source: str, target: str) -> CopyReport:
    """Copy the Salud database at ``source`` into the empty ``target`` (see the module)."""
    if _same(source, target):
        raise OperateError("FROM and TO are the same database: give another TO.")
    async with _open_source(source) as reader:
        writer = await _open_target(target)
        try:
            try:
                await writer.begin()
            except DatabaseUnusable as error:
                raise OperateError(f"{named(target)} {error} (nothing was copied).") from None
            tables = await _same_schema(reader, writer, (source, target))
            await _refuse_data(writer, tables, target)
            counts = await _copy_rows(reader, writer, tables)
            await writer.continue_ids(await reader.high_water())
            await _check_counts(writer, counts, target)
            report = CopyReport(
                named(source), named(target), counts, await reader.servers(), await reader.version()
            )
            await writer.commit()
        except OperateError:
            await writer.abandon()
            raise
        except (psycopg.Error, sqlite3.Error, OSError, DatabaseUnreachable) as error:
            await writer.abandon()
            said = one_line(
                str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
            )
            raise OperateError(
                f"the copy into {named(target)} failed ({said}): it was left as it was."
            ) from None
        except BaseException:
            await writer.abandon()
            raise
    return report
