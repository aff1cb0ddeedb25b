"""``/history`` lines (bot/render/history.py; COMMANDS.md, History): one line per entry with the
server's number, a Discord timestamp, who, and what happened in words with the Health it
moved — a character's name once, values that did not move left out, a test with its outcome;
said by the type of the entry's details, whatever version stored them."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.i18n import Language
from bot.render.history import MAX_LINE_LENGTH, Sentence, history_lines, sentence_of
from bot.storage import HistoryCharacter, HistoryEntry, StoredCharacter
from bot.storage.details import (
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
    RollNumbers,
    SceneNewDetails,
    TimeDetails,
    UndoDetails,
    UnknownDetails,
    details_of,
)
from tests.e2e.kit.internals import leaks_in
from tests.rules.factories import character
from tests.storage.test_history_details import STORED

EN, ES = Language.EN, Language.ES
WHEN = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
STAMP = f"<t:{int(WHEN.timestamp())}:R>"


def sheet(character_id: int, name: str, **health: object) -> StoredCharacter:
    return StoredCharacter(
        id=character_id,
        guild_id=10,
        name=name,
        owner_id=7,
        health=character(**health),  # type: ignore[arg-type]
    )


def moved(before: StoredCharacter, health: int) -> HistoryCharacter:
    """``before``, then its Health at ``health``."""
    after = replace(before, health=replace(before.health, health=health))
    return HistoryCharacter(before.id, before.name, before, after)


def entry(
    number: int,
    details: Details,
    *changes: HistoryCharacter,
    undone_by: int | None = None,
    undo_of_number: int | None = None,
) -> HistoryEntry:
    """Entry ``number`` of its server; its id is far from it, as in a busy database."""
    return HistoryEntry(
        id=9000 + number,
        guild_id=10,
        number=number,
        interaction_id=1000 + number,
        created_at=WHEN,
        actor_id=42,
        command=details.command or "create",
        details=details,
        undo_of=None if undo_of_number is None else 9000 + undo_of_number,
        undone_by=undone_by,
        characters=changes,
        undo_of_number=undo_of_number,
    )


JACK = sheet(1, "Jack Malone", health=-3, max_health=9)
CLARA = sheet(2, "Hermana Clara", health=-3, max_health=6)
TOMAS = sheet(3, "Padre Tomás", health=7, max_health=8, first_aid=5, pool=5)


def test_a_hurt_says_the_name_once_and_its_health_after_a_colon() -> None:
    hurt = entry(8, HurtDetails("2d6+6", (HurtTarget(15, (4, 5)),)), moved(JACK, -18))
    (english,) = history_lines([hurt], EN)
    assert english == f"#8 · {STAMP} · <@42> · Jack Malone takes 15 damage (2d6+6): -3 → -18"
    (spanish,) = history_lines([hurt], ES)
    assert spanish.endswith("· Jack Malone recibe 15 de daño (2d6+6): -3 → -18")
    assert spanish.count("Jack Malone") == 1
    bite = entry(9, HurtDetails("3", (HurtTarget(3),), "mordisco"), moved(JACK, -6))
    (line,) = history_lines([bite], ES)
    assert line.endswith("Jack Malone recibe 3 de daño (mordisco): -3 → -6"), line


def test_a_first_aid_leaves_out_the_medics_health_which_did_not_move() -> None:
    medic_after = replace(TOMAS, health=replace(TOMAS.health, first_aid_pool=3))
    aid = entry(
        4,
        FirstAidDetails("Padre Tomás", points=2, spent=2, restored=4, patient="Hermana Clara"),
        moved(CLARA, 1),
        HistoryCharacter(3, "Padre Tomás", TOMAS, medic_after),
    )
    (english,) = history_lines([aid], EN)
    assert english.endswith("· Padre Tomás gives Hermana Clara First Aid (2 points): -3 → 1")
    (spanish,) = history_lines([aid], ES)
    assert spanish.endswith("· Padre Tomás da Primeros Auxilios a Hermana Clara (2 puntos): -3 → 1")
    assert "6 → 6" not in spanish and "7 → 7" not in spanish


def test_a_test_says_its_outcome() -> None:
    check = entry(
        5,
        CheckDetails("Scuffling", "2 + 1 = 3 vs 4", False),
        HistoryCharacter(3, "Padre Tomás", TOMAS, TOMAS),
    )
    assert history_lines([check], EN)[0].endswith(
        "Padre Tomás's Scuffling test, 2 + 1 = 3 vs 4: failed"
    )
    spanish = history_lines(
        [replace(check, details=CheckDetails("Escaramuza", "5 + 1 = 6 vs 4", True))], ES
    )
    assert spanish[0].endswith("Prueba de Escaramuza de Padre Tomás, 5 + 1 = 6 vs 4: éxito")
    attack = replace(check, details=CheckDetails("Scuffling", "2 + 1 = 3 vs 3", True, attack=True))
    assert history_lines([attack], EN)[0].endswith(
        "Padre Tomás's Scuffling attack, 2 + 1 = 3 vs 3: hit"
    )
    roll = entry(6, ConsciousDetails("2 + 1 = 3 vs 4", False), moved(JACK, -4))
    assert history_lines([roll], EN)[0].endswith(
        "Jack Malone's Consciousness roll, 2 + 1 = 3 vs 4: failed; Health -3 → -4"
    )
    assert history_lines([roll], ES)[0].endswith(
        "Tirada de Consciencia de Jack Malone, 2 + 1 = 3 vs 4: fallo; Salud -3 → -4"
    )


#: Each command whose entry holds a roll: the key of the roll, the rest of its details, and
#: its line for a roll of ``2 + 1 = 3 vs 4`` in English and in Spanish.
ROLLED = [
    (
        "conscious",
        "roll",
        {"success": False},
        "Jack Malone's Consciousness roll, 2 + 1 = 3 vs 4: failed",
        "Tirada de Consciencia de Jack Malone, 2 + 1 = 3 vs 4: fallo",
    ),
    (
        "check",
        "roll",
        {"ability": "Scuffling", "success": False},
        "Jack Malone's Scuffling test, 2 + 1 = 3 vs 4: failed",
        "Prueba de Scuffling de Jack Malone, 2 + 1 = 3 vs 4: fallo",
    ),
    (
        "stability roll",
        "roll",
        {"success": False, "loss": 4, "lost": 4},
        "Jack Malone's Stability test, 2 + 1 = 3 vs 4: failed",
        "Prueba de Estabilidad de Jack Malone, 2 + 1 = 3 vs 4: fallo",
    ),
    (
        "spend",
        "composure",
        {"ability": "Occult", "points": 1, "kept": False},
        "Jack Malone spends 1 point of Occult; composure 2 + 1 = 3 vs 4: falters",
        "Jack Malone gasta 1 punto de Occult; compostura 2 + 1 = 3 vs 4: flaquea",
    ),
]
#: Jack Malone, touched by an entry that moved none of his values.
UNMOVED = HistoryCharacter(JACK.id, JACK.name, JACK, JACK)


@pytest.mark.parametrize(("command", "key", "rest", "english", "spanish"), ROLLED)
def test_a_roll_stored_as_numbers_or_as_older_text_says_the_same_line(
    command: str, key: str, rest: dict[str, object], english: str, spanish: str
) -> None:
    """Issue 25.2: an entry stores its roll's numbers; the text older entries stored reads as
    those numbers, and either says what /history always said."""
    numbers = {"die": 2, "added": 1, "total": 3, "difficulty": 4}
    new = details_of(command, {key: numbers, **rest})
    assert getattr(new, key) == RollNumbers(die=2, added=1, total=3, difficulty=4)
    assert new.stored()[key] == numbers, "numbers, not words"
    old = details_of(command, {key: "2 + 1 = 3 vs 4", **rest})
    assert old == new
    for details in (new, old):
        lines = [history_lines([entry(6, details, UNMOVED)], lang)[0] for lang in (EN, ES)]
        assert lines == [f"#6 · {STAMP} · <@42> · {line}" for line in (english, spanish)]


@pytest.mark.parametrize(("command", "key", "rest", "english", "spanish"), ROLLED)
@pytest.mark.parametrize("stored", ["2 + 1 = 3 contra 4", "02 + 1 = 3 vs 4", "2 + 1 = 3", ""])
def test_a_roll_stored_as_text_of_another_shape_is_said_as_it_was_stored(
    command: str, key: str, rest: dict[str, object], english: str, spanish: str, stored: str
) -> None:
    """Text no version wrote as a roll (a tool's, a hand-made row) still reads, and is said as
    stored: never "a change", never an error."""
    details = details_of(command, {key: stored, **rest})
    assert not isinstance(details, UnknownDetails) and getattr(details, key) == stored
    assert details.stored()[key] == stored
    for language, line in ((EN, english), (ES, spanish)):
        said = line.replace("2 + 1 = 3 vs 4", stored)
        assert history_lines([entry(6, details, UNMOVED)], language)[0].endswith(f" · {said}")


def test_four_targets_are_each_said_with_their_damage_and_nothing_is_cut() -> None:
    names = ["Jack Malone", "Hermana Clara", "Padre Tomás", "Amelia Ríos"]
    blow = HurtDetails(
        "1d6",
        tuple(HurtTarget(d, (d,), n) for d, n in zip((4, 3, 6, 2), names, strict=True)),
        "explosión",
    )
    changes = [
        moved(sheet(i, n, health=8), 8 - d)
        for i, (d, n) in enumerate(zip((4, 3, 6, 2), names, strict=True))
    ]
    (spanish,) = history_lines([entry(7, blow, *changes)], ES)
    assert spanish.endswith(
        "· Un mismo golpe (1d6, explosión): Jack Malone recibe 4 (8 → 4), Hermana Clara recibe 3"
        " (8 → 5), Padre Tomás recibe 6 (8 → 2) y Amelia Ríos recibe 2 (8 → 6)"
    ), spanish
    (english,) = history_lines([entry(7, blow, *changes)], EN)
    assert "One blow (1d6, explosión): Jack Malone takes 4 (8 → 4)" in english
    assert english.endswith("and Amelia Ríos takes 2 (8 → 6)") and "+1" not in english


def test_several_characters_are_named_each_and_a_crowd_is_counted_in_words() -> None:
    two = entry(3, TimeDetails(90), moved(JACK, -4), moved(CLARA, -4))
    assert history_lines([two], ES)[0].endswith(
        "El tiempo de juego avanza 1 h 30 min: Jack Malone -3 → -4, Hermana Clara -3 → -4"
    )
    crowd = [moved(sheet(i, "N" * 40, health=9), 8) for i in range(50)]
    (line,) = history_lines([entry(7, TimeDetails(10), *crowd)], EN)
    assert len(line) <= MAX_LINE_LENGTH
    assert line.endswith(tuple(f" and {n} more" for n in range(1, 50))), line
    scene = entry(
        7,
        SceneNewDetails(),
        *(HistoryCharacter(i, "N", sheet(i, "N"), sheet(i, "N")) for i in range(9)),
    )
    assert history_lines([scene], EN)[0].endswith("· New scene")


def test_a_correction_says_what_it_set_besides_health_once() -> None:
    fix = entry(2, CharacterSetDetails(health=-8, first_aid=0, conscious=False), moved(JACK, -8))
    assert history_lines([fix], ES)[0].endswith(
        "Corrección del DJ a Jack Malone (Primeros Auxilios 0, cae inconsciente): -3 → -8"
    )
    gender = entry(
        3,
        CharacterSetDetails(gender="feminine"),
        HistoryCharacter(2, "Hermana Clara", CLARA, CLARA),
    )
    assert history_lines([gender], EN)[0].endswith(
        "GM's correction of Hermana Clara (gender: she/her)"
    )
    assert history_lines([gender], ES)[0].endswith(
        "Corrección del DJ a Hermana Clara (género: femenino)"
    )
    wider = replace(JACK, health=replace(JACK.health, max_health=10))
    bigger = entry(
        4, CharacterSetDetails(max_health=10), HistoryCharacter(1, "Jack Malone", JACK, wider)
    )
    assert history_lines([bigger], EN)[0].endswith("GM's correction of Jack Malone: -3/9 → -3/10")


def test_an_undo_and_the_entry_it_undid_say_the_servers_numbers() -> None:
    hurt = entry(11, HurtDetails("4", (HurtTarget(4),)), moved(JACK, -7), undone_by=9012)
    back = HistoryCharacter(1, "Jack Malone", hurt.characters[0].after, JACK)
    undo = entry(12, UndoDetails(9011, "hurt"), back, undo_of_number=11)
    english = history_lines([undo, hurt], EN)
    assert english[0] == f"#12 · {STAMP} · <@42> · Undoes #11: Jack Malone -7 → -3"
    assert (
        english[1] == f"~~#11 · {STAMP} · <@42> · Jack Malone takes 4 damage: -3 → -7~~ *(undone)*"
    )
    spanish = history_lines([undo, hurt], ES)
    assert spanish[0].endswith("· Deshace #11: Jack Malone -7 → -3")
    assert spanish[1].endswith("~~ *(deshecho)*")
    amelia = sheet(5, "Amelia Ríos", health=2)
    returned = entry(
        14,
        UndoDetails(9013, "character delete"),
        HistoryCharacter(5, "Amelia Ríos", None, amelia),
        undo_of_number=13,
    )
    assert history_lines([returned], ES)[0].endswith(
        "· Deshace #13: Amelia Ríos vuelve a la partida"
    )
    assert history_lines([returned], EN)[0].endswith("· Undoes #13: Amelia Ríos returns to play")


def test_creation_deletion_and_rename_are_sentences_of_their_own() -> None:
    amelia = sheet(5, "Amelia Ríos", health=9)
    made = entry(
        1,
        CharacterCreateDetails("Amelia Ríos", 9, 2),
        HistoryCharacter(5, "Amelia Ríos", None, amelia),
    )
    gone = entry(
        2, CharacterDeleteDetails("Amelia Ríos"), HistoryCharacter(5, "Amelia Ríos", amelia, None)
    )
    renamed = entry(
        3,
        CharacterRenameDetails("Dmitri Volkov", "Дмитрий Волков"),
        HistoryCharacter(
            6, "Дмитрий Волков", sheet(6, "Dmitri Volkov"), sheet(6, "Дмитрий Волков")
        ),
    )
    assert [line.split(" · ")[-1] for line in history_lines([made, gone, renamed], ES)] == [
        "Amelia Ríos entra en juego (Salud 9, Primeros Auxilios 2)",
        "Se borra la ficha de Amelia Ríos",
        "Dmitri Volkov pasa a llamarse Дмитрий Волков",
    ]
    assert [line.split(" · ")[-1] for line in history_lines([made, gone, renamed], EN)] == [
        "Amelia Ríos joins the game (Health 9, First Aid 2)",
        "Amelia Ríos's sheet is deleted",
        "Dmitri Volkov is renamed Дмитрий Волков",
    ]


def test_an_entry_of_a_command_no_longer_known_is_a_change_with_its_values() -> None:
    unknown = entry(3, UnknownDetails("stability test", {"loss": 4}), moved(JACK, -4))
    assert history_lines([unknown], EN)[0].endswith("· A change: Jack Malone -3 → -4")
    assert history_lines([unknown], ES)[0].endswith("· Un cambio: Jack Malone -3 → -4")


@pytest.mark.parametrize(("command", "stored", "_expected"), STORED)
@pytest.mark.parametrize("language", list(Language))
def test_every_shape_ever_stored_says_a_sentence_with_no_internals(
    command: str, stored: str, _expected: Details, language: Language
) -> None:
    details = details_of(command, json.loads(stored))
    assert not isinstance(details, UnknownDetails)
    names = ("Ana", "Bea") if command in {"firstaid", "/hurt"} else ("Ana",)
    changes = tuple(moved(sheet(i, name, health=5), 2) for i, name in enumerate(names))
    said = sentence_of(details, entry(1, details, *changes, undo_of_number=1), language)
    assert isinstance(said, Sentence) and said.words
    (line,) = history_lines([entry(1, details, *changes, undo_of_number=1)], language)
    assert leaks_in(line) == [], line
    for internal in ("{", "}", "amount", "dealt", "targets", "undo_of", "None", "?"):
        assert internal not in line, (internal, line)


def test_lines_carry_no_option_syntax_or_stored_values() -> None:
    lines = [
        entry(1, CharacterSetDetails(conscious=True, gender="masculine"), moved(JACK, 2)),
        entry(2, FirstAidDetails("Bea", 2, 2, 0, stabilized=True, patient="Ana"), moved(JACK, -3)),
    ]
    for language in Language:
        for line in history_lines(lines, language):
            assert leaks_in(line) == [], line
        pronoun = {Language.EN: "he/him", Language.ES: "masculino"}[language]
        assert pronoun in history_lines(lines, language)[0]
