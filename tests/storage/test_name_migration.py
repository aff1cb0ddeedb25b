"""Migrations 0003 and 0008 (names): a file whose names collide under the new rule keeps them
all, each reachable by its exact name; their look keys are filled in; new names are checked."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage import Storage
from bot.storage.key_versions import look_key_v1
from bot.storage.models import NewCharacter
from bot.storage.names import look_key, typed_look_key
from bot.storage.sqlite.database import apply_migrations, connect, latest_version, load_migrations
from tests.storage.conftest import ALICE, GUILD_A, GUILD_B, health, named

COLLIDING = ["Ana", "ＡＮＡ", "\u0410na", "Ana Bel", "Ana  Bel", "Bruno"]


async def _version_1_file(path: Path) -> None:
    conn = await connect(path)
    try:
        assert await apply_migrations(conn, load_migrations()[:1]) == 1
    finally:
        await conn.close()
    with sqlite3.connect(path) as raw:
        raw.executemany(
            "INSERT INTO characters (guild_id, name, name_key, owner_id, created_at, health,"
            " max_health, first_aid_pool, first_aid_rating, scene_start_health, conscious,"
            " roll_pending, stabilized, hospital_length_days, hospital_days_served,"
            " lowest_health, first_aid_received, bleed_minutes, full_recovery_due)"
            " VALUES (?, ?, ?, ?, '2024-01-01T00:00:00+00:00', 9, 9, 0, 0, 9, 1, 0, 0,"
            " NULL, NULL, NULL, 0, 0, 0)",
            [(GUILD_A, name, name.casefold(), ALICE) for name in COLLIDING],
        )


async def test_colliding_names_are_all_kept_and_reachable_by_exact_name(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    await _version_1_file(db_path)
    async with await Storage.open(db_path) as storage:
        for name in COLLIDING:
            found = await named(storage, GUILD_A, name)
            assert found is not None and found.name == name
        async with storage.read() as reader:
            entries = (await reader.server_names(GUILD_A)).characters
            assert sorted(entry.name for entry in entries) == sorted(COLLIDING)
            assert (await reader.server_names(GUILD_B)).characters == ()
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        rows = dict(raw.execute("SELECT name, look_key FROM characters").fetchall())
    assert rows == {name: look_key(name) for name in COLLIDING}
    assert rows["Ana"] == rows["ＡＮＡ"] == rows["\u0410na"] != rows["Bruno"]
    assert rows["Ana Bel"] == rows["Ana  Bel"]


async def test_a_lookalike_is_found_in_the_same_guild_only(storage: Storage) -> None:
    async with storage.transaction() as tx:
        ana = await tx.create_character(NewCharacter(GUILD_A, "Ana", ALICE, health()))
        await tx.record(guild_id=GUILD_A, interaction_id=1, actor_id=ALICE, command="create")
    async with storage.read() as reader:
        for name in ("ＡＮＡ", "\u0410na", "ána", "ANA"):
            found = await reader.find_lookalike(GUILD_A, name)
            assert found is not None and found.id == ana.id, name
        assert await reader.find_lookalike(GUILD_A, "Ana", other_than=ana.id) is None
        assert await reader.find_lookalike(GUILD_B, "Ana") is None
        assert await reader.find_lookalike(GUILD_A, "Anabel") is None


async def test_rename_is_recorded_and_undone(storage: Storage) -> None:
    async with storage.transaction() as tx:
        ana = await tx.create_character(NewCharacter(GUILD_A, "Ana", ALICE, health()))
        await tx.record(guild_id=GUILD_A, interaction_id=1, actor_id=ALICE, command="create")
    async with storage.transaction() as tx:
        renamed = await tx.rename_character(ana, "Anabel")
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=2, actor_id=ALICE, command="character rename"
        )
    assert renamed.name == "Anabel" and entry is not None
    assert [(c.before and c.before.name, c.after and c.after.name) for c in entry.characters] == [
        ("Ana", "Anabel")
    ]
    assert await named(storage, GUILD_A, "Ana") is None
    async with storage.read() as reader:
        assert await reader.find_lookalike(GUILD_A, "ANABEL") is not None
    async with storage.transaction() as tx:
        undone = await tx.undo_latest(GUILD_A, 3, ALICE)
    assert undone is not None and [c.name for c in undone.restored] == ["Ana"]
    found = await named(storage, GUILD_A, "ana")
    assert found is not None and found.id == ana.id
    async with storage.read() as reader:
        assert await reader.find_lookalike(GUILD_A, "ANABEL") is None
        assert await reader.find_lookalike(GUILD_A, "ＡＮＡ") is not None


#: Names a version-6 file may hold side by side that collide under migration 0008's keys.
BEFORE_0008 = {
    "Bob": "Bob",
    "\u0412ob": "Bob",  # a Cyrillic capital: a lookalike as typed
    "Patrick O'Malley": "Patrick O'Malley",
    "Patrick O\u2019Malley": "Patrick O'Malley",  # a phone's apostrophe: the same name
    "Pia": "Pia",
    "Pia\u3164": "Pia",  # a filler: the same name to see
    "Nora": None,
}


async def _version_6_file(path: Path) -> None:
    """A file as Salud left it before migration 0008 (look keys of version 1, computed
    then, no typed look key)."""
    conn = await connect(path)
    try:
        assert await apply_migrations(conn, load_migrations()[:6]) == 6
    finally:
        await conn.close()
    with sqlite3.connect(path) as raw:
        raw.executemany(
            "INSERT INTO characters (guild_id, name, name_key, look_key, owner_id, created_at,"
            " health, max_health, first_aid_pool, first_aid_rating, scene_start_health,"
            " conscious, roll_pending, stabilized, hospital_length_days, hospital_days_served,"
            " lowest_health, first_aid_received, bleed_minutes, full_recovery_due)"
            " VALUES (?, ?, ?, ?, ?, '2024-01-01T00:00:00+00:00', 9, 9, 0, 0, 9, 1, 0, 0,"
            " NULL, NULL, NULL, 0, 0, 0)",
            [(GUILD_A, name, name.casefold(), look_key_v1(name), ALICE) for name in BEFORE_0008],
        )
    raw.close()


async def test_migration_0008_fills_both_keys_and_keeps_names_that_now_collide(
    db_path: Path,
) -> None:
    db_path.parent.mkdir(parents=True)
    await _version_6_file(db_path)
    async with await Storage.open(db_path) as storage:
        for name in BEFORE_0008:  # each still reachable by its exact name
            found = await named(storage, GUILD_A, name)
            assert found is not None and found.name == name
        async with storage.read() as reader:
            marked = await reader.lookalike_ids(GUILD_A)
            listed = {c.id: c.name for c in await reader.list_characters(GUILD_A)}
            for name, other in BEFORE_0008.items():  # a new one is refused, naming the first
                clash = await reader.find_lookalike(GUILD_A, name)
                assert clash is not None and clash.name == (other or name), name
    assert sorted(listed[i] for i in marked) == sorted(n for n, o in BEFORE_0008.items() if o)
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        rows = raw.execute("SELECT name, look_key, typed_look_key FROM characters").fetchall()
    raw.close()
    assert {name: (look, typed) for name, look, typed in rows} == {
        name: (look_key(name), typed_look_key(name)) for name in BEFORE_0008
    }
