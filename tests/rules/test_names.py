"""Character names (COMMANDS.md Names)."""

from __future__ import annotations

import pytest

from rules import InvalidName, clean_name, name_key
from rules.names import MAX_NAME_LENGTH, fold_name, reading_key, starts_a_word


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Ana  ", "Ana"),
        ("José Ñúñez", "José Ñúñez"),
        ("@everyone", "@everyone"),
        ("Li 李", "Li 李"),
    ],
)
def test_clean_name_trims(text: str, expected: str) -> None:
    assert clean_name(text) == expected


def test_clean_name_normalizes_to_nfc() -> None:
    assert clean_name("Jose\u0301") == "José"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("a" * 41, "too_long"),
        ("x" * 100_000, "too_long"),
        ("Ana\x00", "control"),
        ("An\u200ba", "control"),
        ("A\u202enna", "control"),
        ("\u3164", "invisible"),
        ("\u2800\u2800", "invisible"),
        ("\u0301", "invisible"),
    ],
)
def test_clean_name_refuses(text: str, reason: str) -> None:
    with pytest.raises(InvalidName) as refused:
        clean_name(text)
    assert refused.value.code == "invalid_name"
    assert refused.value.params == {"reason": reason, "max_length": 40}


def test_name_key_ignores_case() -> None:
    assert name_key("STRASSE") == name_key("straße")
    assert name_key("Ana") == name_key("aNA")


# --- Name length limits (COMMANDS.md Names) exactly at their boundaries ---------------------------
#: The raw-text guard: 4 × max_length + 64 characters are still looked at.
RAW_LIMIT = 4 * MAX_NAME_LENGTH + 64


def test_name_of_exactly_the_maximum_length_is_kept() -> None:
    name = "a" * MAX_NAME_LENGTH
    assert clean_name(name) == name
    with pytest.raises(InvalidName) as refused:
        clean_name(name + "a")
    assert refused.value.params == {"reason": "too_long", "max_length": MAX_NAME_LENGTH}


@pytest.mark.parametrize("length", [100, RAW_LIMIT])
def test_raw_text_up_to_the_guard_is_trimmed_not_refused(length: int) -> None:
    assert clean_name("Ana".ljust(length)) == "Ana"


def test_raw_text_beyond_the_guard_is_refused_as_too_long() -> None:
    with pytest.raises(InvalidName) as refused:
        clean_name("Ana".ljust(RAW_LIMIT + 1))
    assert refused.value.params == {"reason": "too_long", "max_length": MAX_NAME_LENGTH}


# --- Folding (COMMANDS.md Names): the same name ignoring case, accents, width and spaces -------
@pytest.mark.parametrize(
    "typed",
    ["Amelia Rios", "AMELIA RÍOS", "amelia  rios", " Amelia\tRíos ", "Ａｍｅｌｉａ Ríos"],
)
def test_fold_name_ignores_case_accents_width_and_runs_of_spaces(typed: str) -> None:
    assert fold_name(typed) == "amelia rios"


def test_fold_name_drops_combining_accents_and_keeps_other_letters() -> None:
    assert fold_name("Ñandú Çelik") == "nandu celik"
    assert fold_name("e\u0301") == "e"  # a decomposed accent goes too
    assert fold_name("Straße") == "strasse"  # case folding, not lower()
    assert fold_name("Ŀ·Ø") == "l··ø"  # NFKC splits Ŀ into L and a dot; Ø has no mark


def test_fold_name_of_nothing_is_nothing() -> None:
    assert fold_name("") == ""
    assert fold_name("   ") == ""


def test_fold_name_returns_composed_text() -> None:
    # Marks that are not Mn (an enclosing one, Me) stay; the result is NFC again.
    assert fold_name("a\u20dd") == "a\u20dd"
    assert fold_name("Å") == "a"


@pytest.mark.parametrize(
    ("typed", "starts"),
    [
        ("amelia", True),
        ("rios", True),
        ("amelia r", True),
        ("r", True),
        ("amelia rios", True),
        ("elia", False),
        ("ios", False),
        ("amelia rios x", False),
        ("", False),
    ],
)
def test_starts_a_word_only_at_the_start_of_a_word(typed: str, starts: bool) -> None:
    assert starts_a_word("amelia rios", typed) is starts


def test_starts_a_word_looks_past_a_first_match_inside_a_word() -> None:
    # "ana" is inside "mariana" first, then starts the word "ana".
    assert starts_a_word("mariana ana", "ana") is True
    assert starts_a_word("mariana", "ana") is False
    # Any character that is not a letter or digit begins a word: a hyphen, an apostrophe.
    assert starts_a_word("jean-luc", "luc") is True
    assert starts_a_word("o'neil", "neil") is True
    assert starts_a_word("r2d2", "d2") is False


def test_starts_a_word_searches_from_the_left_one_place_at_a_time() -> None:
    # The first match starts a word even though the last one does not.
    assert starts_a_word("ana mariana", "ana") is True
    # Inside "mariana", then the word "ana"; a later match inside "xana" must not hide it.
    assert starts_a_word("mariana ana xana", "ana") is True
    # Overlapping matches: "--" inside "x--" first, then right after it, after a "-".
    assert starts_a_word("x---", "--") is True


def test_reading_key_ignores_case_and_accents() -> None:
    """COMMANDS.md Lists: ``Cónsul Britton`` before ``Criada Úrsula`` in both languages."""
    for language in ("es", "en"):
        names = ["Criada Úrsula", "cónsul Britton", "ÓSCAR", "Ana"]
        ordered = sorted(names, key=lambda name: reading_key(name, language))
        assert ordered == ["Ana", "cónsul Britton", "Criada Úrsula", "ÓSCAR"]
        assert reading_key("Ａｎａ  Ríos", language) == reading_key("ana rios", language)


def test_reading_key_puts_enye_after_n_for_a_spanish_reader_only() -> None:
    names = ["Ñaque", "Nuño", "Nadia", "Oscar"]
    assert sorted(names, key=lambda name: reading_key(name, "es")) == [
        "Nadia",
        "Nuño",
        "Ñaque",
        "Oscar",
    ]
    assert sorted(names, key=lambda name: reading_key(name, "en")) == [
        "Nadia",
        "Ñaque",
        "Nuño",
        "Oscar",
    ]
    assert reading_key("Peña", "es") > reading_key("Penz", "es")
