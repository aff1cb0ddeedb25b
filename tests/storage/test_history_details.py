"""History details typed (issue 18.4): one frozen dataclass per command, stored as JSON and read
back, including every shape an older version of Salud stored."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from bot.storage import Storage, details
from bot.storage.details import (
    AbilityRemoveDetails,
    AbilitySetDetails,
    CharacterCreateDetails,
    CharacterDeleteDetails,
    CharacterRenameDetails,
    CharacterSetDetails,
    CheckDetails,
    ConsciousDetails,
    Details,
    FirstAidDetails,
    HurtDetails,
    HurtTarget,
    RefreshDetails,
    RestDetails,
    RollNumbers,
    SceneNewDetails,
    SpendDetails,
    StabilityRollDetails,
    TimeDetails,
    UndoDetails,
    UnknownDetails,
    check_fields,
    details_class,
    details_classes,
    details_of,
)
from bot.storage.interface import HistoryQuery
from bot.storage.snapshot import dump_json
from rules.character import CharacterHealth
from tests.storage.conftest import SQLITE_ONLY

from .conftest import GM, GUILD_A, Interactions, create

#: (command, the JSON a version of Salud stored, what it reads as). The comments say which
#: version wrote the shape; none of them may stop reading.
STORED: list[tuple[str, str, Details]] = [
    # /hurt of one target (76f1f15 on): flat, dice only when rolled.
    (
        "hurt",
        '{"amount": "1d6+1", "dealt": 4, "dice": [3], "reason": "mordisco"}',
        HurtDetails("1d6+1", (HurtTarget(4, (3,)),), "mordisco"),
    ),
    ("hurt", '{"amount": "5", "dealt": 5}', HurtDetails("5", (HurtTarget(5),))),
    # /hurt of several targets (5611f4a on).
    (
        "hurt",
        '{"amount": "2d6+1", "targets": [{"name": "Amelia Ríos", "dealt": 8, "dice": [3, 4]},'
        ' {"name": "Bruno", "dealt": 11, "dice": [5, 5]}], "reason": "explosion"}',
        HurtDetails(
            "2d6+1",
            (HurtTarget(8, (3, 4), "Amelia Ríos"), HurtTarget(11, (5, 5), "Bruno")),
            "explosion",
        ),
    ),
    # An amount stored as a number (tests and tools did), and a leading "/" on the command.
    ("/hurt", '{"amount": 3, "dealt": 3, "dice": [3]}', HurtDetails("3", (HurtTarget(3, (3,)),))),
    # A roll as text (before its numbers), read as its numbers; then its numbers.
    (
        "conscious",
        '{"roll": "2 + 1 = 3 vs 4", "success": false}',
        ConsciousDetails(RollNumbers(2, 1, 3, 4), False),
    ),
    (
        "conscious",
        '{"roll": {"added": 1, "die": 2, "difficulty": 4, "total": 3}, "success": false}',
        ConsciousDetails(RollNumbers(2, 1, 3, 4), False),
    ),
    (
        "firstaid",
        '{"medic": "Bea", "points": 2, "spent": 1, "restored": 2}',
        FirstAidDetails("Bea", points=2, spent=1, restored=2),
    ),
    (
        "firstaid",
        '{"medic": "Bea", "points": 2, "spent": 2, "restored": 0, "stabilized": true}',
        FirstAidDetails("Bea", points=2, spent=2, restored=0, stabilized=True),
    ),
    ("rest", '{"days": 2, "hospital": true}', RestDetails(2, hospital=True)),
    ("rest", '{"days": 1, "hospital": false}', RestDetails(1)),
    ("time", '{"minutes": 45}', TimeDetails(45)),
    ("refresh", "{}", RefreshDetails()),
    ("refresh", '{"character": "Ana"}', RefreshDetails("Ana")),
    ("scene new", "{}", SceneNewDetails()),
    # /character create with the player as a mention (39d947d on) and a gender (0006 on).
    (
        "character create",
        '{"name": "Ana", "health": 9, "first_aid": 0, "player": "<@42>", "gender": "feminine"}',
        CharacterCreateDetails("Ana", 9, 0, player_id=42, gender="feminine"),
    ),
    (
        "character create",
        '{"name": "Ana", "health": 9, "first_aid": 2}',
        CharacterCreateDetails("Ana", 9, 2),
    ),
    (
        "character set",
        '{"health": -7, "max_health": 10, "first_aid": 0}',
        CharacterSetDetails(health=-7, max_health=10, first_aid=0),
    ),
    (
        "character set",
        '{"conscious": false, "gender": "none"}',
        CharacterSetDetails(conscious=False, gender="none"),
    ),
    # /character rename: "name"/"new_name" (1a213d7), then "from"/"to" (ee107f1 on).
    (
        "character rename",
        '{"name": "Ana", "new_name": "Anabel"}',
        CharacterRenameDetails("Ana", "Anabel"),
    ),
    (
        "character rename",
        '{"from": "Ana", "to": "Anabel"}',
        CharacterRenameDetails("Ana", "Anabel"),
    ),
    ("character delete", '{"name": "Ana"}', CharacterDeleteDetails("Ana")),
    (
        "ability set",
        '{"ability": "Athletics", "kind": "general", "pool": 1, "rating": 8}',
        AbilitySetDetails("Athletics", 8, pool=1, kind="general"),
    ),
    # The pools as text (57e7a9d on): the snapshots hold them; the sentence needs the name.
    (
        "ability remove",
        '{"ability": "Library Use", "pool": "3/3"}',
        AbilityRemoveDetails("Library Use"),
    ),
    (
        "spend",
        '{"ability": "Athletics", "points": 2, "pool": "6 → 4"}',
        SpendDetails("Athletics", 2),
    ),
    (
        "check",
        '{"ability": "Scuffling", "roll": "2 + 1 = 3 vs 4", "success": false, "attack": true}',
        CheckDetails("Scuffling", RollNumbers(2, 1, 3, 4), False, attack=True),
    ),
    (
        "check",
        '{"ability": "Athletics", "roll": "5 + 1 = 6 vs 4", "success": true}',
        CheckDetails("Athletics", RollNumbers(5, 1, 6, 4), True),
    ),
    (
        "check",
        '{"ability": "Athletics", "roll": {"added": 0, "die": 6, "difficulty": 4, "total": 6},'
        ' "success": true}',
        CheckDetails("Athletics", RollNumbers(6, 0, 6, 4), True),
    ),
    # A roll as text that does not read as numbers (a tool's, a hand-made row): kept as it was.
    (
        "check",
        '{"ability": "Athletics", "roll": "6 + 0 = 6 contra 4", "success": true}',
        CheckDetails("Athletics", "6 + 0 = 6 contra 4", True),
    ),
    # A Shaken spend's composure test as text (before its numbers), then its numbers.
    (
        "spend",
        '{"ability": "Occult", "points": 1, "composure": "1 + 0 = 1 vs 2", "kept": false}',
        SpendDetails("Occult", 1, RollNumbers(1, 0, 1, 2), kept=False),
    ),
    (
        "spend",
        '{"ability": "Occult", "points": 1, "composure": {"added": 1, "die": 6, "difficulty": 5,'
        ' "total": 7}, "kept": true}',
        SpendDetails("Occult", 1, RollNumbers(6, 1, 7, 5), kept=True),
    ),
    # A Stability test rolled, as text (before its numbers), then its numbers.
    (
        "stability roll",
        '{"roll": "3 + 1 = 4 vs 6", "success": false, "loss": 4, "lost": 4}',
        StabilityRollDetails(RollNumbers(3, 1, 4, 6), False, loss=4, lost=4),
    ),
    (
        "stability roll",
        '{"roll": {"added": 0, "die": 5, "difficulty": 4, "total": 5}, "success": true,'
        ' "loss": 3, "lost": 1}',
        StabilityRollDetails(RollNumbers(5, 0, 5, 4), True, loss=3, lost=1),
    ),
    ("undo", '{"undo_of": 12, "command": "hurt"}', UndoDetails(12, "hurt")),
]


@pytest.mark.parametrize(("command", "stored", "expected"), STORED)
def test_every_shape_ever_stored_reads_typed(command: str, stored: str, expected: Details) -> None:
    read = details_of(command, json.loads(stored))
    assert read == expected
    assert type(read).command == command.removeprefix("/")


@pytest.mark.parametrize(
    ("command", "stored"),
    [
        ("create", "{}"),  # a command no class reads (tests, tools)
        ("stability test", '{"loss": 4}'),  # a command of a version this one does not know
        ("hurt", '{"amount": "5"}'),  # no damage: the shape no longer reads
        ("rest", '{"days": "two"}'),  # a field of another type
        ("hurt", '{"amount": "5", "targets": []}'),
        ("time", "[1, 2]"),  # not an object
    ],
)
def test_what_does_not_read_is_an_unknown_change_kept_as_stored(command: str, stored: str) -> None:
    parsed: Any = json.loads(stored)
    read = details_of(command, parsed)
    assert isinstance(read, UnknownDetails) and read.command_name == command
    assert read.stored() == (parsed if isinstance(parsed, dict) else {})


def test_a_roll_as_text_reads_as_numbers_only_when_its_numbers_say_it_the_same() -> None:
    """An older entry's roll, ``DIE + SPEND = TOTAL vs DIFFICULTY``, reads as its numbers when
    they would say it again as stored (a negative Difficulty too); any other text stays text,
    and an entry reads whatever its roll holds."""
    read = details_of("conscious", {"roll": "1 + 0 = 1 vs -2", "success": False})
    assert read == ConsciousDetails(RollNumbers(1, 0, 1, -2), False)
    for kept in ("01 + 0 = 1 vs 2", "1 + 0 = 1 vs 2 ", "١ + 0 = 1 vs 2", "1 + -0 = 1 vs 2"):
        assert details_of("conscious", {"roll": kept, "success": False}) == (
            ConsciousDetails(kept, False)
        )
    numbers = {"die": 1, "added": 0, "total": 1, "difficulty": 2}
    assert SpendDetails("Occult", 1, RollNumbers(1, 0, 1, 2), kept=False).stored() == {
        "ability": "Occult",
        "points": 1,
        "composure": numbers,
        "kept": False,
    }
    assert details_of("spend", {"ability": "Occult", "points": 1}) == SpendDetails("Occult", 1)


def test_an_optional_field_of_another_type_takes_its_default() -> None:
    assert details_of("rest", {"days": 2, "hospital": "yes"}) == RestDetails(2)
    assert details_of("character set", {"gender": "feminine", "conscious": 1}) == (
        CharacterSetDetails(gender="feminine")
    )


EXAMPLES: list[Details] = [expected for _command, _stored, expected in STORED] + [
    FirstAidDetails("Bea", 2, 1, 2, patient="Ana"),
    HurtDetails("1d6", (HurtTarget(4, (4,), "Ana"),)),  # one target: its name is the entry's
]


@pytest.mark.parametrize("details", EXAMPLES, ids=lambda d: type(d).__name__)
def test_what_is_stored_reads_back_the_same(details: Details) -> None:
    stored = json.loads(dump_json(details.stored()))
    read = details_of(details.command, stored)
    if isinstance(details, HurtDetails) and len(details.targets) == 1:
        # One target is stored flat, without its name (the entry's one character).
        details = dataclasses.replace(
            details, targets=(dataclasses.replace(details.targets[0], name=None),)
        )
    assert read == details


def test_the_json_shapes_others_read_are_kept() -> None:
    """``tests/reliability`` reads a /hurt's ``dealt``, ``tests/e2e`` its ``targets``."""
    one = HurtDetails("1d6+1", (HurtTarget(4, (3,), "Ana"),), "garra").stored()
    assert one == {"amount": "1d6+1", "dealt": 4, "dice": [3], "reason": "garra"}
    two = HurtDetails("5", (HurtTarget(5, (), "Ana"), HurtTarget(5, (), "Bea"))).stored()
    assert two == {
        "amount": "5",
        "targets": [{"name": "Ana", "dealt": 5}, {"name": "Bea", "dealt": 5}],
    }
    assert CharacterRenameDetails("Ana", "Anabel").stored() == {"from": "Ana", "to": "Anabel"}
    assert UndoDetails(12, "hurt").stored() == {"undo_of": 12, "command": "hurt"}
    assert RefreshDetails().stored() == {}


def test_every_command_of_the_bot_has_one_class_whose_fields_read() -> None:
    commands = {
        "hurt", "conscious", "firstaid", "rest", "time", "refresh", "scene new",
        "character create", "character set", "character rename", "character delete",
        "ability set", "ability remove", "spend", "check", "undo",
    }  # fmt: skip
    assert commands <= set(details_classes())
    for command, found in details_classes().items():
        assert found.command == command and details_class(f"/{command}") is found
        check_fields(found)  # a field of a type ``read`` does not know fails here


def test_a_field_of_a_type_read_does_not_know_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Odd:
        when: float

    @dataclasses.dataclass(frozen=True)
    class Pair:
        both: tuple[int, str]

    for odd in (Odd, Pair):
        with pytest.raises(TypeError, match="details"):
            check_fields(odd)
    check_fields(HurtDetails)


def test_a_command_is_registered_once_and_a_new_one_needs_only_its_class() -> None:
    with pytest.raises(ValueError, match="two details classes"):

        @dataclasses.dataclass(frozen=True)
        class Again(Details, command="rest"):
            days: int

    @dataclasses.dataclass(frozen=True)
    class LucidityDetails(Details, command="test lucidity"):
        points: int
        lucid: bool = False
        patient: str | None = None

    try:
        read = details_of("test lucidity", {"points": 2, "lucid": True})
        assert read == LucidityDetails(2, True)
        assert read.stored() == {"points": 2, "lucid": True}
    finally:
        details._REGISTERED.pop("test lucidity")


@SQLITE_ONLY
async def test_entries_stored_by_older_versions_read_back_typed(
    storage: Storage, next_id: Interactions
) -> None:
    """The rows as older versions left them, read by the storage's own queries."""
    ann = await create(storage, next_id, "Ann")  # entry #1 (a command no class reads)
    rows = [(command, stored) for command, stored, _expected in STORED]
    for number, (command, stored) in enumerate(rows, start=2):
        await storage._conn.execute(
            "INSERT INTO history (guild_id, number, interaction_id, actor_id, command, details,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, '2024-01-01T00:00:00+00:00')",
            (GUILD_A, number, next_id(), GM, command, stored),
        )
    async with storage.read() as reader:
        entries = await reader.history(GUILD_A, HistoryQuery(limit=len(rows) + 1))
    assert [e.details for e in reversed(entries[:-1])] == [e for _c, _s, e in STORED]
    assert isinstance(entries[-1].details, UnknownDetails) and entries[-1].command == "create"
    assert entries[-1].characters[0].character_id == ann.id


async def test_a_command_records_its_details_and_nothing_else(
    storage: Storage, next_id: Interactions
) -> None:
    ann = await create(storage, next_id, "Ann")
    async with storage.transaction(guild_id=GUILD_A) as tx:
        await tx.save_health(ann, CharacterHealth.new(9, 3))
        with pytest.raises(TypeError, match="details of /rest"):
            await tx.record(
                guild_id=GUILD_A,
                interaction_id=next_id(),
                actor_id=GM,
                command="rest",
                details=TimeDetails(5),
            )
        entry = await tx.record(
            guild_id=GUILD_A,
            interaction_id=next_id(),
            actor_id=GM,
            command="rest",
            details=RestDetails(2),
        )
    assert entry is not None and entry.details == RestDetails(2)
    async with storage.read() as reader:
        (row,) = await reader.fetch_all("SELECT details FROM history WHERE id = ?", (entry.id,))
        (stored,) = await reader.history(GUILD_A, HistoryQuery(limit=1))
    assert json.loads(row["details"]) == {"days": 2, "hospital": False}
    assert stored.details == RestDetails(2)
