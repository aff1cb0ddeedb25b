"""A character's optional gender (schema 2): stored with it, in its history snapshots, undone
like any correction, and read as none from snapshots written before the column existed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.models import NewCharacter
from bot.storage.snapshot import character_from_snapshot
from rules.character import Gender
from tests.storage.conftest import SQLITE_ONLY

from .conftest import ALICE, GM, GUILD_A, Interactions, health


@SQLITE_ONLY
async def test_gender_is_stored_corrected_recorded_and_undone(
    storage: Storage, next_id: Interactions, db_path: Path
) -> None:
    async with storage.transaction() as tx:
        ann = await tx.create_character(
            NewCharacter(GUILD_A, "Ann", ALICE, health(), gender=Gender.FEMININE)
        )
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="c")
    assert ann.gender is Gender.FEMININE
    async with storage.read() as reader:
        again = await reader.get_character(GUILD_A, ann.id)
    assert again is not None and again.gender is Gender.FEMININE

    async with storage.transaction() as tx:
        unchanged = await tx.set_gender(ann, Gender.FEMININE)
        same = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="character set"
        )
    assert same is None, "the same gender is no change: nothing recorded"
    async with storage.transaction() as tx:
        cleared = await tx.set_gender(unchanged, None)
        assert cleared.gender is None
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="character set"
        )
    assert entry is not None
    (touched,) = entry.characters
    assert touched.before is not None and touched.before.gender is Gender.FEMININE
    assert touched.after is not None and touched.after.gender is None
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT gender FROM characters").fetchone() == (None,)

    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert result is not None and result.restored[0].gender is Gender.FEMININE
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT gender FROM characters").fetchone() == ("feminine",)


def test_a_snapshot_from_before_the_gender_column_has_none() -> None:
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
    assert character_from_snapshot(old).gender is None


@SQLITE_ONLY
async def test_the_column_refuses_other_values(storage: Storage, db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        assert version >= 2
        columns = [row[1] for row in conn.execute("PRAGMA table_info(characters)")]
        assert "gender" in columns
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            conn.execute(
                "INSERT INTO characters (guild_id, name, name_key, owner_id, health, max_health,"
                " first_aid_pool, first_aid_rating, scene_start_health, conscious, roll_pending,"
                " stabilized, first_aid_received, bleed_minutes, full_recovery_due, created_at,"
                " gender) VALUES (1, 'X', 'x', 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 'now', 'neuter')"
            )
