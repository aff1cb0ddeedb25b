"""The server's name index (``Storage.names``, ``NameIndex``): what the character options
resolve against without a trip to the database, so it must always be what is stored. Every
transaction that could change a name, an owner, a gender or which characters exist forgets
its server's entry when it ends, committed or rolled back; other changes keep it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.storage import Storage, StoredCharacter, name_key
from bot.storage.models import NewCharacter
from rules.character import Gender

from .conftest import ALICE, BOB, GM, GUILD_A, GUILD_B, Interactions, health


async def create(
    storage: Storage, next_id: Interactions, name: str, owner: int = ALICE, guild: int = GUILD_A
) -> StoredCharacter:
    async with storage.transaction() as tx:
        made = await tx.create_character(NewCharacter(guild, name, owner, health()))
        await tx.record(guild_id=guild, interaction_id=next_id(), actor_id=owner, command="c")
    return made


async def names(storage: Storage, guild: int = GUILD_A) -> list[tuple[str, int, Gender | None]]:
    """The index as the options see it, read (or taken from memory) now."""
    return [(c.name, c.owner_id, c.gender) for c in (await storage.names(guild)).characters]


async def test_the_index_is_what_is_stored_and_is_kept_in_memory(
    storage: Storage, next_id: Interactions
) -> None:
    await create(storage, next_id, "Zoë")
    await create(storage, next_id, "ana", BOB)
    await create(storage, next_id, "Other", guild=GUILD_B)
    assert await names(storage) == [("ana", BOB, None), ("Zoë", ALICE, None)]  # by name key
    kept = await storage.names(GUILD_A)
    assert await storage.names(GUILD_A) is kept  # from memory
    assert await names(storage, GUILD_B) == [("Other", ALICE, None)]
    found = kept.with_key(name_key("  zoë ".strip()))
    assert found is not None and found.name == "Zoë" and found.guild_id == GUILD_A
    assert [c.name for c in kept.owned_by(BOB)] == ["ana"]


async def test_create_rename_gender_and_delete_forget_the_server(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await create(storage, next_id, "Ann")
    other_server = await storage.names(GUILD_B)  # another server's entry stays
    assert await names(storage) == [("Ann", ALICE, None)]

    await create(storage, next_id, "Bob", BOB)
    assert await names(storage) == [("Ann", ALICE, None), ("Bob", BOB, None)]

    async with storage.transaction() as tx:
        await tx.rename_character(await tx.character(ann), "Cleo")
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="r")
    assert await names(storage) == [("Bob", BOB, None), ("Cleo", ALICE, None)]
    assert (await storage.names(GUILD_A)).with_key(name_key("ann")) is None
    assert (await storage.names(GUILD_A)).with_key(name_key("cleo")) is not None

    async with storage.transaction() as tx:
        await tx.set_gender(await tx.character(ann), Gender.FEMININE)
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="g")
    assert await names(storage) == [("Bob", BOB, None), ("Cleo", ALICE, Gender.FEMININE)]

    async with storage.transaction() as tx:
        await tx.delete_character(GUILD_A, ann.id)
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="d")
    assert await names(storage) == [("Bob", BOB, None)]
    assert await storage.names(GUILD_B) is other_server


async def test_undo_forgets_the_server(storage: Storage, next_id: Interactions) -> None:
    """Undoing a rename brings the old name back; undoing a deletion the character; undoing
    a creation removes it."""
    ann = await create(storage, next_id, "Ann")
    async with storage.transaction() as tx:
        await tx.rename_character(await tx.character(ann), "Anna")
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="r")
    assert await names(storage) == [("Anna", ALICE, None)]
    async with storage.transaction() as tx:
        assert await tx.undo_latest(GUILD_A, next_id(), GM) is not None
    assert await names(storage) == [("Ann", ALICE, None)]

    async with storage.transaction() as tx:
        await tx.delete_character(GUILD_A, ann.id)
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="d")
    assert await names(storage) == []
    async with storage.transaction() as tx:
        assert await tx.undo_latest(GUILD_A, next_id(), GM) is not None
    assert await names(storage) == [("Ann", ALICE, None)]

    await create(storage, next_id, "Bob", BOB)
    assert len(await names(storage)) == 2
    async with storage.transaction() as tx:
        assert await tx.undo_latest(GUILD_A, next_id(), GM) is not None
    assert await names(storage) == [("Ann", ALICE, None)]


async def test_a_rolled_back_transaction_forgets_the_server_too(
    storage: Storage, next_id: Interactions
) -> None:
    """Whatever it wrote before failing, what is stored is read again (the rollback left
    the old names, and the index says so)."""
    ann = await create(storage, next_id, "Ann")
    assert await names(storage) == [("Ann", ALICE, None)]
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            await tx.rename_character(await tx.character(ann), "Anna")
            await tx.create_character(NewCharacter(GUILD_A, "Cleo", BOB, health()))
            raise RuntimeError("the command failed after writing")
    assert await names(storage) == [("Ann", ALICE, None)]


async def test_health_and_ability_changes_keep_the_index(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await create(storage, next_id, "Ann")
    kept = await storage.names(GUILD_A)
    async with storage.transaction() as tx:
        current = await tx.character(ann)
        await tx.save_health(current, replace(current.health, health=2))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="h")
    assert await storage.names(GUILD_A) is kept
