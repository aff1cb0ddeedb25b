"""What the storage keeps in memory to save round trips (issue 6): the settings of the servers
in use and the interactions applied lately. Both must always agree with what is committed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import AlreadyApplied, GuildSettings, Storage
from bot.storage.memory import RecentInteractions, SettingsCache
from bot.storage.models import NewCharacter
from tests.storage.conftest import SQLITE_ONLY

from .conftest import ALICE, GM, GUILD_A, GUILD_B, FakeClock, Interactions, health
from .test_round_trips import Trips


@pytest.fixture
def trips(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> Trips:
    return Trips(storage, monkeypatch)


# --- settings ---------------------------------------------------------------------------------


@SQLITE_ONLY
async def test_settings_are_read_once_per_server(storage: Storage, trips: Trips) -> None:
    assert await storage.settings(GUILD_A) == GuildSettings(GUILD_A)
    assert len(trips.take()) == 1
    assert await storage.settings(GUILD_A) == GuildSettings(GUILD_A)
    async with storage.read() as reader:  # a reader shares the cache
        assert await reader.get_settings(GUILD_A) == GuildSettings(GUILD_A)
    assert trips.take() == []
    assert await storage.settings(GUILD_B) == GuildSettings(GUILD_B)
    assert len(trips.take()) == 1


async def test_committed_settings_are_seen_at_once(storage: Storage) -> None:
    assert (await storage.settings(GUILD_A)).language is None  # now cached
    async with storage.transaction() as tx:
        await tx.update_settings(GUILD_A, language="es", gm_role_id=7)
    assert await storage.settings(GUILD_A) == GuildSettings(GUILD_A, 7, None, "es")
    async with storage.transaction() as tx:
        await tx.update_settings(GUILD_A, gm_role_id=None)
    assert await storage.settings(GUILD_A) == GuildSettings(GUILD_A, None, None, "es")


async def test_settings_rolled_back_never_reach_the_cache(storage: Storage) -> None:
    assert (await storage.settings(GUILD_A)).language is None
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            await tx.update_settings(GUILD_A, language="es")
            # The transaction sees its own write; the cache does not.
            assert (await tx.get_settings(GUILD_A)).language == "es"
            assert (await storage.settings(GUILD_A)).language is None
            raise RuntimeError("rolled back")
    assert (await storage.settings(GUILD_A)).language is None
    async with storage.read() as reader:
        assert (await reader.stored_settings(GUILD_A)).language is None


async def test_a_restart_reads_the_settings_again(db_path: Path, clock: FakeClock) -> None:
    async with await Storage.open(db_path, clock=clock) as first, first.transaction() as tx:
        await tx.update_settings(GUILD_A, channel_id=99)
    async with await Storage.open(db_path, clock=clock) as second:
        assert (await second.settings(GUILD_A)).channel_id == 99


def test_the_settings_cache_is_bounded_and_keeps_the_servers_in_use() -> None:
    cache = SettingsCache(2)
    for guild_id in (1, 2):
        cache.put(guild_id, GuildSettings(guild_id))
    assert cache.get(1) == GuildSettings(1)  # 1 used lately: 2 goes first
    cache.put(3, GuildSettings(3))
    assert len(cache) == 2
    assert (cache.get(1), cache.get(2), cache.get(3)) == (GuildSettings(1), None, GuildSettings(3))
    cache.forget(1)
    assert cache.get(1) is None


# --- interactions applied ---------------------------------------------------------------------


async def hurt(storage: Storage, character_id: int, interaction: int) -> None:
    async with storage.transaction() as tx:
        current = await tx.get_character(GUILD_A, character_id)
        assert current is not None
        lower = replace(current.health, health=current.health.health - 1)
        await tx.save_health(current, lower)
        await tx.record(guild_id=GUILD_A, interaction_id=interaction, actor_id=GM, command="h")


@SQLITE_ONLY
async def test_an_applied_interaction_is_known_without_a_query(
    storage: Storage, next_id: Interactions, trips: Trips
) -> None:
    async with storage.transaction() as tx:
        ann = await tx.create_character(NewCharacter(GUILD_A, "Ann", ALICE, health()))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    interaction = next_id()
    assert not storage.applied_recently(interaction)
    await hurt(storage, ann.id, interaction)
    trips.take()
    assert storage.applied_recently(interaction)
    assert trips.take() == []


async def test_a_rolled_back_interaction_is_not_applied(
    storage: Storage, next_id: Interactions
) -> None:
    async with storage.transaction() as tx:
        ann = await tx.create_character(NewCharacter(GUILD_A, "Ann", ALICE, health()))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    interaction = next_id()
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            await tx.save_health(ann, replace(ann.health, health=1))
            await tx.record(guild_id=GUILD_A, interaction_id=interaction, actor_id=GM, command="h")
            raise RuntimeError("rolled back")
    assert not storage.applied_recently(interaction)
    await hurt(storage, ann.id, interaction)  # so it can still be applied
    assert storage.applied_recently(interaction)


async def test_a_repeat_the_memory_missed_is_refused_by_the_history(
    db_path: Path, clock: FakeClock, next_id: Interactions
) -> None:
    """After a restart the memory is empty; the unique index still applies a change once."""
    interaction = next_id()
    async with await Storage.open(db_path, clock=clock) as first:
        async with first.transaction() as tx:
            ann = await tx.create_character(NewCharacter(GUILD_A, "Ann", ALICE, health()))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
        await hurt(first, ann.id, interaction)
    async with await Storage.open(db_path, clock=clock) as second:
        assert not second.applied_recently(interaction)
        with pytest.raises(AlreadyApplied):
            await hurt(second, ann.id, interaction)
        async with second.read() as reader:
            found = await reader.get_character(GUILD_A, ann.id)
        assert found is not None and found.health.health == ann.health.health - 1


def test_the_memory_of_interactions_is_bounded() -> None:
    recent = RecentInteractions(3)
    for interaction in range(5):
        recent.add(interaction)
    assert len(recent) == 3
    assert [i in recent for i in range(5)] == [False, False, True, True, True]
