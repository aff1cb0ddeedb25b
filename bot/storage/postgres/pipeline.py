"""A transaction's statements sent to PostgreSQL: those nobody waits for go with the next
statement whose result is needed, or with the ``COMMIT``, as one simple query (bound
client-side by psycopg), one round trip to the server (a ``/hurt`` is two trips, as on
SQLite; docs/DESIGN.md, Storage; counted on the wire by ``tests/bot/test_hot_path.py``).

``PgPipeline`` is the SQLite engine's ``Pipeline`` with another trip: the same queue, its
statements said in PostgreSQL's dialect (``dialect.translate``), the lock of the server's
row sent before its next history number is taken (``dialect.server_locks``; the row made
sure of only until a committed change stored it)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar, cast

import psycopg

from bot.storage.postgres.dialect import (
    PgRow,
    as_sqlite_error,
    locked_server,
    server_locks,
    translate,
    with_returning_id,
)
from bot.storage.sqlite.pipeline import (
    NO_CHECKS,
    Batch,
    Pipeline,
    Statement,
    TripChecks,
    _fetchall,
    _inserted_row,
    _lastrowid,
)

__all__ = ["OneStatementEach", "PgPipeline", "rows_of"]

T = TypeVar("T")
Connection = psycopg.AsyncConnection[Any]
#: What each trip runs inside (``PgStorage._trip_watch``: a late interaction acknowledged).
TripWatch = Callable[[], AbstractAsyncContextManager[None]]


def _unwatched() -> AbstractAsyncContextManager[None]:
    return contextlib.nullcontext()


#: The columns of each query's rows, by name (a query's text always gives the same columns).
_COLUMNS: dict[str, dict[str, int]] = {}
#: Beyond this many query texts (their IN lists vary in length) the cache starts again.
_COLUMNS_KEPT = 1024


def rows_of(cursor: psycopg.AsyncCursor[Any], rows: list[Any], sql: str) -> list[sqlite3.Row]:
    """The rows of the query ``sql`` as the readers take them (by name or position, as
    ``sqlite3.Row``). The column names are read once per query text: psycopg's
    ``description`` builds a ``Column`` for every column at every call (29 for a
    character)."""
    names = _COLUMNS.get(sql)
    if names is None:
        result = cursor.pgresult
        fields = 0 if result is None else result.nfields
        names = {}
        for i in range(fields):
            name = None if result is None else result.fname(i)
            names[(name or b"").decode()] = i
        if len(_COLUMNS) >= _COLUMNS_KEPT:
            _COLUMNS.clear()
        _COLUMNS[sql] = names
    return cast(list[sqlite3.Row], [PgRow(row, names) for row in rows])


async def _run(
    conn: Connection, statement: Statement, cursor: psycopg.AsyncCursor[Any] | None = None
) -> psycopg.AsyncCursor[Any]:
    cursor = conn.cursor() if cursor is None else cursor
    sql = translate(statement.sql)
    if statement.many:
        await cursor.executemany(sql, cast(Sequence[Sequence[Any]], statement.params))
    else:
        await cursor.execute(sql, statement.params)
    return cursor


class PgPipeline(Pipeline):
    """The statements of one transaction not sent yet, sent in one trip each time a result is
    needed. ``conn`` is in autocommit mode: ``BEGIN`` and ``COMMIT`` are statements."""

    def __init__(
        self,
        conn: Connection,
        on_failure: Callable[[], None] = lambda: None,
        checks: TripChecks = NO_CHECKS,
        stored_servers: set[Any] | None = None,
        *,
        watch: TripWatch = _unwatched,
    ) -> None:
        super().__init__(cast(Any, None), on_failure, checks)
        self._pg = conn
        self._watch = watch
        #: The servers whose row a committed transaction made sure of (the engine's, shared
        #: by its transactions), and those this one creates if missing (known once it commits).
        self._stored_servers: set[Any] = set() if stored_servers is None else stored_servers
        self._ensuring: list[Any] = []

    async def _trip(self, batch: Batch[T]) -> T:
        """``batch`` with PostgreSQL's errors told as SQLite's (``as_sqlite_error``), so that
        the transaction above answers them alike."""
        try:
            if batch.before_last is not None:  # SQLite's file check: PostgreSQL has none
                batch.before_last()
            async with self._watch():
                return await self._one_query(batch.statements, batch.last, batch.read)
        except psycopg.Error as error:
            known = as_sqlite_error(error)
            if known is not None:
                raise known from error
            raise

    async def _one_query(
        self, queued: Sequence[Statement], last: Statement, read: Callable[[sqlite3.Cursor], T]
    ) -> T:
        """The statements as one simple query (its parameters bound by psycopg's client-side
        binding, ``mogrify``): one message, one round trip, the results in order. psycopg's
        pipeline mode sent the same in one trip too, but flushed the socket and polled for
        results after every statement (``pipeline_communicate``, some 15 µs each)."""
        returning = read is _lastrowid or read is _inserted_row
        cursor = psycopg.AsyncClientCursor(self._pg)
        texts: list[str] = []
        probes: dict[int, Statement] = {}  # index of the statement's result: its probe
        for statement in [*queued, last]:
            locks = server_locks(statement.sql, statement.params, self._stored_servers)
            if len(locks) > 1:
                self._ensuring.append(locked_server(statement.sql, statement.params))
            texts += [cursor.mogrify(sql, params) for sql, params in locks]
            sql = statement.sql
            if statement is last and returning:
                sql = with_returning_id(sql)
            sql = translate(sql)
            if statement.probe is not None:
                probes[len(texts)] = statement
            if statement.many:
                rows = cast(Sequence[Sequence[Any]], statement.params)
                texts += [cursor.mogrify(sql, row) for row in rows]
            else:
                texts.append(cursor.mogrify(sql, statement.params))
        await cursor.execute(";\n".join(texts))
        if last.sql == "COMMIT":
            self._stored_servers.update(self._ensuring)
        for index in range(len(texts) - 1):  # each result in turn, up to the last statement's
            probe = probes.get(index)
            if probe is not None:
                row = await cursor.fetchone()
                probed = None if row is None else tuple(row)
                if probe.check is not None:  # the schema's version (``schema_guard``)
                    probe.check(probed)
                self.probed[str(probe.probe)] = probed
            cursor.nextset()
        if read is _fetchall:
            return cast(T, rows_of(cursor, await cursor.fetchall(), last.sql))
        if returning:
            found = await cursor.fetchone()
            return cast(T, None if found is None else int(found[0]))
        return cast(T, None)


class OneStatementEach:
    """``storage.read()``'s queries, each on its own (autocommit: no ``BEGIN``/``ROLLBACK``),
    as SQLite's ``OneTripEach``."""

    def __init__(self, conn: Connection, watch: TripWatch = _unwatched) -> None:
        self._conn = conn
        self._watch = watch

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._watch():
            cursor = await self._conn.execute(translate(sql), params)
            return rows_of(cursor, await cursor.fetchall(), sql)
