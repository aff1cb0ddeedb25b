"""Several statements of a transaction in one trip to aiosqlite's thread.

Each aiosqlite call is a round trip: a queue put, a switch to its thread, a wake-up of the
event loop. The benchmark of issue 6 measured 0.2–0.25 ms of CPU per trip on a busy 2-core
machine — most of a command's own cost. Inside a transaction most statements return nothing
anybody waits for (``BEGIN``, the UPDATE of a character, the rows of its history entry), so a
``Pipeline`` queues them and sends them with the next statement whose result is needed, or with
the ``COMMIT``: a ``/hurt`` is two trips instead of six. A queued statement can also be a
``probe``: a query whose first row is kept when its trip returns (the transaction asks for
the next history id and its server's next number this way, with ``BEGIN``, so that the
history entry need not be sent on its own to learn them).

A queued statement that fails raises from the call that sends it (the statements after it are
not run); the transaction then rolls back, as for any error. Statements whose errors mean
something to the caller (a name already taken, an interaction already recorded) are sent at
once with ``execute``/``insert``/``fetchall``.

The trip itself is ``one_trip.in_one_trip``, the one function using aiosqlite's private API;
``tests/storage/test_round_trips.py`` pins the trips of the usual commands.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import aiosqlite

from bot.storage.schema_guard import SchemaCheck, with_schema_version
from bot.storage.sqlite.one_trip import in_one_trip

__all__ = ["NO_CHECKS", "Batch", "Pipeline", "Statement", "TripChecks"]

T = TypeVar("T")


@dataclass(frozen=True)
class Statement:
    """One SQL statement with its parameters (``many``: one parameter tuple per row;
    ``probe``: a query whose first row is kept under that name, as a tuple; ``check``: what
    that row must pass, else the trip stops there, before the statements after it)."""

    sql: str
    params: Sequence[Any] | Sequence[Sequence[Any]] = ()
    many: bool = False
    probe: str | None = None
    check: Callable[[tuple[Any, ...] | None], None] | None = None

    def run(self, conn: sqlite3.Connection) -> sqlite3.Cursor:
        if self.many:
            return conn.executemany(self.sql, self.params)
        return conn.execute(self.sql, self.params)


@dataclass(frozen=True)
class Batch(Generic[T]):
    """What one trip runs: the queued statements, then the last one and what to read from it."""

    statements: tuple[Statement, ...]
    last: Statement
    read: Callable[[sqlite3.Cursor], T]
    probed: dict[str, Any] = field(default_factory=dict)  # filled in aiosqlite's thread
    #: Run in the thread just before ``last``; what it raises stops the trip there.
    before_last: Callable[[], None] | None = None

    def describe(self) -> list[str]:
        """The first words of each statement (what the round-trip tests compare)."""
        return [" ".join(statement.sql.split()[:3]) for statement in (*self.statements, self.last)]

    def __call__(self, conn: sqlite3.Connection) -> T:
        for statement in self.statements:
            cursor = statement.run(conn)
            if statement.probe is not None:
                row = cursor.fetchone()
                probed = None if row is None else tuple(row)
                if statement.check is not None:
                    statement.check(probed)  # raising: nothing after it runs
                self.probed[statement.probe] = probed
        if self.before_last is not None:
            self.before_last()
        return self.read(self.last.run(conn))


def _fetchall(cursor: sqlite3.Cursor) -> list[sqlite3.Row]:
    return cursor.fetchall()


def _lastrowid(cursor: sqlite3.Cursor) -> int | None:
    return cursor.lastrowid


def _inserted_row(cursor: sqlite3.Cursor) -> int | None:
    return cursor.lastrowid if cursor.rowcount == 1 else None


def _nothing(cursor: sqlite3.Cursor) -> None:
    return None


@dataclass(frozen=True)
class TripChecks:
    """What a transaction's trips check: the schema, with ``BEGIN``'s probe
    (``schema_guard``); the database file, just before ``COMMIT`` (``file_identity``)."""

    schema: SchemaCheck | None = None
    before_commit: Callable[[], None] | None = None


NO_CHECKS = TripChecks()


class Pipeline:
    """The statements of one transaction not sent yet, and the calls that send them.

    ``on_failure`` is called when a trip fails (a queued write may have failed with it)."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        on_failure: Callable[[], None] = lambda: None,
        checks: TripChecks = NO_CHECKS,
    ) -> None:
        self._conn = conn
        self._on_failure = on_failure
        self._checks = checks
        self._queued: list[Statement] = []
        self.probed: dict[str, Any] = {}  # the answers of the probes sent so far

    def begin(self, name: str, probe: str, params: Sequence[Any] = ()) -> None:
        """``BEGIN IMMEDIATE`` and the query ``probe`` (``probe(name, …)``) with the next
        trip; with a schema check, the probe also reads the schema version, checked there."""
        self.queue("BEGIN IMMEDIATE")
        schema = self._checks.schema
        sql = probe if schema is None else with_schema_version(probe)
        self.probe(name, sql, params, check=schema)

    async def commit(self) -> None:
        """The queued statements, then ``COMMIT``, the file check just before it: one trip."""
        await self.execute("COMMIT", before=self._checks.before_commit)

    def queue(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run ``sql`` with the next trip."""
        self._queued.append(Statement(sql, tuple(params)))

    def probe(
        self,
        name: str,
        sql: str,
        params: Sequence[Any] = (),
        *,
        check: Callable[[tuple[Any, ...] | None], None] | None = None,
    ) -> None:
        """Run the query ``sql`` with the next trip; its first row is then ``probed[name]``,
        a tuple (None when it gave no row; not there before that trip, or when it failed).
        ``check(row)`` runs in the trip, and what it raises fails the trip at that point."""
        self._queued.append(Statement(sql, tuple(params), probe=name, check=check))

    def queue_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run ``sql`` once per row with the next trip (nothing when there is no row)."""
        listed = [tuple(row) for row in rows]
        if listed:
            self._queued.append(Statement(sql, listed, many=True))

    def queue_statements(self, statements: Iterable[Statement]) -> None:
        """Run these with the next trip (the writes of a held change, ``held.py``)."""
        self._queued.extend(statements)

    def discard(self) -> None:
        """Forget what was not sent (the transaction is rolled back)."""
        self._queued.clear()

    async def _send(
        self,
        last: Statement,
        read: Callable[[sqlite3.Cursor], T],
        before_last: Callable[[], None] | None = None,
    ) -> T:
        batch = Batch(tuple(self._queued), last, read, before_last=before_last)
        self._queued.clear()
        try:
            return await self._trip(batch)
        except BaseException:
            self._on_failure()
            raise

    async def _trip(self, batch: Batch[T]) -> T:
        """``batch`` in one trip to aiosqlite's thread; its probes' answers kept once it ran.
        An engine's pipeline sends it its own way (``PgPipeline``)."""
        result = await in_one_trip(self._conn, batch)
        self.probed.update(batch.probed)
        return result

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """The queued statements, then this query's rows: one trip."""
        return await self._send(Statement(sql, tuple(params)), _fetchall)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        """The queued statements, then this INSERT; its row id. One trip."""
        return await self._send(Statement(sql, tuple(params)), _lastrowid)

    async def insert_one(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        """The queued statements, then this INSERT of at most one row (``INSERT … SELECT …
        WHERE``); its row id, None when it inserted nothing. One trip."""
        return await self._send(Statement(sql, tuple(params)), _inserted_row)

    async def execute(
        self, sql: str, params: Sequence[Any] = (), *, before: Callable[[], None] | None = None
    ) -> None:
        """The queued statements, then this one, now (its errors are the caller's).
        ``before()`` runs in the same trip just before it (a check that may raise)."""
        await self._send(Statement(sql, tuple(params)), _nothing, before)
