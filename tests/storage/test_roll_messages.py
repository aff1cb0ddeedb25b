"""Roll numbers and the messages that carry roll buttons (migration 0003), on real files."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

from bot.features.rolls.keeper import _disabled_components
from bot.storage import Storage
from bot.storage.models import NewCharacter
from bot.storage.roll_messages import (
    MESSAGES_PER_CHARACTER,
    RollKind,
    RollMessage,
    forget_roll_messages,
    number_rolls,
    remember_roll_messages,
    renumber_rolls,
    roll_number,
    stale_roll_messages,
)
from bot.storage.sqlite.database import apply_migrations, connect, load_migrations
from rules.stability import CharacterStability, DueTest
from tests.storage.conftest import ALICE, GUILD_A, GUILD_B, health


async def _character(
    storage: Storage, name: str, guild: int = GUILD_A, interaction: int = 1
) -> int:
    async with storage.transaction() as tx:
        created = await tx.create_character(NewCharacter(guild, name, ALICE, health()))
        await tx.record(guild_id=guild, interaction_id=interaction, actor_id=ALICE, command="c")
    return created.id


async def test_a_roll_falling_due_gets_the_next_number_in_its_guild_only(storage: Storage) -> None:
    ana = await _character(storage, "Ana")
    bea = await _character(storage, "Bea", GUILD_B, 2)
    async with storage.transaction(require_record=False) as tx:
        assert await number_rolls(tx, GUILD_A, [ana], []) == {ana: 1}
        assert await number_rolls(tx, GUILD_A, [ana, bea], [ana]) == {ana: 2}  # not Bea: B's
        # One counter for the whole file: Bea's number is past every number given before.
        (bea_roll,) = (await number_rolls(tx, GUILD_B, [bea], [])).values()
        assert bea_roll > 2
    async with storage.read() as reader:
        assert await roll_number(reader, GUILD_A, ana) == 2
        assert await roll_number(reader, GUILD_A, bea) is None
        assert await roll_number(reader, GUILD_B, bea) == bea_roll


async def test_a_number_is_never_given_twice_not_even_after_a_deletion_undone(
    storage: Storage,
) -> None:
    ana = await _character(storage, "Ana")
    async with storage.transaction(require_record=False) as tx:
        assert await number_rolls(tx, GUILD_A, [ana], []) == {ana: 1}
    async with storage.transaction() as tx:
        await tx.delete_character(GUILD_A, ana)
        await tx.record(guild_id=GUILD_A, interaction_id=5, actor_id=ALICE, command="delete")
    async with storage.transaction() as tx:
        assert await tx.undo_latest(GUILD_A, 6, ALICE) is not None
        await renumber_rolls(tx, GUILD_A, [ana])
    async with storage.read() as reader:
        assert await roll_number(reader, GUILD_A, ana) == 2


async def test_stale_messages_follow_the_pending_roll_and_are_bounded(storage: Storage) -> None:
    ana = await _character(storage, "Ana")
    async with storage.transaction(require_record=False) as tx:
        await number_rolls(tx, GUILD_A, [ana], [])
        await remember_roll_messages(
            tx,
            [RollMessage(GUILD_A, ana, 1, 10, 100 + n) for n in range(MESSAGES_PER_CHARACTER + 2)],
        )
    async with storage.read() as reader:
        # Nothing pending: every kept message is stale; only the newest five are kept.
        stale = await stale_roll_messages(reader, GUILD_A, [ana])
        assert [m.message_id for m in stale] == [102, 103, 104, 105, 106]
        assert await stale_roll_messages(reader, GUILD_B, [ana]) == []
    async with storage.transaction() as tx:
        current = await tx.get_character(GUILD_A, ana)
        assert current is not None
        pending = replace(current.health, health=-1, roll_pending=True)
        await tx.save_health(current, pending)
        await tx.record(guild_id=GUILD_A, interaction_id=3, actor_id=ALICE, command="hurt")
    async with storage.read() as reader:
        assert await stale_roll_messages(reader, GUILD_A, [ana]) == []  # roll 1 pending
    async with storage.transaction(require_record=False) as tx:
        await number_rolls(tx, GUILD_A, [ana], [])  # a later roll: 2
    async with storage.read() as reader:
        stale = await stale_roll_messages(reader, GUILD_A, [ana])
    assert len(stale) == 5
    async with storage.transaction(require_record=False) as tx:
        await forget_roll_messages(tx, stale[:4])
    async with storage.read() as reader:
        assert [m.message_id for m in await stale_roll_messages(reader, GUILD_A, [ana])] == [106]


def test_only_the_stale_rolls_buttons_are_disabled() -> None:
    components = [
        {
            "type": 1,
            "components": [
                {"type": 2, "custom_id": "salud:cons:7:0:2"},
                {"type": 2, "custom_id": "salud:cons:7:1:2"},
            ],
        },
        {"type": 1, "components": [{"type": 2, "custom_id": "salud:cons:8:0:5"}]},
        {"type": 1, "components": [{"type": 2, "custom_id": "salud:cons:7:0"}]},
    ]
    edited, changed = _disabled_components(components, {(7, 2)})
    assert changed
    flags = [[bool(i.get("disabled")) for i in row["components"]] for row in edited]
    assert flags == [[True, True], [False], [True]]
    assert _disabled_components(components, {(8, 4)})[1] is False


async def test_stability_tests_are_numbered_and_kept_apart_from_consciousness_rolls(
    storage: Storage,
) -> None:
    """The Stability test's buttons (migration 0010) share the counter, not the column nor
    the table: a message stays live while its test is due with its number, and is stale once
    the test is rolled or cleared, or a later one replaces it."""
    ana = await _character(storage, "Ana")
    async with storage.transaction() as tx:
        current = await tx.get_character(GUILD_A, ana)
        assert current is not None
        called = CharacterStability(pool=5, rating=5, due_test=DueTest(loss=4, difficulty=4))
        await tx.save_stability(current, called)
        await tx.record(guild_id=GUILD_A, interaction_id=9, actor_id=ALICE, command="test")
    test = RollKind.STABILITY_TEST
    async with storage.transaction(require_record=False) as tx:
        assert await number_rolls(tx, GUILD_A, [ana], []) == {ana: 1}  # Consciousness
        assert await number_rolls(tx, GUILD_A, [ana], [], kind=test) == {ana: 2}
        await remember_roll_messages(
            tx,
            [
                RollMessage(GUILD_A, ana, 1, 10, 300),
                RollMessage(GUILD_A, ana, 2, 10, 301, test),
                RollMessage(GUILD_A, ana, 1, 10, 302, test),  # an older test's
            ],
        )
    async with storage.read() as reader:
        assert await roll_number(reader, GUILD_A, ana) == 1
        assert await roll_number(reader, GUILD_A, ana, kind=test) == 2
        stale = await stale_roll_messages(reader, GUILD_A, [ana])
    # No Consciousness roll pending: 300 is stale; the test numbered 1 was replaced by 2.
    assert [(m.message_id, m.kind) for m in stale] == [
        (300, RollKind.CONSCIOUSNESS),
        (302, test),
    ]
    async with storage.transaction() as tx:
        current = await tx.get_character(GUILD_A, ana)
        assert current is not None and current.stability is not None
        await tx.save_stability(current, replace(current.stability, due_test=None))
        await tx.record(guild_id=GUILD_A, interaction_id=10, actor_id=ALICE, command="roll")
    async with storage.transaction(require_record=False) as tx:
        stale = await stale_roll_messages(tx, GUILD_A, [ana])
        assert [m.message_id for m in stale] == [300, 301, 302]
        await forget_roll_messages(tx, stale)
    async with storage.read() as reader:
        assert await stale_roll_messages(reader, GUILD_A, [ana]) == []


async def test_the_messages_of_both_kinds_move_into_one_table_and_keep_working(
    tmp_path: Path,
) -> None:
    """Migration 0012 (issue 26): a file of schema 11 with messages in roll_messages and
    stability_messages reads them all from one table afterwards, each of its kind, their
    buttons' numbers kept; the twin table is gone."""
    path = tmp_path / "bot.sqlite3"
    conn = await connect(path)
    try:
        assert await apply_migrations(conn, load_migrations()[:11]) == 11
        await conn.executescript(
            "INSERT INTO characters (id, guild_id, name, name_key, owner_id, health, max_health,"
            " first_aid_pool, first_aid_rating, scene_start_health, conscious, roll_pending,"
            " stabilized, first_aid_received, bleed_minutes, full_recovery_due, created_at,"
            " roll_seq, stability_rating, stability_pool, due_loss, due_difficulty,"
            " stability_seq) VALUES (1, "
            f"{GUILD_A}, 'Ana', 'ana', {ALICE}, -2, 10, 0, 0, 10, 1, 1, 0, 0, 0, 0,"
            " '2026-01-01T00:00:00+00:00', 7, 5, 5, 3, 3, 8);"
            f"INSERT INTO roll_messages VALUES (1, 500, {GUILD_A}, 7, 10);"  # current roll
            f"INSERT INTO roll_messages VALUES (1, 501, {GUILD_A}, 6, 10);"  # an older one
            f"INSERT INTO stability_messages VALUES (1, 502, {GUILD_A}, 8, 10);"  # current
            f"INSERT INTO stability_messages VALUES (1, 501, {GUILD_A}, 5, 10);"  # same message
        )
        await conn.commit()
    finally:
        await conn.close()
    async with await Storage.open(path) as storage:
        async with storage.read() as reader:
            assert await roll_number(reader, GUILD_A, 1) == 7
            assert await roll_number(reader, GUILD_A, 1, kind=RollKind.STABILITY_TEST) == 8
            stale = await stale_roll_messages(reader, GUILD_A, [1])
        assert sorted((m.message_id, m.kind.value, m.roll_seq) for m in stale) == [
            (501, "consciousness", 6),
            (501, "stability", 5),
        ]
        async with storage.transaction(require_record=False) as tx:
            await forget_roll_messages(tx, stale)
    with sqlite3.connect(path) as raw:
        kept = raw.execute(
            "SELECT message_id, kind, roll_seq FROM roll_messages ORDER BY message_id"
        ).fetchall()
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert kept == [(500, "consciousness", 7), (502, "stability", 8)]
    assert "stability_messages" not in tables
