"""History entries, what counts as a change, applying an interaction once, and /undo."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import (
    AlreadyApplied,
    HistoryEntry,
    Storage,
    StoredCharacter,
    TransactionStateError,
)
from bot.storage.details import HurtDetails, HurtTarget, UndoDetails
from bot.storage.interface import HistoryQuery
from bot.storage.snapshot import dump_after, load_after
from rules.character import CharacterHealth, Hospital

from .conftest import (
    ALICE,
    BOB,
    GM,
    GUILD_A,
    GUILD_B,
    FakeClock,
    Interactions,
    create,
    general,
    investigative,
    named,
)


async def hurt(
    storage: Storage, next_id: Interactions, character: StoredCharacter, amount: int
) -> tuple[StoredCharacter, HistoryEntry | None]:
    async with storage.transaction() as tx:
        current = await tx.get_character(character.guild_id, character.id)
        assert current is not None
        new = replace(current.health, health=current.health.health - amount)
        saved = await tx.save_health(current, new)
        entry = await tx.record(
            guild_id=character.guild_id,
            interaction_id=next_id(),
            actor_id=GM,
            command="hurt",
            details=HurtDetails(str(amount), (HurtTarget(amount, (amount,)),), "¡bala!"),
        )
    return saved, entry


async def raw_snapshot(storage: Storage, guild_id: int, character_id: int) -> object:
    async with storage.read() as reader:
        return await reader.snapshot(guild_id, character_id)


async def test_record_writes_entry_with_snapshots(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    saved, entry = await hurt(storage, next_id, ann, 3)
    assert entry is not None
    assert entry.command == "hurt" and entry.actor_id == GM and entry.guild_id == GUILD_A
    assert entry.details == HurtDetails("3", (HurtTarget(3, (3,)),), "¡bala!")
    assert entry.created_at.utcoffset() == timedelta(0)
    assert not entry.undone and entry.undo_of is None
    (touched,) = entry.characters
    assert (touched.character_id, touched.name) == (ann.id, "Ann")
    assert (touched.health_before, touched.health_after) == (10, 7)
    assert touched.before == ann and touched.after == saved  # Max Health too
    async with storage.read() as reader:
        stored = await reader.history(GUILD_A)
    assert [e.command for e in stored] == ["hurt", "create"]  # newest first
    assert stored[0] == entry
    created = stored[1].characters[0]
    assert created.created and created.before is None and created.health_before is None
    assert created.after == ann


async def test_clock_is_used(storage: Storage, next_id: Interactions, clock: FakeClock) -> None:
    await create(storage, next_id, "Ann")
    async with storage.read() as reader:
        (entry,) = await reader.history(GUILD_A)
    assert entry.created_at <= clock.now
    assert entry.created_at > datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_no_change_is_not_recorded(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    async with storage.transaction() as tx:
        same = await tx.save_health(ann, ann.health)  # e.g. /time with nobody bleeding
        await tx.set_ability(ann, general("Athletics", 4))  # e.g. /refresh of full pools
        assert await tx.record(guild_id=GUILD_A, interaction_id=1, actor_id=GM, command="t") is None
    assert same == ann
    async with storage.transaction() as tx:  # changed, then changed back: no change either
        await tx.save_health(ann, replace(ann.health, health=2))
        await tx.save_health(ann, ann.health)
        assert await tx.record(guild_id=GUILD_A, interaction_id=2, actor_id=GM, command="t") is None
    async with storage.read() as reader:
        assert len(await reader.history(GUILD_A)) == 1
        assert not await reader.interaction_seen(1)


async def test_unrecorded_change_is_rolled_back(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    with pytest.raises(TransactionStateError):
        async with storage.transaction() as tx:
            await tx.save_health(ann, replace(ann.health, health=1))
    async with storage.transaction(require_record=False) as tx:
        await tx.save_health(ann, replace(ann.health, health=2))
    async with storage.read() as reader:
        found = await reader.get_character(GUILD_A, ann.id)
        assert found is not None and found.health.health == 2
        assert len(await reader.history(GUILD_A)) == 1


async def test_misuse_is_refused(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    with pytest.raises(TransactionStateError):
        async with storage.transaction() as tx:
            await tx.save_health(ann, replace(ann.health, health=1))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="x")
            await tx.save_health(ann, replace(ann.health, health=0))  # after record
    with pytest.raises(TransactionStateError):
        async with storage.transaction() as tx:
            await tx.save_health(ann, replace(ann.health, health=1))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="x")
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="x")
    with pytest.raises(TypeError):
        async with storage.transaction() as tx:
            await tx.save_health(ann, replace(ann.health, health=1))
            await tx.record(
                guild_id=GUILD_A,
                interaction_id=next_id(),
                actor_id=GM,
                command="x",
                details={"bad": object()},
            )
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, ann.id) == ann
        assert len(await reader.history(GUILD_A)) == 1
    with pytest.raises(TransactionStateError):  # a block's object is dead after it
        await tx.get_character(GUILD_A, ann.id)


async def test_same_interaction_applies_once(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    interaction = next_id()
    applied = 0
    for _attempt in range(2):  # Discord redelivers; the cog checks first
        async with storage.transaction() as tx:
            if await tx.interaction_seen(interaction):
                continue
            current = await tx.get_character(GUILD_A, ann.id)
            assert current is not None
            lower = replace(current.health, health=current.health.health - 1)
            await tx.save_health(current, lower)
            await tx.record(guild_id=GUILD_A, interaction_id=interaction, actor_id=GM, command="h")
            applied += 1
    assert applied == 1
    # Without the check, the UNIQUE index refuses the second application and rolls it back.
    with pytest.raises(AlreadyApplied) as caught:
        async with storage.transaction() as tx:
            current = await tx.get_character(GUILD_A, ann.id)
            assert current is not None
            await tx.save_health(current, replace(current.health, health=current.health.health - 1))
            await tx.record(guild_id=GUILD_A, interaction_id=interaction, actor_id=GM, command="h")
    assert caught.value.interaction_id == interaction
    async with storage.read() as reader:
        found = await reader.get_character(GUILD_A, ann.id)
        assert found is not None and found.health.health == 9
        assert await reader.interaction_seen(interaction)
        assert len(await reader.history(GUILD_A)) == 2


async def test_history_of_one_character_limit_and_paging(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await create(storage, next_id, "Ann")
    bob = await create(storage, next_id, "Bob", BOB)
    for _ in range(3):
        await hurt(storage, next_id, ann, 1)
        await hurt(storage, next_id, bob, 2)
    async with storage.read() as reader:
        of_ann = await reader.history(GUILD_A, HistoryQuery(ann.id))
        assert [e.characters[0].health_after for e in of_ann] == [7, 8, 9, 10]
        assert all(e.characters[0].character_id == ann.id for e in of_ann)
        latest = await reader.history(GUILD_A, HistoryQuery(limit=3))
        assert [e.id for e in latest] == sorted((e.id for e in latest), reverse=True)
        older = await reader.history(GUILD_A, HistoryQuery(limit=3, before_id=latest[-1].id))
        every = [e.id for e in await reader.history(GUILD_A, HistoryQuery(limit=10))]
        assert [e.id for e in older] == every[3:6]  # ids may have gaps (PostgreSQL's sequence)
        page = await reader.history(GUILD_A, HistoryQuery(bob.id, limit=2, before_id=of_ann[0].id))
        assert [e.characters[0].health_after for e in page] == [6, 8]
        assert len(await reader.history(GUILD_A)) == 8
        assert await reader.history(GUILD_B) == []


async def test_undo_of_nothing(storage: Storage, next_id: Interactions) -> None:
    async with storage.transaction() as tx:
        assert await tx.undo_latest(GUILD_A, next_id(), GM) is None
    async with storage.read() as reader:
        assert await reader.history(GUILD_A) == []


async def test_undo_create(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    undo_interaction = next_id()
    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, undo_interaction, GM)
    assert result is not None
    assert result.removed == (ann.id,) and result.restored == ()
    assert result.reverted.command == "create" and result.reverted.undone
    assert result.reverted.undone_by == result.undo_entry.id
    assert result.undo_entry.command == "undo" and result.undo_entry.undo_of == result.reverted.id
    assert result.undo_entry.interaction_id == undo_interaction
    assert result.undo_entry.details == UndoDetails(result.reverted.id, "create")
    (touched,) = result.undo_entry.characters
    assert touched.before == ann and touched.after is None and touched.name == "Ann"
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, ann.id) is None
        entries = await reader.history(GUILD_A, HistoryQuery(ann.id))
    assert await named(storage, GUILD_A, "ann") is None
    assert [(e.command, e.undone, e.undo_of) for e in entries] == [
        ("undo", False, result.reverted.id),
        ("create", True, None),
    ]
    # The name is free again, and a new character never reuses the old id.
    again = await create(storage, next_id, "Ann")
    assert again.id != ann.id


async def test_undo_update_restores_every_field(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    odd = CharacterHealth(
        health=-7,
        max_health=10,
        first_aid_pool=1,
        first_aid_rating=3,
        scene_start_health=4,
        conscious=False,
        roll_pending=False,
        stabilized=True,
        hospital=Hospital(length_days=6, days_served=1),
        lowest_health=-8,
        first_aid_received=2,
        bleed_minutes=0,
        full_recovery_due=False,
    )
    async with storage.transaction() as tx:
        ann = await tx.save_health(ann, odd)
        ann = await tx.set_ability(ann, general("Athletics", 4, 1))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="set")
    before = await raw_snapshot(storage, GUILD_A, ann.id)
    async with storage.transaction() as tx:
        changed = await tx.save_health(ann, CharacterHealth.new(12, 5))
        changed = await tx.save_abilities(changed, [general("Fleeing", 2)])
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="set")
    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert result is not None and result.removed == ()
    assert result.restored == (ann,)
    assert result.reverted.characters[0].after == changed
    assert await raw_snapshot(storage, GUILD_A, ann.id) == before


async def test_undo_delete_brings_back_id_and_abilities(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await create(storage, next_id, "Ann")
    await hurt(storage, next_id, ann, 4)
    before = await raw_snapshot(storage, GUILD_A, ann.id)
    async with storage.transaction() as tx:
        await tx.delete_character(GUILD_A, ann.id)
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="delete"
        )
    assert entry is not None and entry.characters[0].deleted
    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert result is not None
    (back,) = result.restored
    assert back.id == ann.id and back.health.health == 6
    assert back.abilities == (general("Athletics", 4), investigative("Occult", 2))
    assert await raw_snapshot(storage, GUILD_A, ann.id) == before  # created_at included
    assert await named(storage, GUILD_A, "ANN") == back
    async with storage.read() as reader:
        assert [e.command for e in await reader.history(GUILD_A, HistoryQuery(ann.id))] == [
            "undo",
            "delete",
            "hurt",
            "create",
        ]


async def test_undo_two_character_change(storage: Storage, next_id: Interactions) -> None:
    medic = await create(storage, next_id, "Medic")
    patient = await create(storage, next_id, "Patient", BOB)
    patient, _ = await hurt(storage, next_id, patient, 5)
    async with storage.transaction() as tx:  # a First Aid: both change in one entry
        m = await tx.save_health(medic, replace(medic.health, first_aid_pool=1))
        p = await tx.save_health(patient, replace(patient.health, health=7, first_aid_received=2))
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="firstaid"
        )
    assert entry is not None
    assert {c.character_id for c in entry.characters} == {medic.id, patient.id}
    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert result is not None
    assert set(result.restored) == {medic, patient}
    assert {(c.character_id, c.after) for c in result.reverted.characters} == {
        (medic.id, m),
        (patient.id, p),
    }
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, medic.id) == medic
        assert await reader.get_character(GUILD_A, patient.id) == patient


async def test_undo_is_never_undone(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    await hurt(storage, next_id, ann, 1)
    await hurt(storage, next_id, ann, 2)
    reverted = []
    for _ in range(4):
        async with storage.transaction() as tx:
            result = await tx.undo_latest(GUILD_A, next_id(), GM)
        reverted.append(None if result is None else result.reverted.command)
        if result is not None and result.restored:
            assert result.restored[0].health.health in (9, 10)
    assert reverted == ["hurt", "hurt", "create", None]
    async with storage.read() as reader:
        entries = await reader.history(GUILD_A)
        assert await reader.latest_undoable(GUILD_A) is None
    assert [e.command for e in entries] == ["undo", "undo", "undo", "hurt", "hurt", "create"]
    assert all(e.undone for e in entries if e.command != "undo")
    assert not any(e.undone for e in entries if e.command == "undo")


async def test_undo_then_new_change_then_undo(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    await hurt(storage, next_id, ann, 1)
    async with storage.transaction() as tx:
        await tx.undo_latest(GUILD_A, next_id(), GM)  # back to 10
    await hurt(storage, next_id, ann, 3)  # 7
    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert result is not None and result.restored[0].health.health == 10
    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, next_id(), GM)
    assert result is not None and result.reverted.command == "create"


async def test_undo_only_touches_its_guild(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann", guild=GUILD_A)
    await create(storage, next_id, "Bob", BOB, guild=GUILD_B)
    async with storage.transaction() as tx:
        result = await tx.undo_latest(GUILD_A, next_id(), GM)  # Bob's creation is newer
    assert result is not None and result.removed == (ann.id,)
    async with storage.transaction() as tx:
        assert await tx.undo_latest(GUILD_A, next_id(), GM) is None
    async with storage.read() as reader:
        assert await reader.count_characters(GUILD_B) == 1
        assert not (await reader.history(GUILD_B))[0].undone


async def test_undo_with_a_repeated_interaction(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    await hurt(storage, next_id, ann, 1)
    interaction = next_id()
    async with storage.transaction() as tx:
        await tx.undo_latest(GUILD_A, interaction, GM)
    with pytest.raises(AlreadyApplied):
        async with storage.transaction() as tx:
            await tx.undo_latest(GUILD_A, interaction, GM)
    async with storage.read() as reader:
        assert await reader.count_characters(GUILD_A) == 1  # the creation was not undone


async def test_undo_must_be_alone(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    with pytest.raises(TransactionStateError):
        async with storage.transaction() as tx:
            await tx.save_health(ann, replace(ann.health, health=1))
            await tx.undo_latest(GUILD_A, next_id(), GM)


# --- the after column holds what changed (issue 13) -----------------------------------------


def test_an_after_is_stored_as_its_changes_and_read_back_whole() -> None:
    before = {
        "v": 1,
        "id": 7,
        "name": "Ann",
        "health": {"health": 9, "bleed_minutes": 0, "conscious": 1},
        "abilities": [{"name": "Athletics", "pool": 2}],
    }
    after = {**before, "health": {**before["health"], "health": -3, "bleed_minutes": 10}}
    stored = dump_after(before, after)
    assert stored is not None
    assert json.loads(stored) == {
        "v": "changes",
        "set": {"health": {"$set": {"health": -3, "bleed_minutes": 10}}},
    }
    assert load_after(before, stored) == after
    renamed = {**after, "name": "Anne", "abilities": []}
    assert load_after(before, dump_after(before, renamed)) == renamed
    assert load_after(None, dump_after(None, after)) == after  # created: stored whole
    assert dump_after(before, None) is None  # deleted
    assert load_after(before, json.dumps(after)) == after  # rows written before issue 13


def test_a_key_gone_from_the_after_keeps_the_after_whole() -> None:
    before = {"v": 1, "id": 7, "old": 1}
    after = {"v": 1, "id": 7}
    stored = dump_after(before, after)
    assert stored is not None and json.loads(stored) == after
    assert load_after(before, stored) == after


async def test_a_change_of_health_stores_no_second_copy_of_the_character(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await create(storage, next_id, "Ann Abernathy-Weatherby")
    saved, entry = await hurt(storage, next_id, ann, 3)
    assert entry is not None
    async with storage.read() as reader:
        rows = await reader.fetch_all(
            "SELECT before, after FROM history_characters WHERE history_id = ?", (entry.id,)
        )
    before, after = rows[0]["before"], rows[0]["after"]
    assert "Abernathy" in before and "Athletics" in before  # whole, for /undo
    assert "Abernathy" not in after and "Athletics" not in after  # only what changed
    assert len(after) * 4 < len(before)
    assert entry.characters[0].after == saved  # read back whole
