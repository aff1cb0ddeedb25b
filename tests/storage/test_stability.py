"""Stability in storage (migration 0010; RULES.md M, M13): stored with the character, in the
history's snapshots only for a character that has it, restored by ``/undo`` value by value;
older databases upgrade with no character given Stability."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

from bot.storage import Storage
from bot.storage.interface import HistoryQuery
from bot.storage.models import NewCharacter
from bot.storage.snapshot import character_from_snapshot
from bot.storage.sqlite.database import apply_migrations, connect, load_migrations
from rules.stability import CharacterStability, DueTest

from .conftest import ALICE, GM, GUILD_A, SQLITE_ONLY, Interactions, create, general, health

#: Every Stability value set away from its default, so that a lost one shows.
FULL = CharacterStability(
    pool=-7,
    rating=7,
    mental_illness=True,
    lucid=True,
    scene_worst_loss=6,
    scene_lost=4,
    due_test=DueTest(loss=5, difficulty=3),
)


def stored_snapshots(db_path: Path) -> list[tuple[str | None, str | None]]:
    with sqlite3.connect(db_path) as conn:
        return conn.execute(
            "SELECT before, after FROM history_characters ORDER BY history_id"
        ).fetchall()


async def test_stability_is_created_saved_read_and_undone_value_by_value(
    storage: Storage, next_id: Interactions
) -> None:
    async with storage.transaction() as tx:
        ann = await tx.create_character(
            NewCharacter(GUILD_A, "Ann", ALICE, health(), stability=CharacterStability.new(8))
        )
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="c")
    assert ann.stability == CharacterStability(pool=8, rating=8)

    async with storage.transaction() as tx:
        saved = await tx.save_stability(ann, FULL)
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="s"
        )
    assert saved.stability == FULL
    assert entry is not None
    (touched,) = entry.characters
    assert touched.before is not None and touched.before.stability == ann.stability
    assert touched.after is not None and touched.after.stability == FULL
    async with storage.read() as reader:
        again = await reader.get_character(GUILD_A, ann.id)
        (listed,) = await reader.list_characters(GUILD_A)
        (history,) = await reader.history(GUILD_A, HistoryQuery(ann.id, limit=1))
    assert again is not None and again.stability == FULL
    assert listed.stability == FULL
    assert history.characters[0].after is not None
    assert history.characters[0].after.stability == FULL

    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert result is not None and result.restored[0].stability == CharacterStability(8, 8)
    async with storage.read() as reader:
        back = await reader.get_character(GUILD_A, ann.id)
    assert back is not None and back.stability == CharacterStability(pool=8, rating=8)


@SQLITE_ONLY
async def test_stability_given_and_taken_away_is_undone(
    storage: Storage, next_id: Interactions, db_path: Path
) -> None:
    bob = await create(storage, next_id, "Bob")
    assert bob.stability is None
    async with storage.transaction() as tx:
        given = await tx.save_stability(bob, FULL)
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="set")
    async with storage.transaction() as tx:
        await tx.save_stability(given, None)
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="set")
    with sqlite3.connect(db_path) as conn:
        row = conn.execute(
            "SELECT stability_rating, stability_pool, mental_illness, lucid, scene_worst_loss,"
            " scene_lost, due_loss, due_difficulty FROM characters WHERE id = ?",
            (bob.id,),
        ).fetchone()
    assert row == (None, None, 0, 0, 0, 0, None, None), "no Stability: every default"

    async with storage.transaction() as tx:
        removal = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert removal is not None and removal.restored[0].stability == FULL
    async with storage.transaction() as tx:
        addition = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert addition is not None and addition.restored[0].stability is None
    async with storage.read() as reader:
        again = await reader.get_character(GUILD_A, bob.id)
    assert again is not None and again.stability is None


@SQLITE_ONLY
async def test_a_character_without_stability_keeps_its_snapshot_as_it_was(
    storage: Storage, next_id: Interactions, db_path: Path
) -> None:
    """M1: Stability costs a character without it nothing, not even a key in its history."""
    bob = await create(storage, next_id, "Bob")
    async with storage.transaction() as tx:
        await tx.save_health(bob, replace(bob.health, health=4))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="hurt")
    for before, after in stored_snapshots(db_path):
        for text in (before, after):
            assert text is None or "stability" not in json.loads(text)
            assert text is None or "lucid" not in text


async def test_the_name_index_knows_who_has_stability(
    storage: Storage, next_id: Interactions
) -> None:
    bob = await create(storage, next_id, "Bob")
    assert not (await storage.names(GUILD_A)).characters[0].has_stability
    async with storage.transaction() as tx:
        await tx.save_stability(bob, CharacterStability.new(5))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="set")
    assert (await storage.names(GUILD_A)).characters[0].has_stability
    async with storage.transaction() as tx:
        await tx.undo_latest(GUILD_A, next_id(), GM)
    assert not (await storage.names(GUILD_A)).characters[0].has_stability


async def test_several_characters_are_saved_in_one_statement(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await create(storage, next_id, "Ann")
    bob = await create(storage, next_id, "Bob")
    async with storage.transaction() as tx:
        saved = await tx.save_stabilities(
            [(ann, CharacterStability.new(4)), (bob, CharacterStability.new(6))]
        )
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="s"
        )
    assert [c.stability for c in saved] == [CharacterStability(4, 4), CharacterStability(6, 6)]
    assert entry is not None and len(entry.characters) == 2


async def test_an_older_database_upgrades_with_no_character_given_stability(
    tmp_path: Path, next_id: Interactions
) -> None:
    """A file at schema 8 (before Stability) with a character whose table kept Stability as
    an ordinary ability: the upgrade gives nobody Stability and leaves that ability alone;
    its history (snapshots without Stability) still reads and undoes."""
    path = tmp_path / "old.sqlite3"
    conn = await connect(path)
    try:
        await apply_migrations(conn, load_migrations()[:8])
    finally:
        await conn.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 8
        columns = [row[1] for row in raw.execute("PRAGMA table_info(characters)")]
        assert "stability_rating" not in columns

    # Written as the schema-8 bot wrote them: a character, its "Stability" ability, an entry.
    snapshot = {
        "v": 1,
        "id": 1,
        "guild_id": GUILD_A,
        "name": "Ann",
        "owner_id": ALICE,
        "created_at": "2026-01-01T00:00:00.000000+00:00",
        "gender": None,
        "health": {
            "health": 10,
            "max_health": 10,
            "first_aid_pool": 3,
            "first_aid_rating": 3,
            "scene_start_health": 10,
            "conscious": 1,
            "roll_pending": 0,
            "stabilized": 0,
            "hospital_length_days": None,
            "hospital_days_served": None,
            "lowest_health": None,
            "first_aid_received": 0,
            "bleed_minutes": 0,
            "full_recovery_due": 0,
        },
        "abilities": [{"name": "Stability", "kind": "general", "rating": 9, "pool": 6}],
    }
    with sqlite3.connect(path) as raw:
        raw.execute(
            "INSERT INTO characters (id, guild_id, name, name_key, look_key, typed_look_key,"
            " owner_id, health, max_health, first_aid_pool, first_aid_rating,"
            " scene_start_health, conscious, roll_pending, stabilized, first_aid_received,"
            " bleed_minutes, full_recovery_due, created_at) VALUES (1, ?, 'Ann', 'ann', 'ann',"
            " 'ann', ?, 10, 10, 3, 3, 10, 1, 0, 0, 0, 0, 0, ?)",
            (GUILD_A, ALICE, snapshot["created_at"]),
        )
        raw.execute("INSERT INTO abilities VALUES (1, 'Stability', 'stability', 'general', 9, 6)")
        raw.execute(
            "INSERT INTO history (id, guild_id, interaction_id, actor_id, command, details,"
            " created_at) VALUES (1, ?, 1, ?, 'character create', '{}', ?)",
            (GUILD_A, ALICE, snapshot["created_at"]),
        )
        raw.execute(
            "INSERT INTO history_characters VALUES (1, 1, 'Ann', NULL, ?)",
            (json.dumps(snapshot),),
        )

    storage = await Storage.open(path)
    try:
        async with storage.read() as reader:
            ann = await reader.get_character(GUILD_A, 1)
            (entry,) = await reader.history(GUILD_A)
        assert ann is not None and ann.stability is None
        assert [(a.name, a.rating, a.pool) for a in ann.abilities] == [("Stability", 9, 6)]
        assert entry.characters[0].after is not None
        assert entry.characters[0].after.stability is None
        assert not (await storage.names(GUILD_A)).characters[0].has_stability
        with sqlite3.connect(path) as raw:
            assert raw.execute(
                "SELECT count(*) FROM characters WHERE stability_rating IS NOT NULL"
            ).fetchone() == (0,)
        # A later change of Ann still records snapshots without Stability.
        async with storage.transaction() as tx:
            await tx.set_ability(ann, general("Athletics", 2))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="a")
        async with storage.transaction() as tx:
            undone = await tx.undo_latest(GUILD_A, next_id(), GM)
        assert undone is not None and undone.restored[0].stability is None
    finally:
        await storage.close()


def test_a_snapshot_from_before_stability_has_none() -> None:
    old = {
        "v": 1,
        "id": 7,
        "guild_id": GUILD_A,
        "name": "Ann",
        "owner_id": ALICE,
        "created_at": "2026-01-01T00:00:00+00:00",
        "health": {
            "health": 5,
            "max_health": 10,
            "first_aid_pool": 3,
            "first_aid_rating": 3,
            "scene_start_health": 10,
            "conscious": 1,
            "roll_pending": 0,
            "stabilized": 0,
            "hospital_length_days": None,
            "hospital_days_served": None,
            "lowest_health": None,
            "first_aid_received": 0,
            "bleed_minutes": 0,
            "full_recovery_due": 0,
        },
        "abilities": [],
    }
    assert character_from_snapshot(old).stability is None
