"""A newer Salud migrated the file under this process (issue 24 point 12): the next
transaction finds it in the probe it sends with ``BEGIN IMMEDIATE`` (no trip of its own),
stores nothing, and the storage tells its listener once and refuses everything after."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.i18n import Language, text
from bot.interaction.tree import error_message
from bot.storage import SchemaMovedOn, Storage, StorageClosed
from bot.storage.sqlite.database import latest_version

from .conftest import ALICE, GUILD_A, Interactions, create, health


def migrate_past(path: Path, version: int) -> None:
    """Another process's migration: a schema step and its version, in one transaction."""
    conn = sqlite3.connect(path, timeout=5, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ALTER TABLE characters ADD COLUMN newer_salud TEXT")
        conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("COMMIT")
    finally:
        conn.close()


def history_rows(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM history").fetchone()[0])


async def test_a_transaction_after_a_newer_migration_stores_nothing(
    storage: Storage, db_path: Path, next_id: Interactions
) -> None:
    told: list[SchemaMovedOn] = []
    storage.on_schema_moved_on(told.append)
    ana = await create(storage, next_id, "Ana")
    newer = latest_version() + 1
    migrate_past(db_path, newer)

    with pytest.raises(SchemaMovedOn) as raised:
        async with storage.transaction(guild_id=GUILD_A) as tx:
            current = await tx.character(ana)
            await tx.save_health(current, health(5))
            await tx.record(
                guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="hurt"
            )
    assert (raised.value.found, raised.value.known) == (newer, newer - 1)
    assert history_rows(db_path) == 1, "the change was stored"
    assert [(error.found, error.known) for error in told] == [(newer, newer - 1)]

    # From then on every transaction and read is refused at once, and told no more.
    with pytest.raises(SchemaMovedOn):
        async with storage.transaction(guild_id=GUILD_A):
            pass
    with pytest.raises(SchemaMovedOn):
        async with storage.read():
            pass
    assert len(told) == 1
    assert isinstance(raised.value, StorageClosed)  # answered as a restart


async def test_the_probe_is_the_only_trip_before_the_refusal(
    storage: Storage, db_path: Path, next_id: Interactions
) -> None:
    """A creation whose INSERT goes with ``BEGIN``'s trip: the check stops it there."""
    migrate_past(db_path, latest_version() + 1)
    with pytest.raises(SchemaMovedOn):
        await create(storage, next_id, "Bea")
    assert history_rows(db_path) == 0
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM characters").fetchone()[0] == 0


@pytest.mark.parametrize("language", list(Language))
def test_the_player_reads_the_restarting_sentence(language: Language) -> None:
    message = error_message(language, SchemaMovedOn(12, 11))
    assert message == text(language, "lifecycle.restarting")


@pytest.fixture
def engine() -> str:
    """SQLite's own behaviour (its file, connection or trips): SQLite only."""
    return "sqlite"
