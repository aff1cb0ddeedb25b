"""Each server numbers its own history (issue 20.6, migration 0011): ``#1`` is a server's first
change whatever the other servers did; the number is probed with ``BEGIN`` (no trip of its
own), and a file written before gets its servers' numbers in the order of their entries."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import Storage, StoredCharacter
from bot.storage.interface import HistoryQuery
from bot.storage.sqlite.database import apply_migrations, connect, load_migrations
from tests.storage.conftest import SQLITE_ONLY

from .conftest import BOB, GM, GUILD_A, GUILD_B, Interactions, create
from .test_round_trips import BEGIN, Trips

GUILD_C = 333_333_333_333_333_333


async def hurt(
    storage: Storage,
    next_id: Interactions,
    character: StoredCharacter,
    *,
    guild_id: int | None = None,
) -> int:
    """One point of damage, recorded; the entry's number. ``guild_id``: what the transaction
    is told (the bot tells its server)."""
    async with storage.transaction(guild_id=guild_id) as tx:
        current = await tx.get_character(character.guild_id, character.id)
        assert current is not None
        await tx.save_health(current, replace(current.health, health=current.health.health - 1))
        entry = await tx.record(
            guild_id=character.guild_id, interaction_id=next_id(), actor_id=GM, command="h"
        )
    assert entry is not None
    return entry.number


async def test_each_server_counts_from_one_and_the_reads_show_the_same_numbers(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await create(storage, next_id, "Ann", guild=GUILD_A)  # A #1
    bob = await create(storage, next_id, "Bob", BOB, guild=GUILD_B)  # B #1
    numbers = []
    for _ in range(3):
        numbers.append(await hurt(storage, next_id, ann, guild_id=GUILD_A))
        numbers.append(await hurt(storage, next_id, bob, guild_id=GUILD_B))
    assert numbers == [2, 2, 3, 3, 4, 4]
    async with storage.transaction(guild_id=GUILD_B) as tx:
        undone = await tx.undo_latest(GUILD_B, next_id(), GM)
    assert undone is not None
    assert (undone.undo_entry.number, undone.reverted.number) == (5, 4)
    assert undone.undo_entry.undo_of_number == 4
    assert undone.undo_entry.undo_of == undone.reverted.id != 4  # the key stays the id
    async with storage.read() as reader:
        a_entries = await reader.history(GUILD_A)
        b_entries = await reader.history(GUILD_B, HistoryQuery(bob.id))
        latest = await reader.latest_undoable(GUILD_B)
        by_id = await reader.get_history_entry(GUILD_B, undone.reverted.id)
    assert [e.number for e in a_entries] == [4, 3, 2, 1]
    assert [e.number for e in b_entries] == [5, 4, 3, 2, 1]
    assert b_entries[0].undo_of_number == 4 and b_entries[1].undo_of_number is None
    assert latest is not None and latest.number == 3
    assert by_id is not None and by_id.number == 4 and by_id.undone


@SQLITE_ONLY
async def test_a_transaction_that_does_not_say_its_server_numbers_right_with_one_more_trip(
    storage: Storage, next_id: Interactions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The number is probed with BEGIN for the server the transaction names; a transaction
    that names none (or another) sends its entry at once, its number taken in the INSERT."""
    ann = await create(storage, next_id, "Ann", guild=GUILD_A)
    await create(storage, next_id, "Bob", BOB, guild=GUILD_B)
    trips = Trips(storage, monkeypatch)
    assert await hurt(storage, next_id, ann, guild_id=GUILD_A) == 2
    probed = trips.take()
    assert await hurt(storage, next_id, ann) == 3
    unprobed = trips.take()
    assert await hurt(storage, next_id, ann, guild_id=GUILD_B) == 4
    elsewhere = trips.take()
    assert len(probed) == 2 and probed[0].startswith(BEGIN)
    assert len(unprobed) == len(elsewhere) == 3
    assert unprobed[1] == "UPDATE characters SET + INSERT INTO history"


async def test_two_connections_on_one_file_never_give_a_number_twice(
    db_path: Path, next_id: Interactions
) -> None:
    """Two processes (each some shards of one bot) on one database: each transaction learns
    its server's next number under SQLite's write lock."""
    async with (
        await Storage.open(db_path) as first,
        await Storage.open(db_path) as second,
    ):
        ann = await create(first, next_id, "Ann", guild=GUILD_A)
        bob = await create(second, next_id, "Bob", BOB, guild=GUILD_B)
        numbers = []
        for turn in range(8):
            storage = (first, second)[turn % 2]
            character = (ann, bob)[turn // 2 % 2]
            numbers.append(
                (
                    character.guild_id,
                    await hurt(storage, next_id, character, guild_id=character.guild_id),
                )
            )
        assert numbers == [
            (GUILD_A, 2),
            (GUILD_A, 3),
            (GUILD_B, 2),
            (GUILD_B, 3),
            (GUILD_A, 4),
            (GUILD_A, 5),
            (GUILD_B, 4),
            (GUILD_B, 5),
        ]


# --- migration 0011 ----------------------------------------------------------------------------


async def _version_10_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await connect(path)
    try:
        assert await apply_migrations(conn, load_migrations()[:10]) == 10
    finally:
        await conn.close()


def _entries(path: Path, rows: list[tuple[int, int]]) -> None:
    """History rows (id, guild) written as version 10 did, with no number."""
    with sqlite3.connect(path) as raw:
        raw.executemany(
            "INSERT INTO history (id, guild_id, interaction_id, actor_id, command, details,"
            " created_at) VALUES (?, ?, ?, ?, 'hurt', '{}', '2024-01-01T00:00:00+00:00')",
            [(entry_id, guild, 5_000 + entry_id, GM) for entry_id, guild in rows],
        )


def test_the_migration_is_sql_alone() -> None:
    """A migration must not depend on today's Python: no function registered by the bot."""
    (step,) = [m for m in load_migrations() if m.version == 11]
    assert step.name == "0011_history_numbers.sql"
    assert "salud_" not in step.sql


async def test_the_migration_numbers_each_servers_entries_in_order(
    db_path: Path, next_id: Interactions
) -> None:
    await _version_10_file(db_path)
    # Three servers interleaved, ids with gaps (entries deleted by hand), not in id order.
    rows = [(3, GUILD_B), (1, GUILD_A), (2, GUILD_A), (7, GUILD_C), (5, GUILD_B), (4, GUILD_A)]
    rows += [(12, GUILD_A), (9, GUILD_B), (81, GUILD_C), (83, GUILD_C), (93, GUILD_A)]
    _entries(db_path, rows)
    async with await Storage.open(db_path) as storage:
        with sqlite3.connect(db_path) as raw:
            numbered = raw.execute(
                "SELECT guild_id, id, number FROM history ORDER BY guild_id, id"
            ).fetchall()
        assert numbered == [
            (GUILD_A, 1, 1),
            (GUILD_A, 2, 2),
            (GUILD_A, 4, 3),
            (GUILD_A, 12, 4),
            (GUILD_A, 93, 5),
            (GUILD_B, 3, 1),
            (GUILD_B, 5, 2),
            (GUILD_B, 9, 3),
            (GUILD_C, 7, 1),
            (GUILD_C, 81, 2),
            (GUILD_C, 83, 3),
        ]
        # The next change of each server carries on from its last number; ids stay global.
        ann = await create(storage, next_id, "Ann", guild=GUILD_A)
        cid = await create(storage, next_id, "Cid", guild=GUILD_C)
        async with storage.read() as reader:
            (a_latest,) = await reader.history(GUILD_A, HistoryQuery(ann.id))
            (c_latest,) = await reader.history(GUILD_C, HistoryQuery(cid.id))
        assert (a_latest.id, a_latest.number) == (94, 6)
        assert (c_latest.id, c_latest.number) == (95, 4)
    with sqlite3.connect(db_path) as raw, pytest.raises(sqlite3.IntegrityError):
        raw.execute(
            "INSERT INTO history (guild_id, number, interaction_id, actor_id, command, details,"
            " created_at) VALUES (?, 3, 1, 1, 'x', '{}', '')",
            (GUILD_B,),
        )


async def test_an_empty_history_migrates_and_starts_at_one(
    db_path: Path, next_id: Interactions
) -> None:
    await _version_10_file(db_path)
    async with await Storage.open(db_path) as storage:
        ann = await create(storage, next_id, "Ann", guild=GUILD_A)
        assert await hurt(storage, next_id, ann, guild_id=GUILD_A) == 2
