"""Tables (issue 27, migration 0014): an upgraded file gives every server its main table,
whose id is the server's, holding all of today's data with its numbers; tables and places
read back into memory at start; a character moved between tables, its undo, and the
1,000-character limit counted over the whole server. Those last two on both engines (the
migration's tests are about SQLite's file)."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.storage import Storage
from bot.storage.sqlite.database import apply_migrations, connect, load_migrations
from bot.storage.tables import GameTable

from .conftest import GM, GUILD_A, GUILD_B, Interactions, count_rows, create

#: Opens the test's database again, on the test's engine (``conftest.reopen``).
Reopen = Callable[[], Awaitable[Storage]]

OTHER_TABLE = 1_577_000_000_000_000_001


async def _version_13_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await connect(path)
    try:
        assert await apply_migrations(conn, load_migrations()[:13]) == 13
    finally:
        await conn.close()


def test_the_migration_is_sql_alone() -> None:
    (step,) = [m for m in load_migrations() if m.version == 14]
    assert step.name == "0014_tables.sql"
    assert "salud_" not in step.sql


async def test_an_upgraded_file_gives_every_server_its_main_table_numbers_unchanged(
    db_path: Path,
) -> None:
    await _version_13_file(db_path)
    with sqlite3.connect(db_path) as raw:
        raw.executemany(
            "INSERT INTO history (id, guild_id, interaction_id, actor_id, command, details,"
            " created_at, number) VALUES (?, ?, ?, ?, 'hurt', '{}', '2024-01-01T00:00:00', ?)",
            [(1, GUILD_A, 5001, GM, 1), (2, GUILD_B, 5002, GM, 1), (3, GUILD_A, 5003, GM, 2)],
        )
        raw.execute(
            "INSERT INTO guild_settings (guild_id, language, updated_at) VALUES (?, 'es', 'x')",
            (GUILD_B,),
        )
    async with await Storage.open(db_path) as storage:
        with sqlite3.connect(db_path) as raw:
            tables = raw.execute(
                "SELECT id, guild_id, name FROM game_tables ORDER BY id"
            ).fetchall()
            numbers = raw.execute("SELECT id, guild_id, number FROM history ORDER BY id").fetchall()
        assert tables == sorted([(GUILD_A, GUILD_A, None), (GUILD_B, GUILD_B, None)])
        assert numbers == [(1, GUILD_A, 1), (2, GUILD_B, 1), (3, GUILD_A, 2)]
        assert storage.tables.tables(GUILD_A) == [GameTable(GUILD_A, GUILD_A)]
        assert not storage.tables.several(GUILD_A)
        async with storage.read() as reader:
            assert [e.number for e in await reader.history(GUILD_A)] == [2, 1]


async def test_tables_and_places_come_back_at_start_and_resolve_innermost_first(
    reopen: Reopen,
) -> None:
    table = GameTable(OTHER_TABLE, GUILD_A, "Miskatonic", gm_role_id=77)
    category, channel, thread = 901, 902, 903
    async with (
        await reopen() as storage,
        storage.transaction(require_record=False) as tx,
    ):
        tx.tables.insert(table)
        tx.tables.bind(table, category)
    async with await reopen() as storage:
        tables = storage.tables
        assert tables.tables(GUILD_A) == [GameTable(GUILD_A, GUILD_A), table]
        assert tables.several(GUILD_A) and not tables.several(GUILD_B)
        tables.learn_parent(channel, category)
        tables.learn_parent(thread, channel)
        # A thread whose interaction names only its channel: the category from the gateway.
        assert tables.table_for(GUILD_A, tables.places_from(thread, channel)) == table
        assert tables.table_for(GUILD_A, tables.places_from(channel, category)) == table
        assert tables.table_for(GUILD_A, tables.places_from(555, None)).is_main
        # Another server never reaches this table through a place id.
        assert tables.table_for(GUILD_B, tables.places_from(channel, category)).is_main


async def test_a_moved_character_plays_at_its_new_table_and_undo_brings_it_back(
    reopen: Reopen, next_id: Interactions
) -> None:
    table = GameTable(OTHER_TABLE, GUILD_A, "Miskatonic")
    async with await reopen() as storage:
        async with storage.transaction(require_record=False) as tx:
            tx.tables.insert(table)
        amelia = await create(storage, next_id, "Amelia", guild=GUILD_A)
        async with storage.transaction(guild_id=GUILD_A) as tx:
            current = await tx.get_character(GUILD_A, amelia.id)
            assert current is not None
            moved = await tx.tables.move_character(current, OTHER_TABLE)
            entry = await tx.record(
                guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="character move"
            )
        assert entry is not None and entry.number == 2 and moved.guild_id == OTHER_TABLE
        assert [c.name for c in (await storage.names(OTHER_TABLE)).characters] == ["Amelia"]
        assert (await storage.names(GUILD_A)).characters == ()
        async with storage.transaction(guild_id=GUILD_A) as tx:
            undone = await tx.undo_latest(GUILD_A, next_id(), GM)
        assert undone is not None and undone.reverted.id == entry.id
        assert [c.name for c in (await storage.names(GUILD_A)).characters] == ["Amelia"]
        assert (await storage.names(OTHER_TABLE)).characters == ()
        # The 1,000-character limit is the server's: counted over both tables.
        counted = await count_rows(
            storage, "characters", "guild_id IN (?, ?)", (GUILD_A, OTHER_TABLE)
        )
        assert counted == 1
