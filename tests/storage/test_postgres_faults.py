"""The PostgreSQL engine when its server goes away (COMMANDS.md, *PostgreSQL at run time*),
against a real server restarted under it: a change meanwhile is ``StorageUnreachable``
(the command's ephemeral sentence) and stores nothing; once the server is back the same
engine reconnects by itself, without a restart; a ``COMMIT`` whose answer was lost is
settled by the interaction's entry."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import psycopg
import pytest

from bot.storage import SchemaMovedOn, StorageUnreachable
from bot.storage.postgres.storage import PgStorage
from devkit.postgres import PostgresServer

from .conftest import GM, GUILD_A, FakeClock, Interactions, create, fresh_postgres_database


async def _hurt(storage: PgStorage, character_id: int, interaction_id: int) -> int:
    async with storage.transaction(guild_id=GUILD_A) as tx:
        current = await tx.get_character(GUILD_A, character_id)
        assert current is not None
        saved = await tx.save_health(
            current, replace(current.health, health=current.health.health - 1)
        )
        await tx.record(
            guild_id=GUILD_A, interaction_id=interaction_id, actor_id=GM, command="hurt"
        )
    return saved.health.health


async def _stored(url: str) -> tuple[int, int]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute(
            "SELECT (SELECT health FROM characters), (SELECT count(*) FROM history)"
        )
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


async def test_a_server_restarted_mid_burst_refuses_meanwhile_and_is_reconnected_to(
    postgres_server: PostgresServer,
) -> None:
    url = await fresh_postgres_database(postgres_server)
    storage = await PgStorage.open_url(url, clock=FakeClock())
    try:
        ids = Interactions()
        ana = await create(storage, ids, "Ana")
        assert await _hurt(storage, ana.id, ids()) == ana.health.health - 1
        await asyncio.to_thread(postgres_server.stop, "immediate")
        try:
            for _ in range(3):  # the burst meets a server that is gone
                with pytest.raises(StorageUnreachable):
                    await _hurt(storage, ana.id, ids())
            with pytest.raises(StorageUnreachable):
                async with storage.read() as reader:
                    await reader.get_character(GUILD_A, ana.id)
        finally:
            await asyncio.to_thread(postgres_server.start)
        # The same engine, no restart: it reconnects and goes on; nothing of the refused.
        assert await _hurt(storage, ana.id, ids()) == ana.health.health - 2
        assert await _stored(url) == (ana.health.health - 2, 3)
    finally:
        await storage.close()


async def test_a_commit_whose_answer_was_lost_is_settled_by_its_interaction(
    postgres_server: PostgresServer,
) -> None:
    """The server commits, then the connection dies before its answer arrives: the change
    is stored, so the engine answers it as done (and one never stored is refused)."""
    url = await fresh_postgres_database(postgres_server)
    storage = await PgStorage.open_url(url, clock=FakeClock())
    try:
        ids = Interactions()
        ana = await create(storage, ids, "Ana")
        conn = await storage._connection()
        real = conn.pipeline

        def commit_then_lose_the_answer(*args: object, **kwargs: object) -> object:
            return _LosingAfterCommit(real(*args, **kwargs), conn)

        conn.pipeline = commit_then_lose_the_answer  # type: ignore[method-assign]
        assert await _hurt(storage, ana.id, ids()) == ana.health.health - 1
        assert await _stored(url) == (ana.health.health - 1, 2)
        # Reconnected meanwhile: the next change goes through the new connection.
        assert await _hurt(storage, ana.id, ids()) == ana.health.health - 2
    finally:
        await storage.close()


class _LosingAfterCommit:
    """A pipeline block whose trip with COMMIT reaches the server, whose answer is then lost
    (the connection is closed under it, as a network that drops after the commit)."""

    def __init__(self, inner: object, conn: psycopg.AsyncConnection[object]) -> None:
        self._inner = inner
        self._conn = conn

    async def __aenter__(self) -> object:
        return await self._inner.__aenter__()  # type: ignore[attr-defined, no-any-return]

    async def __aexit__(self, *exc: object) -> None:
        await self._inner.__aexit__(*exc)  # type: ignore[attr-defined]
        status = self._conn.info.transaction_status
        if status == psycopg.pq.TransactionStatus.IDLE and exc[0] is None:
            await self._conn.close()  # committed: the answer never arrives
            raise psycopg.OperationalError("the connection dropped during COMMIT")


async def test_a_process_of_an_older_schema_stops_at_its_next_change_storing_nothing(
    postgres_server: PostgresServer,
) -> None:
    """A rolling upgrade: a newer Salud migrated the database meanwhile (its version in
    ``schema_version``); this process's next change is refused before anything is stored."""
    url = await fresh_postgres_database(postgres_server)
    storage = await PgStorage.open_url(url, clock=FakeClock())
    try:
        ids = Interactions()
        ana = await create(storage, ids, "Ana")
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute("UPDATE schema_version SET version = version + 1")
        with pytest.raises(SchemaMovedOn):
            await _hurt(storage, ana.id, ids())
        assert storage.moved_on is not None
        assert await _stored(url) == (ana.health.health, 1)
    finally:
        await storage.close()
