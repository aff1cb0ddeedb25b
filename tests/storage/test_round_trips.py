"""Round trips to aiosqlite's thread made by the storage's transactions, and the in-memory
states that save them.

Each aiosqlite call is a queue put, a thread switch and a wake-up of the loop; the benchmark
found them to be most of a command's CPU (issue 6). The tests here pin how the storage groups
a transaction's statements into trips (the ``Pipeline``: what is queued, what goes with which
trip), on transactions shaped like those of the commands; what a real command costs in all,
its work after the reply included, is pinned end to end on the running bot
(``tests/e2e/test_round_trips.py``). A test here that fails with more trips is a regression;
with fewer, lower the number. The states a transaction works out in memory instead of reading
back must be exactly what a read gives: the later tests check that.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.storage import CharacterNotFound, HistoryEntry, Storage, StoredCharacter, name_key
from bot.storage.interface import HistoryQuery
from bot.storage.models import NewCharacter
from bot.storage.snapshot import dump_json, load_after, load_snapshot
from bot.storage.sqlite.pipeline import Batch

from .conftest import ALICE, BOB, GM, GUILD_A, Interactions, create, general, health, investigative

#: What goes with every transaction's ``BEGIN``: the probe of the next history id.
BEGIN = "BEGIN IMMEDIATE + SELECT max(coalesce((SELECT seq"


class Trips:
    """Counts the calls that reach aiosqlite's thread (every one goes through ``_execute``)."""

    def __init__(self, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        conn = storage._conn
        queued: Callable[..., Awaitable[Any]] = conn._execute

        async def counting(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            if isinstance(fn, Batch):  # a transaction's statements sent together
                self.calls.append(" + ".join(fn.describe()))
            else:
                what = args[0] if args and isinstance(args[0], str) else fn.__name__
                self.calls.append(" ".join(what.split()[:3]))
            return await queued(fn, *args, **kwargs)

        monkeypatch.setattr(conn, "_execute", counting)

    def take(self) -> list[str]:
        """The calls since the last ``take``."""
        calls, self.calls = self.calls, []
        return calls


@pytest.fixture
def trips(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> Trips:
    return Trips(storage, monkeypatch)


async def stored_after(storage: Storage, entry_id: int) -> dict[int, str | None]:
    """The ``after`` snapshots a history entry stored, as JSON text, by character id (made
    whole from the changes stored, as the bot reads them)."""
    async with storage.read() as reader:
        rows = await reader.fetch_all(
            "SELECT character_id, before, after FROM history_characters WHERE history_id = ?",
            (entry_id,),
        )
    wholes = {
        int(row["character_id"]): load_after(load_snapshot(row["before"]), row["after"])
        for row in rows
    }
    return {key: None if after is None else dump_json(after) for key, after in wholes.items()}


async def read_back(storage: Storage, character_id: int) -> str | None:
    """The character as a read gives it now, as snapshot JSON (None: not stored)."""
    async with storage.read() as reader:
        snapshot = await reader.snapshot(GUILD_A, character_id)
    return None if snapshot is None else dump_json(snapshot)


async def assert_stored_as_read(
    storage: Storage, entry: HistoryEntry | None, character_id: int, expected: StoredCharacter
) -> None:
    """``entry`` stored character ``character_id`` as its ``after`` just as a read gives it
    now, and that read is ``expected``."""
    assert entry is not None
    assert (await stored_after(storage, entry.id))[character_id] == await read_back(
        storage, character_id
    )
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, character_id) == expected


# --- how many trips ---------------------------------------------------------------------------


async def test_a_read_is_one_trip_per_query(
    storage: Storage, next_id: Interactions, trips: Trips
) -> None:
    await create(storage, next_id, "Ann")
    trips.take()
    async with storage.read() as reader:  # no BEGIN/ROLLBACK around it
        assert await reader.count_characters(GUILD_A) == 1
        assert [c.name for c in await reader.list_characters(GUILD_A)] == ["Ann"]
    assert len(trips.take()) == 2


async def test_hurt_is_two_trips(storage: Storage, next_id: Interactions, trips: Trips) -> None:
    """A transaction shaped like /hurt's: read, save, record (the interaction is checked in
    memory, ``Storage.applied_recently``); the statements nothing waits for go with the next
    trip (``Pipeline``), the history entry too (its id was probed with ``BEGIN``)."""
    ann = await create(storage, next_id, "Ann")
    trips.take()
    interaction = next_id()
    async with storage.transaction(guild_id=GUILD_A) as tx:
        current = await tx.get_character(GUILD_A, ann.id)
        assert current is not None
        saved = await tx.save_health(current, replace(current.health, health=6))
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=interaction, actor_id=GM, command="hurt"
        )
    calls = trips.take()
    assert calls == [
        f"{BEGIN} + SELECT c.id, c.guild_id,",  # get_character
        "UPDATE characters SET + INSERT INTO history + INSERT INTO history_characters + COMMIT",
    ], calls
    assert entry is not None and entry.characters[0].after == saved
    assert (await stored_after(storage, entry.id))[ann.id] == await read_back(storage, ann.id)


async def test_a_typed_name_resolves_without_a_trip_once_the_server_is_in_memory(
    storage: Storage, next_id: Interactions, trips: Trips
) -> None:
    """The character option (``bot.interaction.transformers``) resolves against the server's name
    index (``Storage.names``): one query the first time a server is used, none after. Before it read
    the whole character (one trip and a wait for the lock) for every command."""
    ann = await create(storage, next_id, "Ann")
    trips.take()
    first = (await storage.names(GUILD_A)).with_key(name_key("ann"))
    assert trips.take() == ["SELECT id, name,"]
    again = (await storage.names(GUILD_A)).with_key(name_key("ANN"))
    assert trips.take() == []
    assert first == again and first is not None
    assert (first.id, first.name, first.owner_id) == (ann.id, ann.name, ann.owner_id)


async def test_firstaid_is_two_trips(storage: Storage, next_id: Interactions, trips: Trips) -> None:
    """Both characters in one query (``get_characters``), the writes with the COMMIT."""
    medic = await create(storage, next_id, "Medic")
    patient = await create(storage, next_id, "Patient", BOB)
    trips.take()
    interaction = next_id()
    async with storage.transaction(guild_id=GUILD_A) as tx:
        both = await tx.get_characters(GUILD_A, (medic.id, patient.id, medic.id + 1000))
        assert set(both) == {medic.id, patient.id}  # one not there: absent
        medic_now, patient_now = both[medic.id], both[patient.id]
        assert medic_now == medic and patient_now == patient
        await tx.save_health(medic_now, replace(medic_now.health, first_aid_pool=1))
        await tx.save_health(patient_now, replace(patient_now.health, first_aid_received=2))
        await tx.record(guild_id=GUILD_A, interaction_id=interaction, actor_id=GM, command="fa")
    calls = trips.take()
    assert calls == [
        f"{BEGIN} + SELECT c.id, c.guild_id,",
        "UPDATE characters SET + UPDATE characters SET + INSERT INTO history"
        " + INSERT INTO history_characters + COMMIT",
    ], calls


async def test_many_characters_saved_in_one_trip(
    storage: Storage, next_id: Interactions, trips: Trips
) -> None:
    """/scene new, /time: the same number of trips for 1 character or 6."""
    for name in ("A", "B", "C", "D", "E", "F"):
        await create(storage, next_id, name)
    trips.take()
    interaction = next_id()
    async with storage.transaction(guild_id=GUILD_A) as tx:
        everyone = await tx.list_characters(GUILD_A)
        saved = await tx.save_healths(
            [(c, replace(c.health, scene_start_health=c.health.health - 1)) for c in everyone]
        )
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=interaction, actor_id=GM, command="scene new"
        )
    assert len(trips.take()) == 2
    assert entry is not None and [c.after for c in entry.characters] == saved
    for character in everyone:
        assert (await stored_after(storage, entry.id))[character.id] == await read_back(
            storage, character.id
        )


async def test_create_is_three_trips(storage: Storage, next_id: Interactions, trips: Trips) -> None:
    """/character create: look for a lookalike name, insert (no abilities), record."""
    interaction = next_id()
    async with storage.transaction(guild_id=GUILD_A) as tx:
        assert await tx.find_lookalike(GUILD_A, "Ann") is None
        await tx.create_character(NewCharacter(GUILD_A, "Ann", ALICE, health()))
        await tx.record(guild_id=GUILD_A, interaction_id=interaction, actor_id=GM, command="c")
    calls = trips.take()
    assert calls == [
        f"{BEGIN} + SELECT c.id, c.guild_id,",  # the name is free
        "INSERT INTO characters",  # its id is needed
        "INSERT INTO history + INSERT INTO history_characters + COMMIT",
    ], calls


async def test_undo_of_a_hurt_is_six_trips(
    storage: Storage, next_id: Interactions, trips: Trips
) -> None:
    ann = await create(storage, next_id, "Ann")
    async with storage.transaction(guild_id=GUILD_A) as tx:
        await tx.save_health(ann, replace(ann.health, health=3))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="h")
    trips.take()
    interaction = next_id()
    async with storage.transaction(guild_id=GUILD_A) as tx:
        result = await tx.undo_latest(GUILD_A, interaction, GM)
    calls = trips.take()
    assert calls == [
        f"{BEGIN} + SELECT h.id, h.guild_id,",  # the entry to undo
        "SELECT history_id, character_id,",  # its characters
        "SELECT 1 FROM",  # the interaction, not applied yet
        "SELECT c.id, c.guild_id,",  # the character now
        "UPDATE characters SET",  # its row back (a name taken meanwhile is refused)
        # the undo entry, its rows and undone_by, with the COMMIT
        "INSERT INTO history + INSERT INTO history_characters + UPDATE history SET + COMMIT",
    ], calls
    assert result is not None and result.restored == (ann,)
    after = (await stored_after(storage, result.undo_entry.id))[ann.id]
    assert after == await read_back(storage, ann.id)


# --- the states worked out in memory are what a read gives ------------------------------------


async def test_ability_writes_match_a_read(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    async with storage.transaction(guild_id=GUILD_A) as tx:
        current = await tx.save_health(ann, replace(ann.health, health=-2, roll_pending=True))
        current = await tx.set_ability(current, general("Fleeing", 3))
        current = await tx.set_ability(current, general("ATHLETICS", 6, 2))  # same key
        current = await tx.set_ability(current, investigative("Occult", 2))  # no change
        current = await tx.remove_ability(current, "occult")
        current = await tx.remove_ability(current, "not there")
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="x"
        )
        assert await tx.get_character(GUILD_A, ann.id) == current
    await assert_stored_as_read(storage, entry, ann.id, current)
    async with storage.transaction(guild_id=GUILD_A) as tx:
        current = await tx.save_abilities(
            current, [general("Scuffling", 2), general("Athletics", 1)]
        )
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="y"
        )
    await assert_stored_as_read(storage, entry, ann.id, current)


async def test_created_character_matches_a_read(storage: Storage, next_id: Interactions) -> None:
    async with storage.transaction(guild_id=GUILD_A) as tx:
        made = await tx.create_character(
            NewCharacter(
                GUILD_A,
                " Zoë ",
                ALICE,
                health(7, 2),
                [general("Shooting", 2), general("athletics", 1)],
            )
        )
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c"
        )
    await assert_stored_as_read(storage, entry, made.id, made)


async def test_save_healths_is_saving_each_in_turn(storage: Storage, next_id: Interactions) -> None:
    ann = await create(storage, next_id, "Ann")
    bob = await create(storage, next_id, "Bob", BOB)
    async with storage.transaction(
        guild_id=GUILD_A
    ) as tx:  # characters not read here first: read in one go
        saved = await tx.save_healths(
            [
                (ann, replace(ann.health, health=5)),
                (bob, bob.health),  # unchanged
                (ann, replace(ann.health, health=4)),  # the last one counts
            ]
        )
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="t"
        )
    assert [c.health.health for c in saved] == [5, 10, 4]
    assert entry is not None and [c.character_id for c in entry.characters] == [ann.id]
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, ann.id) == saved[2]
        assert await reader.get_character(GUILD_A, bob.id) == bob
    gone = replace(ann, id=ann.id + 1000)
    with pytest.raises(CharacterNotFound):
        async with storage.transaction(guild_id=GUILD_A) as tx:
            await tx.save_healths([(ann, replace(ann.health, health=1)), (gone, ann.health)])
    async with storage.read() as reader:
        assert await reader.get_character(GUILD_A, ann.id) == saved[2]


async def test_a_failed_write_is_read_again(
    storage: Storage, next_id: Interactions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A caller that catches a write's error and goes on: the transaction reads what is
    stored instead of trusting what it expected. (A queued write fails with the trip that
    sends it.)"""
    ann = await create(storage, next_id, "Ann")
    bob = await create(storage, next_id, "Bob", BOB)
    conn = storage._conn
    queued: Callable[..., Awaitable[Any]] = conn._execute

    async def failing_updates(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if isinstance(fn, Batch) and "UPDATE characters SET" in fn.describe():
            raise sqlite3.OperationalError("disk I/O error")
        return await queued(fn, *args, **kwargs)

    async with storage.transaction(guild_id=GUILD_A) as tx:
        assert await tx.get_character(GUILD_A, ann.id) == ann
        monkeypatch.setattr(conn, "_execute", failing_updates)
        await tx.save_health(ann, replace(ann.health, health=1))  # queued
        with pytest.raises(sqlite3.OperationalError):
            await tx.get_character(GUILD_A, bob.id)  # sends it
        monkeypatch.setattr(conn, "_execute", queued)
        assert await tx.get_character(GUILD_A, ann.id) == ann
        assert await tx.record(guild_id=GUILD_A, interaction_id=1, actor_id=GM, command="x") is None


# --- the history id probed with BEGIN ---------------------------------------------------------


async def test_history_ids_probed_with_begin_never_repeat_a_deleted_one(
    storage: Storage, next_id: Interactions
) -> None:
    """AUTOINCREMENT's promise kept: an id once given is never given again."""
    ann = await create(storage, next_id, "Ann")
    bob = await create(storage, next_id, "Bob", BOB)
    async with storage.read() as reader:
        (latest,) = await reader.fetch_all("SELECT max(id) AS id FROM history")
    await storage._conn.execute("DELETE FROM history WHERE id = ?", (latest["id"],))
    async with storage.transaction(guild_id=GUILD_A) as tx:
        await tx.save_health(ann, replace(ann.health, health=4))
        entry = await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="h"
        )
    assert entry is not None and entry.id == latest["id"] + 1
    assert (await stored_after(storage, entry.id)).keys() == {ann.id}
    assert bob.id != ann.id


async def test_two_connections_on_one_file_interleave_history_ids(
    db_path: Path, next_id: Interactions
) -> None:
    """Two processes (each some shards of one bot) on one database: each transaction learns
    the next id under SQLite's write lock, so their entries never collide."""
    async with (
        await Storage.open(db_path) as first,
        await Storage.open(db_path) as second,
    ):
        ann = await create(first, next_id, "Ann")
        ids = []
        for turn in range(6):
            storage = (first, second)[turn % 2]
            async with storage.transaction(guild_id=GUILD_A) as tx:
                current = await tx.get_character(GUILD_A, ann.id)
                assert current is not None
                await tx.save_health(current, replace(current.health, health=9 - turn))
                entry = await tx.record(
                    guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="h"
                )
            assert entry is not None
            ids.append(entry.id)
            snapshot = (await stored_after(second, entry.id))[ann.id]
            assert snapshot is not None and f'"health":{9 - turn}' in snapshot.replace(" ", "")
        assert ids == sorted(set(ids)) and len(ids) == 6
        async with second.read() as reader:
            assert [e.id for e in await reader.history(GUILD_A, HistoryQuery(limit=6))] == ids[::-1]


@pytest.fixture
def engine() -> str:
    """SQLite's own behaviour (its file, connection or trips): SQLite only."""
    return "sqlite"
