"""Settings, meta, characters and abilities: CRUD, name rules and guild isolation."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from bot.storage import (
    CharacterNotFound,
    DuplicateName,
    GuildSettings,
    Storage,
    TransactionStateError,
    name_key,
)
from bot.storage.interface import HistoryQuery
from bot.storage.models import CharacterQuery, NewCharacter
from bot.storage.snapshot import HEALTH_COLUMNS, health_from_row, health_to_row
from rules.character import CharacterHealth, Hospital

from .conftest import (
    ALICE,
    BOB,
    GM,
    GUILD_A,
    GUILD_B,
    Interactions,
    general,
    health,
    investigative,
    named,
)


def test_every_health_field_has_a_column() -> None:
    """A field added to CharacterHealth must get a column (and a migration), or fail here."""
    fields = {field.name for field in dataclasses.fields(CharacterHealth)}
    columns = set(HEALTH_COLUMNS) - {"hospital_length_days", "hospital_days_served"}
    assert fields == columns | {"hospital"}


def test_health_row_round_trip() -> None:
    odd = CharacterHealth(
        health=-8,
        max_health=9,
        first_aid_pool=1,
        first_aid_rating=4,
        scene_start_health=-2,
        conscious=False,
        roll_pending=True,
        stabilized=True,
        hospital=Hospital(length_days=5, days_served=2),
        lowest_health=-9,
        first_aid_received=3,
        bleed_minutes=20,
        full_recovery_due=True,
    )
    assert health_from_row(health_to_row(odd)) == odd


async def test_settings_default_update_and_clear(storage: Storage) -> None:
    async with storage.read() as reader:
        assert await reader.get_settings(GUILD_A) == GuildSettings(GUILD_A)
    async with storage.transaction() as tx:
        updated = await tx.update_settings(GUILD_A, gm_role_id=5, language="es")
    assert updated == GuildSettings(GUILD_A, gm_role_id=5, channel_id=None, language="es")
    async with storage.transaction() as tx:
        await tx.update_settings(GUILD_A, channel_id=77)
        await tx.update_settings(GUILD_A, gm_role_id=None)  # clears only that one
    async with storage.read() as reader:
        assert await reader.get_settings(GUILD_A) == GuildSettings(GUILD_A, None, 77, "es")
        assert await reader.get_settings(GUILD_B) == GuildSettings(GUILD_B)
        assert await reader.history(GUILD_A) == []  # /config is never history


async def test_meta(storage: Storage) -> None:
    async with storage.transaction() as tx:
        assert await tx.get_meta("command_hash") is None
        await tx.set_meta("command_hash", "1")
        await tx.set_meta("command_hash", "2")
    async with storage.read() as reader:
        assert await reader.get_meta("command_hash") == "2"


async def test_create_find_get_and_save(storage: Storage, next_id: Interactions) -> None:
    abilities = (general("Shooting", 4), investigative("Library Use", 2))
    async with storage.transaction() as tx:
        created = await tx.create_character(
            NewCharacter(GUILD_A, "  Ann Bishop ", ALICE, health(), abilities)
        )
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="c")
    assert created.name == "Ann Bishop"
    assert created.guild_id == GUILD_A and created.owner_id == ALICE
    assert created.health == health()
    assert [a.name for a in created.abilities] == ["Library Use", "Shooting"]  # by name
    assert await named(storage, GUILD_A, "ann bishop") == created
    assert await named(storage, GUILD_A, " ANN BISHOP ") == created
    assert await named(storage, GUILD_A, "Ann") is None
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, created.id) == created
    hurt = replace(created.health, health=-3, roll_pending=True)
    async with storage.transaction() as tx:
        saved = await tx.save_health(created, hurt)
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="hurt")
    assert saved == replace(created, health=hurt)
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, created.id) == saved


async def test_names_unique_per_guild_ignoring_case(
    storage: Storage, next_id: Interactions
) -> None:
    async with storage.transaction() as tx:
        await tx.create_character(NewCharacter(GUILD_A, "Ana", ALICE, health()))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="c")
    with pytest.raises(DuplicateName) as caught:
        async with storage.transaction() as tx:
            await tx.create_character(NewCharacter(GUILD_A, " ANA", BOB, health()))
    assert caught.value.guild_id == GUILD_A
    async with storage.transaction() as tx:
        # another guild
        other = await tx.create_character(NewCharacter(GUILD_B, "ana", BOB, health()))
        await tx.record(guild_id=GUILD_B, interaction_id=next_id(), actor_id=BOB, command="c")
    async with storage.read() as reader:
        assert await reader.count_characters(GUILD_A) == 1
    assert await named(storage, GUILD_B, "ANA") == other


async def test_casefold_not_lower(storage: Storage, next_id: Interactions) -> None:
    async with storage.transaction() as tx:
        await tx.create_character(NewCharacter(GUILD_A, "Strauß", ALICE, health()))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="c")
    found = await named(storage, GUILD_A, "STRAUSS")
    assert found is not None and found.name == "Strauß"


async def test_listing_counting_owners_and_living(storage: Storage, next_id: Interactions) -> None:
    async with storage.transaction() as tx:
        for name, owner in (("zed", ALICE), ("Bea", BOB), ("adam", ALICE)):
            await tx.create_character(NewCharacter(GUILD_A, name, owner, health()))
        dead = await tx.create_character(NewCharacter(GUILD_A, "Carl", BOB, health()))
        await tx.save_health(dead, replace(dead.health, health=-12))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    async with storage.transaction() as tx:
        await tx.create_character(NewCharacter(GUILD_B, "Other", ALICE, health()))
        await tx.record(guild_id=GUILD_B, interaction_id=next_id(), actor_id=GM, command="c")
    async with storage.read() as reader:
        everyone = await reader.list_characters(GUILD_A)
        living = await reader.list_characters(GUILD_A, CharacterQuery(living_only=True))
        page = await reader.list_characters(GUILD_A, CharacterQuery(limit=2, offset=1))
        assert await reader.count_characters(GUILD_A) == 4
        assert await reader.count_characters(GUILD_A, living_only=True) == 3
    assert [c.name for c in everyone] == ["adam", "Bea", "Carl", "zed"]
    assert [c.name for c in living] == ["adam", "Bea", "zed"]
    assert [c.name for c in page] == ["Bea", "Carl"]
    mine = (await storage.names(GUILD_A)).owned_by(ALICE)
    assert [c.name for c in mine] == ["adam", "zed"]


async def test_one_transaction_writes_one_guild(storage: Storage, next_id: Interactions) -> None:
    with pytest.raises(TransactionStateError):
        async with storage.transaction() as tx:
            await tx.create_character(NewCharacter(GUILD_B, "Other", ALICE, health()))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    with pytest.raises(TransactionStateError):
        async with storage.transaction() as tx:
            await tx.create_character(NewCharacter(GUILD_B, "Other", ALICE, health()))
            await tx.create_character(NewCharacter(GUILD_A, "Other", ALICE, health()))
    async with storage.read() as reader:
        assert await reader.count_characters(GUILD_A) == 0
        assert await reader.count_characters(GUILD_B) == 0


async def test_abilities(storage: Storage, next_id: Interactions) -> None:
    async with storage.transaction() as tx:
        ann = await tx.create_character(NewCharacter(GUILD_A, "Ann", ALICE, health()))
        ann = await tx.set_ability(ann, general("Shooting", 4))
        ann = await tx.set_ability(ann, investigative("Oral History", 2))
        ann = await tx.set_ability(ann, general("SHOOTING", 6, 1))  # same ability, new case
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    assert ann.abilities == (investigative("Oral History", 2), general("SHOOTING", 6, 1))
    assert ann.ability("shooting") == general("SHOOTING", 6, 1)
    async with storage.transaction() as tx:
        ann = await tx.remove_ability(ann, "oral history")
        ann = await tx.remove_ability(ann, "Not there")
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="r")
    assert ann.abilities == (general("SHOOTING", 6, 1),)
    async with storage.transaction() as tx:
        ann = await tx.save_abilities(ann, [general("Fleeing", 3), general("Scuffling", 2, 0)])
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="s")
    async with storage.read() as reader:
        stored = await reader.get_character(GUILD_A, ann.id)
    assert stored is not None
    assert stored.abilities == (general("Fleeing", 3), general("Scuffling", 2, 0))
    with pytest.raises(ValueError):
        async with storage.transaction() as tx:
            await tx.save_abilities(ann, [general("Fleeing", 3), general("fleeing", 2)])


async def test_delete_cascades_abilities(storage: Storage, next_id: Interactions) -> None:
    async with storage.transaction() as tx:
        ann = await tx.create_character(
            NewCharacter(GUILD_A, "Ann", ALICE, health(), [general("Athletics", 3)])
        )
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    async with storage.transaction() as tx:
        deleted = await tx.delete_character(GUILD_A, ann.id)
        assert await tx.delete_character(GUILD_A, ann.id) is None
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="d")
    assert deleted == ann
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, ann.id) is None
        rows = await reader.fetch_all("SELECT * FROM abilities WHERE character_id = ?", (ann.id,))
    assert rows == []


async def test_guild_isolation(storage: Storage, next_id: Interactions) -> None:
    async with storage.transaction() as tx:
        ann = await tx.create_character(
            NewCharacter(GUILD_A, "Ann", ALICE, health(), [general("Athletics", 3)])
        )
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    as_b = replace(ann, guild_id=GUILD_B)  # a cog passing guild B with A's character id
    async with storage.transaction() as tx:
        assert await tx.get_character(GUILD_B, ann.id) is None
        assert (await tx.server_names(GUILD_B)).with_key(name_key("Ann")) is None
        assert await tx.list_characters(GUILD_B) == []
        assert (await tx.server_names(GUILD_B)).owned_by(ALICE) == []
        assert await tx.count_characters(GUILD_B) == 0
        assert (await tx.server_names(GUILD_B)).characters == ()
        assert await tx.history(GUILD_B) == []
        assert await tx.history(GUILD_B, HistoryQuery(ann.id)) == []
        assert await tx.delete_character(GUILD_B, ann.id) is None
        for write in (
            tx.save_health(as_b, replace(ann.health, health=1)),
            tx.set_ability(as_b, general("Athletics", 9)),
            tx.remove_ability(as_b, "Athletics"),
            tx.save_abilities(as_b, []),
        ):
            with pytest.raises(CharacterNotFound):
                await write
        assert await tx.undo_latest(GUILD_B, next_id(), GM) is None
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, ann.id) == ann
        assert len(await reader.history(GUILD_A)) == 1
        assert (await reader.history(GUILD_A))[0].undone is False
