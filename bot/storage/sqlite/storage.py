"""``Storage``: the single connection, its lock, and the transaction/read context managers."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar, cast

import aiosqlite

from bot.storage.errors import SchemaMovedOn, StorageClosed, TransactionStateError
from bot.storage.fair_lock import FairLock, Ticket
from bot.storage.memory import NameIndex, RecentInteractions, ServerNames, SettingsCache
from bot.storage.models import GuildSettings
from bot.storage.schema_guard import schema_check
from bot.storage.sqlite.checkpoint import Checkpointer
from bot.storage.sqlite.database import apply_migrations, connect, latest_version
from bot.storage.sqlite.file_check import check_database_file
from bot.storage.sqlite.file_identity import DatabaseFile
from bot.storage.sqlite.full_disk import FullDisk, is_full
from bot.storage.sqlite.held import (
    ChangedMeanwhile,
    Holding,
    LiveOf,
    NotPreparable,
)
from bot.storage.sqlite.pipeline import NO_CHECKS, Pipeline, TripChecks
from bot.storage.sqlite.reader import OneTripEach, Queries, Reader
from bot.storage.sqlite.rows import Clock, utc_now
from bot.storage.sqlite.table_rows import load_directory
from bot.storage.sqlite.transaction import Transaction
from bot.storage.tables import TableDirectory

__all__ = ["ChangeListener", "Storage"]

#: ``listener(guild_id, ids of the characters the change touched)``, after its commit.
ChangeListener = Callable[[int, tuple[int, ...]], None]

#: How many times a whole server's change is prepared before the write lock (``held.py``)
#: before it is made under the lock from start to end: the servers that change it meanwhile.
PREPARED_TRIES = 2

T = TypeVar("T")

#: How many of the latest commits' durations the commit estimate looks at.
COMMITS_REMEMBERED = 32

log = logging.getLogger(__name__)


class Storage:
    """The bot's database: one aiosqlite connection shared through a ``FairLock``.

    One connection means one transaction at a time; the lock queues the others instead of
    letting SQLite answer "database is locked", each server's in its own queue, served in
    turn. An interaction's calls carry its ``Ticket``: a wait or a ``COMMIT`` that would end
    after the ticket's deadline first acknowledges the interaction (``Ticket.on_late``), so
    that no change is committed whose reply could no longer reach Discord.
    """

    #: The errors of a database that went away (none for a file; PostgreSQL's server).
    _gone: tuple[type[BaseException], ...] = ()

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path,
        clock: Clock,
        schema: int | None = None,
        tables: TableDirectory | None = None,
    ) -> None:
        self._conn = conn
        #: Every table and bound place, in memory (``bot.storage.tables``): finding the
        #: table of a command costs no trip.
        self.tables = tables if tables is not None else TableDirectory()
        self._path = path
        self._clock = clock
        self._lock = FairLock()  # per-server queues served in turn (fair_lock.py)
        self._holder: asyncio.Task[object] | None = None
        self._closed = False
        self._full = FullDisk(path)
        self._file = DatabaseFile(path)  # the path still names the file opened (each COMMIT)
        self.checkpointer = Checkpointer(path, self.exclusive, full=self._full)
        self._settings = SettingsCache()
        self._names = NameIndex()
        self._applied = RecentInteractions()
        self._change_listeners: list[ChangeListener] = []
        #: The durations (seconds) of the latest commits' last trip (``commit_estimate``).
        self._commit_seconds: deque[float] = deque(maxlen=COMMITS_REMEMBERED)
        #: The schema this code knows, checked in every transaction (``schema_guard``).
        self._schema = None if schema is None else schema_check(schema)
        #: Set once a transaction found the schema moved past it: nothing is stored after.
        self.moved_on: SchemaMovedOn | None = None
        self._moved_on_listeners: list[Callable[[SchemaMovedOn], None]] = []

    @classmethod
    async def open(cls, path: str | Path, *, clock: Clock | None = None) -> Storage:
        """Check the file read-only (``DatabaseFileError`` for one that cannot be used, left
        untouched), open (or create) it, set the pragmas and apply pending migrations."""
        target = Path(path)
        known = latest_version()
        await asyncio.to_thread(check_database_file, target, known)
        conn = await connect(target)
        try:
            await apply_migrations(conn)
            # The schema in the main file from the start, not only in the WAL.
            await conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            # Checkpoints run in the background (``Checkpointer``), never inside a COMMIT.
            await conn.execute("PRAGMA wal_autocheckpoint = 0")
            tables = await load_directory(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, target, clock or utc_now, known, tables)

    async def close(self) -> None:
        """Wait for the running transaction, then close. Closing twice is harmless."""
        if self._closed:
            return
        # The checkpointer first, outside the lock (its last round may need the lock), and
        # its connection closed: the last connection to close folds the WAL back.
        await self.checkpointer.close()
        await self._lock.acquire()
        try:
            if self._closed:
                return
            self._closed = True
            try:  # the main file alone then holds everything (a copy of it is complete)
                await self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as error:
                log.warning("could not fold the WAL back into %s: %s", self._path, error)
            await self._conn.close()
        finally:
            self._lock.release()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _acquire(self, ticket: Ticket | None = None) -> None:
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            # asyncio.Lock is not reentrant: waiting here would wait forever.
            raise TransactionStateError("nested storage.transaction()/read() in one task")
        if self._closed:
            raise StorageClosed("storage is closed")
        await self._lock.acquire(ticket)
        if self._closed:
            self._lock.release()
            raise StorageClosed("storage is closed")
        self._holder = task

    def _release(self) -> None:
        self._holder = None
        self._lock.release()

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """Hold the lock without using the connection: no transaction or read of this
        process runs meanwhile (``Checkpointer``'s catch-up round), however long it waits."""
        await self._acquire()
        try:
            yield
        finally:
            self._release()

    async def _rollback(self) -> None:
        try:
            await self._conn.rollback()
        except Exception:  # pragma: no cover - the original error matters more
            log.exception("rollback failed")

    @asynccontextmanager
    async def transaction(
        self,
        *,
        require_record: bool = True,
        ticket: Ticket | None = None,
        guild_id: int | None = None,
    ) -> AsyncIterator[Transaction]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; any exception rolls back and is re-raised.

        The statements go in as few trips to aiosqlite's thread as their results allow
        (``Pipeline``): ``BEGIN`` with the first, the last writes with ``COMMIT``.

        With ``require_record`` (the default) a transaction that changed a character but did
        not call ``tx.record(...)`` is rolled back with ``TransactionStateError``: every
        change must reach the history, or ``/undo`` could not be trusted. When the disk
        refuses the writes it raises ``StorageFull`` (logged at most once a minute).

        ``guild_id``: the server whose change this is, if known: its next history number is
        probed with ``BEGIN`` (without it, recording an entry costs a trip of its own).

        ``ticket``: the interaction's (``FairLock``). Its wait for the lock, and its
        ``COMMIT``, acknowledge the interaction when they would end after the ticket's
        deadline: before a ``COMMIT`` that the latest commits say may take that long, and
        while one that takes longer than they said is still running.
        """
        try:
            async with self._locked(lambda: self._begin(guild_id), require_record, ticket) as tx:
                yield tx
        except self._gone as error:
            raise await self._unreachable(error) from error

    @asynccontextmanager
    async def _locked(
        self,
        make: Callable[[], Awaitable[Transaction]],
        require_record: bool,
        ticket: Ticket | None,
        before: Callable[[Transaction], Awaitable[None]] | None = None,
    ) -> AsyncIterator[Transaction]:
        """``transaction``'s frame: the lock, the transaction ``make`` gives (``before(tx)``
        first, rolled back when it raises), its commit or rollback, and what follows."""
        self._refuse_if_moved_on()
        await self._acquire(ticket)
        try:
            # Queues BEGIN IMMEDIATE and the probe of the history's next id and number.
            tx = await make()
            if ticket is not None:
                tx.guard_commit(lambda: self._acknowledge_if_late(ticket, self.commit_estimate))
            try:
                if before is not None:
                    await before(tx)
                yield tx
                started = time.monotonic()
                await self._finish(tx, require_record, ticket)
                self._commit_seconds.append(time.monotonic() - started)
            except BaseException as error:
                tx.abort()
                await self._rollback()
                if is_full(error):
                    raise self._full.refused(error) from error
                if isinstance(error, SchemaMovedOn):
                    self._moved_past(error)
                raise
            finally:
                tx.end()
                for guild_id in tx.settings_written:
                    self._settings.forget(guild_id)
                for guild_id in tx.names_written:
                    self._names.forget(guild_id)
        finally:
            self._release()
        if tx.recorded_interaction is not None:
            self._applied.add(tx.recorded_interaction)
            self._tell_listeners(tx)
        self._committed()

    async def prepared_change(
        self,
        body: Callable[[Transaction], Awaitable[T]],
        *,
        guild_id: int,
        ticket: Ticket | None = None,
    ) -> T:
        """``body(tx)``, a whole server's change, prepared before the write lock (``held.py``):
        its reads one statement at a time under the lock, its writes held; then, under the
        lock, one trip begins the transaction and finds whether the server changed since,
        and one more commits the held writes. Changed: prepared again, at most
        ``PREPARED_TRIES`` times, then made under the lock from start to end (as is a change
        that needs a write's answer before its end). One transaction with its history entry
        whichever way."""
        for _ in range(PREPARED_TRIES):
            try:
                return await self._prepared_once(body, guild_id, ticket)
            except ChangedMeanwhile:
                continue
            except NotPreparable:
                break
        async with self.transaction(ticket=ticket, guild_id=guild_id) as tx:
            return await body(tx)

    async def _prepared_once(
        self, body: Callable[[Transaction], Awaitable[T]], guild_id: int, ticket: Ticket | None
    ) -> T:
        async def read(sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
            async with self.read(ticket) as reader:
                return await reader.fetch_all(sql, params)

        holding = await Holding.start(read, guild_id)  # the server's fingerprint, first
        tx = Transaction(cast(Any, None), self._clock, self._settings, guild_id, NO_CHECKS, holding)
        result = await body(tx)

        async def made() -> Transaction:
            return tx

        async def live(_: Transaction) -> None:
            await holding.go_live(await self._live_pipeline())

        try:
            async with self._locked(made, True, ticket, live):
                pass
        except self._gone as error:
            raise await self._unreachable(error) from error
        return result

    async def _unreachable(self, error: BaseException) -> BaseException:
        """What a change raises for one of ``_gone`` (a database server that went away)."""
        return error

    async def _live_pipeline(self) -> LiveOf:
        """The real pipeline a held change is written with (under the lock)."""
        checks = TripChecks(self._schema, self._file.check)
        return lambda on_failure: Pipeline(self._conn, on_failure=on_failure, checks=checks)

    async def _begin(self, guild_id: int | None) -> Transaction:
        """A new transaction on the connection (under the lock): its ``BEGIN`` is queued."""
        return Transaction(
            self._conn,
            self._clock,
            self._settings,
            guild_id,
            TripChecks(self._schema, self._file.check),
        )

    async def _queries(self) -> Queries:
        """Where ``read()``'s statements go (under the lock)."""
        return OneTripEach(self._conn)

    def _committed(self) -> None:
        """After each transaction (the WAL's checkpoints follow the commits)."""
        self.checkpointer.committed()

    def on_schema_moved_on(self, listener: Callable[[SchemaMovedOn], None]) -> None:
        """Call ``listener(error)`` once, when a transaction finds that a newer Salud
        migrated the database: the process must stop (``bot/__main__.py`` exits 2)."""
        self._moved_on_listeners.append(listener)

    def _moved_past(self, error: SchemaMovedOn) -> None:
        if self.moved_on is not None:
            return
        self.moved_on = error
        log.error(
            "A newer Salud upgraded the database %s to schema %s (this code knows %s): "
            "nothing more is stored here; this process stops.",
            self._path,
            error.found,
            error.known,
        )
        for listener in self._moved_on_listeners:
            try:
                listener(error)
            except Exception:
                log.exception("a schema listener failed")

    def _refuse_if_moved_on(self) -> None:
        """After a newer schema was found, every transaction and read is refused at once."""
        if self.moved_on is not None:
            raise SchemaMovedOn(self.moved_on.found, self.moved_on.known)

    @property
    def commit_estimate(self) -> float:
        """How long a commit may take now: the longest of the latest ones (a slow disk shows
        at once, and is forgotten once it is fast again)."""
        return max(self._commit_seconds, default=0.0)

    @staticmethod
    async def _acknowledge_if_late(ticket: Ticket, seconds: float) -> None:
        """Before a ``COMMIT``: acknowledge the interaction when the commit, taking
        ``seconds``, would end after the ticket's deadline."""
        if ticket.on_late is not None and ticket.late_by(time.monotonic() + seconds):
            await ticket.on_late()

    async def _finish(self, tx: Transaction, require_record: bool, ticket: Ticket | None) -> None:
        """``tx.finish``; when the interaction is still unacknowledged at its deadline while
        the ``COMMIT`` runs (a disk slower than the latest commits said), acknowledge it
        meanwhile, so that the reply can follow up once the commit is done.

        The deadline is a timer, not a task that races the commit: a commit on time (nearly
        all) costs no task and no turn of the event loop more than the commit itself."""
        deadline = None if ticket is None or ticket.on_late is None else ticket.deadline
        if ticket is None or deadline is None:
            await tx.finish(require_record=require_record)
            return
        loop = asyncio.get_running_loop()
        late: list[asyncio.Task[None]] = []
        timer = loop.call_later(
            max(0.0, deadline - time.monotonic()),
            lambda: late.append(loop.create_task(self._acknowledge_meanwhile(ticket))),
        )
        try:
            await tx.finish(require_record=require_record)
        finally:
            timer.cancel()
            for acknowledging in late:  # the reply follows up once the deferral is sent
                await acknowledging

    @staticmethod
    async def _acknowledge_meanwhile(ticket: Ticket) -> None:
        """The ticket's ``on_late`` while its ``COMMIT`` still runs in aiosqlite's thread."""
        if ticket.on_late is None:
            return
        try:
            await ticket.on_late()
        except Exception as error:
            # The commit goes on in aiosqlite's thread whatever happens here: its outcome
            # decides. Committed, the reply will fail and say so; this says why.
            log.warning("could not acknowledge an interaction while it committed: %r", error)

    def on_change(self, listener: ChangeListener) -> None:
        """Call ``listener(guild_id, character_ids)`` after each committed change (a recorded
        transaction): the live tracker and the roll buttons follow the server's state so.
        A listener must return at once (schedule its own work); its errors are logged."""
        self._change_listeners.append(listener)

    def _tell_listeners(self, tx: Transaction) -> None:
        guild_id = tx.changed_guild
        if guild_id is None:
            return
        touched = tx.touched_ids
        # A character moved between tables changed the names of both: the table it joined
        # hears of the change too (its tracker shows the newcomer).
        tables = [guild_id, *sorted(t for t in tx.names_written if t != guild_id)]
        for table_id in tables:
            for listener in self._change_listeners:
                try:
                    listener(table_id, touched)
                except Exception:
                    log.exception("a change listener failed (guild %s)", table_id)

    def applied_recently(self, interaction_id: int) -> bool:
        """Whether a transaction of this process committed a change for this interaction
        lately (``RecentInteractions``; the history's unique index is the guarantee)."""
        return interaction_id in self._applied

    async def settings(self, guild_id: int, ticket: Ticket | None = None) -> GuildSettings:
        """The guild's ``/config``: from memory when it was read lately (no wait for the
        lock, no round trip), else read under the lock (``SettingsCache``)."""
        cached = self._settings.get(guild_id)
        if cached is not None:
            return cached
        async with self.read(ticket) as reader:
            return await reader.get_settings(guild_id)

    def settings_in_memory(self, guild_id: int | None) -> GuildSettings | None:
        """The guild's ``/config`` if it is in memory, without waiting for anything."""
        return None if guild_id is None else self._settings.get(guild_id)

    async def names(self, guild_id: int, ticket: Ticket | None = None) -> ServerNames:
        """The server's characters as the options resolve them: from memory when read lately
        (no wait for the lock, no round trip), else read under the lock in one query
        (``NameIndex``; every transaction that creates, deletes, renames a character, changes
        its gender or restores one (``/undo``) forgets its server's entry when it ends)."""
        cached = self._names.get(guild_id)
        if cached is not None:
            return cached
        async with self.read(ticket) as reader:
            found = await reader.server_names(guild_id)
            self._names.put(guild_id, found)  # under the lock: no transaction between
        return found

    @asynccontextmanager
    async def read(self, ticket: Ticket | None = None) -> AsyncIterator[Reader]:
        """Reads under the lock, each statement on its own (no ``BEGIN``/``ROLLBACK``: two
        round trips saved per read; see ``Reader``).

        With one connection behind the lock no write of this process can come between two
        statements of a block; another process sharing the file (a maintenance script, the
        tests) could commit between them, but each statement sees a committed state.
        ``ticket``: the interaction's, as for ``transaction``.
        """
        self._refuse_if_moved_on()
        await self._acquire(ticket)
        try:
            reader = Reader(await self._queries(), self._clock, self._settings)
            try:
                yield reader
            except sqlite3.Error as error:
                if is_full(error):  # a read can need room too (a sort's temporary file)
                    raise self._full.refused(error) from error
                raise
            finally:
                reader.end()
        finally:
            self._release()
