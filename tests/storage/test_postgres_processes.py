"""Several processes on one PostgreSQL database (COMMANDS.md, *Several machines*): two
engines, each with its own connection as two bot processes have, change one server at
once. Every change counts (the server's row lock serialises them), the server's numbers
stay gap-free and unique, and an interaction delivered to both is applied once."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.storage import AlreadyApplied, Storage
from bot.storage.interface import HistoryQuery
from bot.storage.postgres.storage import PgStorage
from devkit.postgres import PostgresServer

from .conftest import GM, GUILD_A, FakeClock, Interactions, create, fresh_postgres_database

HURTS_EACH = 15


async def _hurt(storage: Storage, character_id: int, interaction_id: int) -> None:
    async with storage.transaction(guild_id=GUILD_A) as tx:
        current = await tx.get_character(GUILD_A, character_id)
        assert current is not None
        await tx.save_health(current, replace(current.health, health=current.health.health - 1))
        await asyncio.sleep(0)  # the other process gets its turn mid-change
        await tx.record(
            guild_id=GUILD_A, interaction_id=interaction_id, actor_id=GM, command="hurt"
        )


async def _two_processes(server: PostgresServer) -> tuple[PgStorage, PgStorage]:
    url = await fresh_postgres_database(server)
    return (
        await PgStorage.open_url(url, clock=FakeClock()),
        await PgStorage.open_url(url, clock=FakeClock()),
    )


async def test_two_processes_hurting_one_character_at_once_both_count(
    postgres_server: PostgresServer,
) -> None:
    first, second = await _two_processes(postgres_server)
    try:
        ids = Interactions()
        ana = await create(first, ids, "Ana")
        ana_health = ana.health.health
        await asyncio.gather(
            *(_hurt(first, ana.id, ids()) for _ in range(HURTS_EACH)),
            *(_hurt(second, ana.id, ids()) for _ in range(HURTS_EACH)),
        )
        async with second.read() as reader:
            stored = await reader.get_character(GUILD_A, ana.id)
            entries = await reader.history(GUILD_A, HistoryQuery(limit=100))
        assert stored is not None
        assert stored.health.health == ana_health - 2 * HURTS_EACH
        assert sorted(entry.number for entry in entries) == list(range(1, 2 * HURTS_EACH + 2))
    finally:
        await first.close()
        await second.close()


async def test_an_interaction_delivered_to_two_processes_is_applied_once(
    postgres_server: PostgresServer,
) -> None:
    first, second = await _two_processes(postgres_server)
    try:
        ids = Interactions()
        ana = await create(first, ids, "Ana")
        twice = ids()
        outcomes = await asyncio.gather(
            _hurt(first, ana.id, twice), _hurt(second, ana.id, twice), return_exceptions=True
        )
        assert sorted(type(outcome).__name__ for outcome in outcomes) == [
            "AlreadyApplied",
            "NoneType",
        ]
        assert any(isinstance(outcome, AlreadyApplied) for outcome in outcomes)
        async with first.read() as reader:
            stored = await reader.get_character(GUILD_A, ana.id)
            assert await reader.interaction_seen(twice)
        assert stored is not None and stored.health.health == ana.health.health - 1
    finally:
        await first.close()
        await second.close()


@pytest.fixture
def engine() -> str:
    """These tests open their own PostgreSQL engines."""
    return "postgres"
