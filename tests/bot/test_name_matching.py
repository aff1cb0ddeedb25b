"""Name folding, word starts, the confusable skeleton and close names (COMMANDS.md Names)."""

from __future__ import annotations

import pytest

from bot.features.characters.names import NameEntry, close_names, rank_choices, resolve_name
from bot.storage import LightCharacter
from bot.storage.names import look_key, skeleton
from rules import clean_name, fold_name, starts_a_word


@pytest.mark.parametrize(
    "typed",
    ["Amelia Rios", "AMELIA RÍOS", "Ａｍｅｌｉａ Ríos", "amelia\u00a0rios", " amelia  rios "],
)
def test_fold_ignores_case_accents_width_and_spaces(typed: str) -> None:
    assert fold_name(typed) == fold_name("Amelia Ríos") == "amelia rios"


def test_fold_keeps_different_letters_apart() -> None:
    assert fold_name("Ana") != fold_name("Ano")
    assert fold_name("Peña") == fold_name("Pena")  # accents (the tilde too) are ignored
    assert fold_name("\u0410na") != fold_name("Ana")  # Cyrillic: a lookalike, not the same


def test_clean_name_makes_each_run_of_spaces_one_space() -> None:
    assert clean_name("Ana\u00a0\u3000 Bel") == "Ana Bel"


@pytest.mark.parametrize(
    ("name", "typed", "expected"),
    [
        ("amelia rios", "amelia", True),
        ("amelia rios", "rios", True),
        ("amelia rios", "amelia r", True),
        ("amelia rios", "elia", False),
        ("sgt. o'malley", "malley", True),
        ("amelia rios", "", False),
    ],
)
def test_starts_a_word(name: str, typed: str, expected: bool) -> None:
    assert starts_a_word(name, typed) is expected


def test_skeleton_maps_lookalike_scripts() -> None:
    assert skeleton("\u0410na") == skeleton("Ana")
    assert look_key("ＡＮＡ") == look_key("\u0410na") == look_key("ana")
    assert look_key("Olga") == look_key("\u041elga")
    assert look_key("Ana") != look_key("Ano")


def entry(character_id: int, name: str, owner_id: int) -> NameEntry:
    return NameEntry.of(LightCharacter(character_id, 1, name, owner_id))


ENTRIES = [
    entry(1, "Amelia Ríos", 10),
    entry(2, "Ana Bel", 10),
    entry(3, "Ana Cruz", 20),
    entry(4, "Padre Tomás", 20),
]


def test_resolve_same_name_then_word_start_then_suggestions() -> None:
    assert resolve_name("AMELIA RIOS", ENTRIES).found == ENTRIES[0]
    assert resolve_name("rios", ENTRIES).found == ENTRIES[0]
    assert resolve_name("ana", ENTRIES).ambiguous == (ENTRIES[1], ENTRIES[2])
    missed = resolve_name("Tomas Padre", ENTRIES)
    assert missed.found is None and missed.suggestions[0] == "Padre Tomás"
    many = [*ENTRIES, entry(5, "Arturo", 10), entry(6, "Alba", 10)]
    assert len(resolve_name("a", many).ambiguous) == 3  # at most three named
    assert resolve_name("Zzyzx", ENTRIES).suggestions == ()


def test_close_names_are_at_most_three() -> None:
    many = [entry(i, f"Ana {letter}", 1) for i, letter in enumerate("BCDEFG")]
    assert len(close_names("Ana X", many)) == 3


def test_rank_choices_puts_the_users_own_first() -> None:
    assert [e.id for e in rank_choices("a", ENTRIES, 20)] == [3, 4, 1, 2]
    assert [e.id for e in rank_choices("tomas", ENTRIES, 10)] == [4]
    assert [e.id for e in rank_choices("", ENTRIES, 10)] == [1, 2, 3, 4]
