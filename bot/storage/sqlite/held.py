"""A whole server's change prepared without holding the storage (issue 24 point 16b).

``/scene new`` or ``/refresh`` over thousands of characters spends most of its time reading
them, working out their new states and the history's snapshots; under the lock, every other
server's command waited for all of it. A prepared change does that work first, on a
``HeldPipeline``: each read is a statement of its own under the lock (another server's change
runs between two of them), and every write is held back. Then, under the lock, one trip takes
the write lock with ``BEGIN`` and reads the server's ``FINGERPRINT`` again: when nothing of the
server changed since it was first read (no history entry, the same characters), the held
writes go with ``COMMIT`` in one more trip — one transaction with its history entry, as
before; when something did, the change is rolled back and prepared again from what is stored
(``Storage.prepared_change``).

The history entry's id is taken under the write lock (it is global: every server's entry moves
it), so the held writes carry ``HELD_ID`` in its place until then (``with_entry_id``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Final, cast

from bot.storage.errors import StorageError
from bot.storage.shared_sql import NEXT_HISTORY_ID, SELECT_NEXT_HISTORY_ID
from bot.storage.sqlite.pipeline import Pipeline, Statement

__all__ = [
    "FINGERPRINT",
    "HELD_ID",
    "ChangedMeanwhile",
    "HeldPipeline",
    "Holding",
    "LiveOf",
    "NotPreparable",
    "RowReader",
    "fingerprint_of",
    "fingerprint_params",
    "with_entry_id",
]

#: What a server's characters are, as far as a change of them shows: the number of its
#: latest history entry (every recorded change makes one) and which characters it has (a
#: character moved in or out between tables is not in this server's history).
FINGERPRINT: Final = (
    "SELECT coalesce((SELECT max(number) FROM history WHERE guild_id = ?), 0),"
    " (SELECT count(*) FROM characters WHERE guild_id = ?),"
    " (SELECT coalesce(sum(id), 0) FROM characters WHERE guild_id = ?)"
)

#: The real pipeline of a held change, made under the lock: ``live_of(on_failure)``.
LiveOf = Callable[[Callable[[], None]], Pipeline]

#: The rows a held read gives: ``read(sql, params)``, each under the lock on its own.
RowReader = Callable[[str, Sequence[Any]], Awaitable[list[sqlite3.Row]]]


class _HeldId(int):
    """The id of the history entry of a held change, until the write lock gives it (an int
    for what is typed so: the entry ``record`` returns carries it)."""

    def __repr__(self) -> str:
        return "HELD_ID"


#: In the held writes, where the history entry's id goes (found by identity).
HELD_ID: Final = _HeldId(0)


class NotPreparable(StorageError):
    """The change needed a write's answer before its end: it is made the ordinary way."""


class ChangedMeanwhile(StorageError):
    """Something of the server changed between the reads and the write lock: prepare again."""


def fingerprint_of(row: Sequence[Any] | None) -> tuple[int, ...]:
    """The ``FINGERPRINT`` row as plain numbers (PostgreSQL's sum is a Decimal)."""
    return () if row is None else tuple(int(value) for value in row)


def fingerprint_params(guild_id: int) -> tuple[int, int, int]:
    """``FINGERPRINT``'s parameters."""
    return (guild_id, guild_id, guild_id)


def with_entry_id(statements: Iterable[Statement], entry_id: int) -> list[Statement]:
    """The held statements with the history entry's id where ``HELD_ID`` stands (the first
    value of the entry's row and of each of its characters' rows)."""
    filled = []
    for statement in statements:
        if statement.many:
            rows = [
                (entry_id, *row[1:]) if row and row[0] is HELD_ID else row
                for row in statement.params
            ]
            statement = Statement(statement.sql, rows, many=True)
        elif statement.params and statement.params[0] is HELD_ID:
            statement = Statement(statement.sql, (entry_id, *statement.params[1:]))
        filled.append(statement)
    return filled


class HeldPipeline(Pipeline):
    """A transaction's pipeline while its change is prepared: reads go through ``read``
    (each under the lock on its own, nothing held sent with them); writes are held until
    ``go_live`` hands them to the pipeline of the real transaction, which every call then
    goes to. A write whose answer is needed now raises ``NotPreparable``."""

    def __init__(self, read: RowReader, on_failure: Callable[[], None], number: int) -> None:
        super().__init__(cast(Any, None), on_failure)  # held, ``_send`` is never reached
        self._read = read
        self._live: Pipeline | None = None
        # What ``BEGIN``'s probe gives a transaction: its entry's id (not known yet), number.
        self.probed[NEXT_HISTORY_ID] = (HELD_ID, number)

    def go_live(self, live_of: LiveOf) -> tuple[Pipeline, list[Statement]]:
        """From now on every call goes to the pipeline ``live_of(on_failure)`` gives;
        returns it and the writes held so far."""
        held = list(self._queued)
        self._queued.clear()
        self._live = live_of(self._on_failure)
        return self._live, held

    def begin(self, name: str, probe: str, params: Sequence[Any] = ()) -> None:
        """Held: nothing (the real transaction begins under the lock)."""
        if self._live is not None:
            self._live.begin(name, probe, params)

    def queue(self, sql: str, params: Sequence[Any] = ()) -> None:
        if self._live is not None:
            self._live.queue(sql, params)
        else:
            super().queue(sql, params)

    def probe(self, name: str, sql: str, *args: Any, **kwargs: Any) -> None:
        if self._live is None:  # its answer would come only with the write
            raise NotPreparable(f"a probe while held: {sql[:40]}")
        self._live.probe(name, sql, *args, **kwargs)

    def queue_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        if self._live is not None:
            self._live.queue_many(sql, rows)
        else:
            super().queue_many(sql, rows)

    def discard(self) -> None:
        self._queued.clear()
        if self._live is not None:
            self._live.discard()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        if self._live is not None:
            return await self._live.fetchall(sql, params)
        if not sql.lstrip().upper().startswith("SELECT"):
            raise NotPreparable(f"a write that answers: {sql[:40]}")
        try:
            return await self._read(sql, params)
        except BaseException:
            self._on_failure()
            raise

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        return await self._now().insert(sql, params)

    async def insert_one(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        return await self._now().insert_one(sql, params)

    async def execute(
        self, sql: str, params: Sequence[Any] = (), *, before: Callable[[], None] | None = None
    ) -> None:
        await self._now().execute(sql, params, before=before)

    async def commit(self) -> None:
        await self._now().commit()

    def _now(self) -> Pipeline:
        """The real pipeline, for a call that sends now."""
        if self._live is None:
            raise NotPreparable("a statement sent before the write lock")
        return self._live


class Holding:
    """The ``pipeline_of`` of a prepared change's ``Transaction``: its pipeline is held, and
    kept here for the write (``Storage.prepared_change``), with the server's fingerprint read
    before the change's first read."""

    def __init__(self, read: RowReader, guild_id: int, seen: tuple[int, ...]) -> None:
        self._read = read
        self._guild_id = guild_id
        self._seen = seen
        self._pipeline: HeldPipeline | None = None

    @classmethod
    async def start(cls, read: RowReader, guild_id: int) -> Holding:
        rows = await read(FINGERPRINT, fingerprint_params(guild_id))
        return cls(read, guild_id, fingerprint_of(rows[0] if rows else None))

    def __call__(self, _conn: object, on_failure: Callable[[], None], **_: object) -> Pipeline:
        number = self._seen[0] + 1  # the history entry's number the change will have
        self._pipeline = HeldPipeline(self._read, on_failure, number)
        return self._pipeline

    async def go_live(self, live_of: LiveOf) -> None:
        """Under the lock: one trip begins the real transaction (``live_of``'s pipeline) and
        reads the fingerprint again; the same, the held writes are queued for ``COMMIT``
        with the entry's id; not, ``ChangedMeanwhile``."""
        if self._pipeline is None:  # pragma: no cover - the transaction makes it at once
            raise StorageError("no transaction was held")
        live, held = self._pipeline.go_live(live_of)
        guild_id = self._guild_id
        live.begin(NEXT_HISTORY_ID, SELECT_NEXT_HISTORY_ID, (guild_id,))
        rows = await live.fetchall(FINGERPRINT, fingerprint_params(guild_id))
        if fingerprint_of(rows[0] if rows else None) != self._seen:
            raise ChangedMeanwhile(f"server {guild_id} changed while its change was prepared")
        probed = live.probed[NEXT_HISTORY_ID]  # the id, the number (and the schema)
        if int(probed[1]) != self._seen[0] + 1:  # pragma: no cover - the fingerprint says so
            raise ChangedMeanwhile(f"server {guild_id} has a new history entry")
        live.queue_statements(with_entry_id(held, int(probed[0])))
