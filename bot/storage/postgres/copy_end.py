"""The PostgreSQL ends of ``salud copy`` (``bot/storage/copy.py``): a database read in one
``REPEATABLE READ READ ONLY`` transaction, a database written in one transaction (its schema
by ``schema.migrate``, its rows by ``COPY``, its identities continued by ``setval``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import psycopg
from psycopg import sql

from bot.storage.copy_ends import CopySource, Reference, Row, older
from bot.storage.errors import DatabaseOpenFailed, DatabaseUnreachable
from bot.storage.postgres import schema as pg_schema
from bot.storage.reports import OperateError
from bot.storage.sqlite.operate import COUNT_SERVERS

__all__ = ["PG_ERRORS", "PgEnd", "PgTarget", "not_connected", "pg_connect", "pg_source"]

#: What the driver raises when a statement or the connection fails in the middle of a copy.
PG_ERRORS: tuple[type[Exception], ...] = (psycopg.Error,)


class PgEnd:
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


class PgTarget(PgEnd):
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


async def pg_connect(url: str) -> psycopg.AsyncConnection[Any]:
    """A connection to ``url``; ``OperateError`` in the tools' words when there is none."""
    try:
        return await pg_schema.connect(url)
    except (DatabaseOpenFailed, DatabaseUnreachable) as error:
        raise not_connected(error, url) from None


def not_connected(error: Exception, url: str) -> OperateError:
    """The line for a server that did not answer, or refused (``error``'s cause says what)."""
    said = pg_schema.server_said(error.__cause__ or error)
    text = str(error)
    if isinstance(error, DatabaseOpenFailed | psycopg.ProgrammingError) or (
        "authentication" in text or "does not exist" in text
    ):
        return OperateError(
            f"{pg_schema.hidden(url)} refused the connection ({said}). Check the URL."
        )
    return OperateError(
        f"cannot reach {pg_schema.hidden(url)} ({said}). Check the URL and that the server runs."
    )


@contextlib.asynccontextmanager
async def pg_source(url: str) -> AsyncIterator[CopySource]:
    conn = await pg_connect(url)
    try:
        await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        source = PgEnd(conn)
        version, latest = await source.version(), pg_schema.latest_version()
        if version == 0:
            raise OperateError(f"{pg_schema.hidden(url)} holds no Salud database.")
        if version > latest:
            raise OperateError(
                f"{pg_schema.hidden(url)} was written by a newer Salud (schema {version}): "
                "update Salud."
            )
        if version < latest:
            raise older(pg_schema.hidden(url), version, latest)
        yield source
    finally:
        await conn.close()
