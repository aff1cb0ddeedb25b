"""``PgStorage``: the PostgreSQL engine, the SQLite engine's ``Storage`` on a PostgreSQL
connection (``DATABASE_URL``).

Everything above the connection is the SQLite engine's: the ``FairLock`` (one transaction of
this process at a time, each server's in its own queue), the caches, the commit guards, the
listeners, and the transaction's parts, whose statements ``PgPipeline`` says in PostgreSQL's
dialect. Across processes a server's changes are serialised by the lock of its row in
``servers`` (``SELECT … FOR UPDATE``, taken with the transaction's first trip), and an
interaction is applied once by the history's unique interaction id.

The connection is a pool of one, bounded: this process's transactions take turns on it under
the lock anyway; a connection that broke (the server restarted) is replaced by the next
transaction, so the bot goes on without a restart. Meanwhile a change or a read raises
``StorageUnreachable`` (the command's ephemeral sentence), nothing stored; a ``COMMIT`` whose
answer was lost is settled by looking its interaction up once reconnected (``_finish``).

A slow server (a congested network, a row held by another process): every trip to it, not
only the ``COMMIT``, acknowledges the interaction once its deadline passes while the trip
runs (``_trip_watch``), so that a change or a read that would answer after Discord's 3 s is
deferred first, then answered, as on a slow disk.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import psycopg

from bot.storage.errors import DatabaseOpenFailed, DatabaseUnreachable, StorageUnreachable
from bot.storage.fair_lock import FairLock, Ticket
from bot.storage.memory import NameIndex, RecentInteractions, SettingsCache
from bot.storage.models import numbers_from_value
from bot.storage.postgres.pipeline import OneStatementEach, PgPipeline
from bot.storage.postgres.schema import apply_migrations, connect, hidden, latest_version
from bot.storage.schema_guard import schema_check
from bot.storage.sqlite.held import LiveOf
from bot.storage.sqlite.pipeline import TripChecks
from bot.storage.sqlite.reader import Queries, Reader
from bot.storage.sqlite.rows import Clock, utc_now
from bot.storage.sqlite.storage import COMMITS_REMEMBERED, Storage
from bot.storage.sqlite.transaction import Transaction
from bot.storage.tables import GameTable, TableDirectory

__all__ = ["PgStorage"]

log = logging.getLogger(__name__)

#: What a server that went away raises: the connection's errors, and a reconnection's.
_GONE = (psycopg.OperationalError, psycopg.InterfaceError, DatabaseUnreachable, DatabaseOpenFailed)


async def _load_tables(conn: psycopg.AsyncConnection[Any]) -> TableDirectory:
    """Every table and place of the database, read once at start-up."""
    directory = TableDirectory()
    cursor = await conn.execute(
        "SELECT id, guild_id, name, gm_role_id, channel_id, numbers FROM game_tables"
    )
    for row in await cursor.fetchall():
        directory.put(GameTable(row[0], row[1], row[2], row[3], row[4], numbers_from_value(row[5])))
    cursor = await conn.execute("SELECT place_id, guild_id, table_id FROM table_places")
    for row in await cursor.fetchall():
        directory.bind(row[1], row[0], row[2])
    return directory


class PgStorage(Storage):
    """The bot's PostgreSQL database, behind the same ``StorageEngine`` protocol."""

    _gone = _GONE  # a change meets them as ``StorageUnreachable`` (``_unreachable``)

    def __init__(
        self,
        conn: psycopg.AsyncConnection[Any],
        url: str,
        clock: Clock,
        tables: TableDirectory | None = None,
    ) -> None:
        from collections import deque

        self._pg: psycopg.AsyncConnection[Any] | None = conn
        #: Every table and bound place, in memory, as on SQLite (``bot.storage.tables``).
        self.tables = tables if tables is not None else TableDirectory()
        self._url = url
        self._clock = clock
        self._lock = FairLock()
        #: Servers whose row in ``servers`` is known stored (``PgPipeline``): for this
        #: connection's database only, so forgotten with the connection.
        self._stored_servers: set[int] = set()
        self._holder = None
        self._closed = False
        self._settings = SettingsCache()
        self._names = NameIndex()
        self._applied = RecentInteractions()
        self._change_listeners = []
        self._commit_seconds = deque(maxlen=COMMITS_REMEMBERED)
        #: The schema this code knows, checked in every transaction (``schema_guard``): a
        #: process of an older Salud stops at its next change once a newer one migrated.
        self._schema = schema_check(latest_version())
        self.moved_on = None
        self._moved_on_listeners = []
        self._path = Path(hidden(url))  # how the log names the database
        #: The ticket of the transaction or read that holds the lock (``_trip_watch``).
        self._ticket: Ticket | None = None

    @classmethod
    async def open_url(cls, url: str, *, clock: Clock | None = None) -> PgStorage:
        """Connect, then create or migrate the schema (see ``schema.apply_migrations``)."""
        conn = await connect(url)
        try:
            await apply_migrations(conn)
            tables = await _load_tables(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, url, clock or utc_now, tables)

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        """The connection, a new one when the last one broke."""
        if self._pg is None or self._pg.closed or self._pg.broken:
            if self._pg is not None:
                await self._pg.close()
            self._pg = None
            self._stored_servers.clear()
            self._pg = await connect(self._url)
        return self._pg

    async def _acquire(self, ticket: Ticket | None = None) -> None:
        await super()._acquire(ticket)
        self._ticket = ticket

    def _release(self) -> None:
        self._ticket = None
        super()._release()

    @asynccontextmanager
    async def _trip_watch(self) -> AsyncIterator[None]:
        """Around one trip to the server: when the holder's interaction is still not
        acknowledged at its deadline, it is acknowledged meanwhile (``on_late``), and the
        trip's result waits for that acknowledgement, so that the reply can follow it up.
        A timer, not a task: a trip on time costs nothing more."""
        ticket = self._ticket
        if ticket is None or ticket.on_late is None or ticket.deadline is None:
            yield
            return
        loop = asyncio.get_running_loop()
        late: list[asyncio.Task[None]] = []
        timer = loop.call_later(
            max(0.0, ticket.deadline - time.monotonic()),
            lambda: late.append(loop.create_task(self._acknowledge_meanwhile(ticket))),
        )
        try:
            yield
        finally:
            timer.cancel()
            for acknowledging in late:
                await acknowledging

    async def _begin(self, guild_id: int | None) -> Transaction:
        async with self._trip_watch():
            conn = await self._connection()
        return Transaction(
            cast(Any, conn),  # given to ``PgPipeline``, which speaks psycopg
            self._clock,
            self._settings,
            guild_id,
            TripChecks(self._schema, None),  # no file to check: a server
            functools.partial(
                PgPipeline, stored_servers=self._stored_servers, watch=self._trip_watch
            ),
        )

    async def _queries(self) -> Queries:
        async with self._trip_watch():
            conn = await self._connection()
        return OneStatementEach(conn, self._trip_watch)

    async def _rollback(self) -> None:
        conn = self._pg
        if conn is None or conn.closed or conn.broken:
            return  # the server ended the transaction with the connection
        try:
            await conn.execute("ROLLBACK")
        except psycopg.Error:
            log.warning("rollback failed: the connection is dropped", exc_info=True)
            await conn.close()

    async def _live_pipeline(self) -> LiveOf:
        conn = await self._connection()
        checks = TripChecks(self._schema, None)
        return lambda on_failure: PgPipeline(conn, on_failure, checks)

    @asynccontextmanager
    async def read(self, ticket: Ticket | None = None) -> AsyncIterator[Reader]:
        try:
            async with super().read(ticket) as reader:
                yield reader
        except _GONE as error:
            raise await self._unreachable(error) from error

    async def _unreachable(self, error: BaseException) -> StorageUnreachable:
        """The connection is dropped (the next command makes a new one)."""
        log.warning("the database server cannot be reached: %s", str(error).strip() or error)
        if self._pg is not None:
            await self._pg.close()
        return StorageUnreachable("the database server cannot be reached: nothing was stored")

    async def _finish(self, tx: Transaction, require_record: bool, ticket: Ticket | None) -> None:
        """SQLite's; when the connection drops during the ``COMMIT`` of a recorded change, its
        outcome is unknown: reconnected, the interaction's entry says whether it is stored
        (then the change is answered as done) or not (``StorageUnreachable``)."""
        try:
            await super()._finish(tx, require_record, ticket)
        except psycopg.OperationalError:
            interaction = tx.recorded_interaction
            if interaction is None or not await self._stored(interaction):
                raise
            log.warning("a COMMIT's answer was lost; interaction %s is stored", interaction)
            tx.abort()

    async def _stored(self, interaction_id: int) -> bool:
        """Whether the interaction's entry is stored, asked on a new connection."""
        if self._pg is not None:
            await self._pg.close()
        try:
            conn = await self._connection()
            cursor = await conn.execute(
                "SELECT 1 FROM history WHERE interaction_id = %s", (interaction_id,)
            )
            return await cursor.fetchone() is not None
        except _GONE:
            return False  # unknown still: refused, as the contract says

    def _committed(self) -> None:
        """No checkpoints: the server keeps its own log."""

    async def close(self) -> None:
        """Wait for the running transaction, then close. Closing twice is harmless."""
        if self._closed:
            return
        await self._lock.acquire()
        try:
            if self._closed:
                return
            self._closed = True
            if self._pg is not None:
                await self._pg.close()
        finally:
            self._lock.release()
