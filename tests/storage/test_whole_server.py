"""Work over a whole server, and big servers (issue 19 point 8), on real files: a page of a
list reads only its rows from an index, counts read an index, a whole-server change reads the
characters it concerns a batch at a time (``Among`` says which, as the rules do), and a server
holds at most 1,000 characters."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.storage import BATCH_SIZE, Among, Storage, TooManyCharacters
from bot.storage.models import CharacterQuery, NewCharacter
from bot.storage.sqlite.character_writes import MAX_CHARACTERS
from bot.storage.sqlite.rows import NAME_KEY_COLUMNS, name_keys
from rules.character import CharacterHealth, Hospital
from rules.stability import CharacterStability
from tests.storage.conftest import SQLITE_ONLY

from .conftest import ALICE, GM, GUILD_A, GUILD_B, Interactions, create, health

#: Health states and flags, each with whether the rules say it bleeds (T1) and lives (H5).
STATES: list[tuple[str, CharacterHealth]] = [
    ("healthy", CharacterHealth.new(9, 0)),
    ("hurt", replace(CharacterHealth.new(9, 0), health=-3)),
    ("serious", replace(CharacterHealth.new(9, 0), health=-6, lowest_health=-6)),
    ("worst", replace(CharacterHealth.new(9, 0), health=-11, lowest_health=-11)),
    (
        "stable",
        replace(CharacterHealth.new(9, 0), health=-8, lowest_health=-8, stabilized=True),
    ),
    (
        "hospital",
        replace(CharacterHealth.new(9, 0), health=-8, lowest_health=-8, hospital=Hospital(8)),
    ),
    ("dead", replace(CharacterHealth.new(9, 0), health=-12, conscious=False)),
]


async def test_among_says_what_the_rules_say(storage: Storage, next_id: Interactions) -> None:
    async with storage.transaction() as tx:
        for name, state in STATES:
            await tx.create_character(NewCharacter(GUILD_A, name, ALICE, state))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    async with storage.transaction() as tx:
        await tx.create_character(NewCharacter(GUILD_B, "elsewhere", ALICE, STATES[2][1]))
        await tx.record(guild_id=GUILD_B, interaction_id=next_id(), actor_id=GM, command="c")
    async with storage.read() as reader:
        bleeding = await reader.batch_of_characters(GUILD_A, Among.BLEEDING)
        living = await reader.batch_of_characters(GUILD_A, Among.LIVING)
        counts = (
            await reader.count_among(GUILD_A, Among.BLEEDING),
            await reader.count_among(GUILD_A, Among.LIVING),
            await reader.head_count(GUILD_A),
        )
    by_rules = {name for name, state in STATES if state.is_bleeding}
    assert {c.name for c in bleeding} == by_rules == {"serious", "worst"}
    assert {c.name for c in living} == {name for name, state in STATES if not state.is_dead}
    assert counts == (2, 6, (7, 6, 0))


async def test_a_whole_server_is_read_a_batch_at_a_time(
    storage: Storage, next_id: Interactions
) -> None:
    async with storage.transaction() as tx:
        for number in range(BATCH_SIZE + 3):
            await tx.create_character(NewCharacter(GUILD_A, f"C{number:04d}", ALICE, health()))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    async with storage.read() as reader:
        first = await reader.batch_of_characters(GUILD_A, Among.LIVING)
        rest = await reader.batch_of_characters(GUILD_A, Among.LIVING, after_id=first[-1].id)
    assert len(first) == BATCH_SIZE and len(rest) == 3
    assert [c.id for c in first + rest] == sorted(c.id for c in first + rest)
    assert len({c.id for c in first + rest}) == BATCH_SIZE + 3


def plan(path: Path, sql: str, params: tuple[object, ...]) -> str:
    """SQLite's plan of a statement, its steps joined (``SEARCH c USING INDEX …``)."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
    return " / ".join(str(row[-1]) for row in rows)


@SQLITE_ONLY
@pytest.mark.parametrize("language", ["es", "en"])
async def test_a_page_of_a_list_reads_its_rows_in_order_from_an_index(
    storage: Storage, next_id: Interactions, db_path: Path, language: str
) -> None:
    """No sort of the whole server: SQLite walks the reading-key index and stops at the
    page's end (before, the order was a function computed for every row of the server)."""
    for name in ("Criada Úrsula", "Cónsul Britton", "Ñaque", "Nuño", "ana"):
        await create(storage, next_id, name)
    async with storage.read() as reader:
        page = await reader.list_characters(
            GUILD_A, CharacterQuery(limit=3, offset=1, language=language)
        )
    expected = {
        "es": ["Cónsul Britton", "Criada Úrsula", "Nuño"],
        "en": ["Cónsul Britton", "Criada Úrsula", "Ñaque"],
    }
    assert [c.name for c in page] == expected[language]
    reads: list[tuple[str, tuple[object, ...]]] = []
    async with storage.read() as reader:
        fetch_all = reader.fetch_all

        async def recorded(sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
            reads.append((sql, tuple(params)))
            return await fetch_all(sql, params)

        reader.fetch_all = recorded  # type: ignore[method-assign]
        await reader.list_characters(
            GUILD_A, CharacterQuery(living_only=True, limit=20, language=language)
        )
        await reader.head_count(GUILD_A)
        await reader.batch_of_characters(GUILD_A, Among.LIVING)
        await reader.batch_of_characters(GUILD_A, Among.BLEEDING)
        await reader.count_among(GUILD_A, Among.LIVING)
    # The very statements the storage sent, planned by SQLite on this file.
    page, count, living, bleeding, counted = (plan(db_path, *read) for read in reads)
    assert f"characters_reading_{language}" in page and "TEMP B-TREE" not in page, page
    assert "COVERING INDEX characters_health" in count, count
    assert "INDEX characters_out_of_play" in count, count  # the out of play: their own index
    assert "characters_guild" in living and "TEMP B-TREE" not in living, living
    assert "characters_health (guild_id=? AND health>? AND health<?)" in bleeding, bleeding
    assert "COVERING INDEX characters_health" in counted, counted


def fill(path: Path, guild: int, count: int) -> None:
    """``count`` characters written straight into the file, as the storage writes them."""
    keys = ", ".join(NAME_KEY_COLUMNS)
    marks = ", ".join("?" * len(NAME_KEY_COLUMNS))
    with sqlite3.connect(path) as connection:
        connection.executemany(
            f"INSERT INTO characters (guild_id, name, {keys}, owner_id, created_at, health,"
            " max_health, first_aid_pool, first_aid_rating, scene_start_health, conscious,"
            " roll_pending, stabilized, lowest_health, first_aid_received, bleed_minutes,"
            " full_recovery_due) VALUES (?, ?, "
            f"{marks}, ?, '2024-01-01T00:00:00+00:00', 9, 9, 0, 0, 9, 1, 0, 0, NULL, 0, 0, 0)",
            [(guild, f"Extra {n}", *name_keys(f"Extra {n}"), ALICE) for n in range(count)],
        )


@SQLITE_ONLY
async def test_a_server_holds_at_most_a_thousand_characters(
    storage: Storage, next_id: Interactions, db_path: Path
) -> None:
    assert MAX_CHARACTERS == 1000
    fill(db_path, GUILD_A, MAX_CHARACTERS - 1)
    last = await create(storage, next_id, "The thousandth")
    with pytest.raises(TooManyCharacters) as refused:
        await create(storage, next_id, "One too many")
    assert refused.value.limit == MAX_CHARACTERS
    await create(storage, next_id, "Elsewhere", guild=GUILD_B)  # another server has room
    async with storage.read() as reader:
        assert (await reader.head_count(GUILD_A))[0] == MAX_CHARACTERS
    # Deleting one makes room; an undo may bring back what it removed even when full.
    async with storage.transaction() as tx:
        await tx.delete_character(GUILD_A, last.id)
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="d")
    await create(storage, next_id, "Now there is room")
    async with storage.transaction() as tx:
        assert await tx.undo_latest(GUILD_A, next_id(), GM) is not None  # the creation
    async with storage.transaction() as tx:
        undone = await tx.undo_latest(GUILD_A, next_id(), GM)  # the deletion: it returns
    assert undone is not None and [c.name for c in undone.restored] == ["The thousandth"]


@SQLITE_ONLY
async def test_the_out_of_play_are_counted_and_listed_apart_from_their_own_index(
    storage: Storage, next_id: Interactions, db_path: Path
) -> None:
    """M4, issue 24: the living incurably insane are out of play (a closing line of their
    own); a character without Stability (its pool NULL) is in play; a dead one is dead."""
    minds = {
        "plain": (health(), None),
        "steady": (health(), CharacterStability.new(8)),
        "insane": (health(), CharacterStability(pool=-12, rating=8)),
        "dead and insane": (replace(health(), health=-12), CharacterStability(pool=-13, rating=8)),
        "dead": (replace(health(), health=-12), None),
    }
    async with storage.transaction(guild_id=GUILD_A) as tx:
        for name, (body, mind) in minds.items():
            await tx.create_character(NewCharacter(GUILD_A, name, ALICE, body, stability=mind))
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    async with storage.read() as reader:
        assert await reader.head_count(GUILD_A) == (5, 3, 1)
        in_play = await reader.list_characters(
            GUILD_A, CharacterQuery(living_only=True, out_of_play=False)
        )
        out = await reader.list_characters(GUILD_A, CharacterQuery(out_of_play=True))
        listed = await reader.list_characters(GUILD_A, CharacterQuery(out_of_play=False))
        assert await reader.count_characters(GUILD_A, out_of_play=False) == 4
    assert [c.name for c in in_play] == ["plain", "steady"]
    assert [c.name for c in out] == ["insane"]
    assert [c.name for c in listed] == ["dead", "dead and insane", "plain", "steady"]
    listing = (
        "SELECT id FROM characters AS c INDEXED BY characters_out_of_play WHERE c.guild_id = ?"
        " AND c.stability_pool <= -12 AND c.health > ?"
    )
    assert "INDEX characters_out_of_play" in plan(db_path, listing, (GUILD_A, -12))
