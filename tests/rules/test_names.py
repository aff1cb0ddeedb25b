"""Character names (COMMANDS.md Names)."""

from __future__ import annotations

import pytest

from rules import InvalidName, clean_name, name_key
from rules.names import (
    FILLERS,
    MAX_MARKS,
    MAX_NAME_LENGTH,
    fold_name,
    fold_punctuation,
    is_default_ignorable,
    reading_key,
    starts_a_word,
)


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
        ("Pia\u3164", "control"),
        ("a\u0301\u0302\u0303", "marks"),
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
        assert reading_key("Ａｎａ  Ríos", language) == "ana rios"  # one space between words


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


# --- Invisible characters (issue 19.7): fillers and default-ignorable code points -----------
def refused_for(text: str) -> str:
    with pytest.raises(InvalidName) as refused:
        clean_name(text)
    return str(refused.value.params["reason"])


@pytest.mark.parametrize("filler", sorted(FILLERS))
@pytest.mark.parametrize("where", ["end", "middle", "start"])
def test_a_filler_beside_a_visible_name_is_refused_as_invisible_text(
    filler: str, where: str
) -> None:
    """``Pia`` and ``Pia\u3164`` look the same; so do ``Ugo`` and ``Ugo\u2800``."""
    text = {"end": f"Pia{filler}", "middle": f"Pi{filler}a", "start": f"{filler}Pia"}[where]
    assert refused_for(text) == "control"


def test_the_fillers_are_the_hangul_fillers_and_the_braille_blank() -> None:
    assert frozenset("\u115f\u1160\u2800\u3164\uffa0") == FILLERS


def test_a_name_of_fillers_only_has_nothing_visible() -> None:
    assert refused_for("\u3164\u115f") == "invisible"
    assert refused_for("\uffa0") == "invisible"


#: The first and last code point of each Default_Ignorable_Code_Point range (Unicode 15.1).
IGNORABLE_EDGES = [
    0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180F, 0x200B, 0x200F,
    0x202A, 0x202E, 0x2060, 0x206F, 0x3164, 0xFE00, 0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0, 0xFFF8,
    0x1BCA0, 0x1BCA3, 0x1D173, 0x1D17A, 0xE0000, 0xE0FFF,
]  # fmt: skip
#: Their neighbours outside every range.
NOT_IGNORABLE = [
    0x00AC, 0x00AE, 0x034E, 0x0350, 0x061B, 0x061D, 0x115E, 0x1161, 0x17B3, 0x17B6, 0x180A,
    0x1810, 0x200A, 0x2010, 0x2029, 0x202F, 0x205F, 0x2070, 0x3163, 0x3165, 0xFDFF, 0xFE10,
    0xFEFE, 0xFF00, 0xFF9F, 0xFFA1, 0xFFEF, 0xFFF9, 0x1BC9F, 0x1BCA4, 0x1D172, 0x1D17B,
    0xDFFFF, 0xE1000, 0x0041, 0x2800,
]  # fmt: skip


@pytest.mark.parametrize("code", IGNORABLE_EDGES)
def test_default_ignorable_code_points_are_known_to_their_edges(code: int) -> None:
    assert is_default_ignorable(chr(code))


@pytest.mark.parametrize("code", NOT_IGNORABLE)
def test_their_neighbours_are_not_default_ignorable(code: int) -> None:
    assert not is_default_ignorable(chr(code))


@pytest.mark.parametrize(
    "code", [0x034F, 0x115F, 0x17B4, 0x180B, 0x180F, 0xFE00, 0xFE0F, 0xFFA0, 0xE0100]
)
def test_a_default_ignorable_that_is_no_control_is_refused_in_a_name(code: int) -> None:
    """Variation selectors, the combining grapheme joiner, Khmer's inherent vowels … are not
    in the control categories but show nothing: ``Lea`` and ``Lea\u115f``."""
    assert refused_for(f"Le{chr(code)}a") == "control"


def test_a_presentation_selector_is_kept_after_a_symbol_only() -> None:
    """``❤️`` is a heart drawn as an emoji (a phone types it so); after a letter, a space or
    at the start the selector adds nothing to see."""
    assert clean_name("Rosa \u2764\ufe0f") == "Rosa \u2764\ufe0f"
    assert clean_name("\u2620\ufe0e Bones") == "\u2620\ufe0e Bones"
    assert refused_for("Rosa\ufe0f") == "control"
    assert refused_for("Rosa \ufe0f!") == "control"
    assert refused_for("\ufe0fRosa") == "control"
    assert refused_for("\ufe0fRosa \u2764") == "control"  # nothing before it, not the end
    assert refused_for("1\ufe0f Uno") == "control"  # a digit is no symbol
    assert refused_for("\u2764\ufe00 Rosa") == "control"  # only the two presentation ones
    assert refused_for("\u2764\ufe0f\ufe0f Rosa") == "control"


# --- Combining marks (issue 19.7: one letter under 39 marks) -------------------------------
def test_at_most_two_marks_on_one_character() -> None:
    assert MAX_MARKS == 2
    assert clean_name("Nguyễn Thị Ệ") == "Nguyễn Thị Ệ"  # ễ and Ệ: two marks each
    assert clean_name("e\u0323\u0302") == "\u1ec7"  # composed, still two
    assert refused_for("e\u0301\u0302\u0323") == "marks"
    assert refused_for("a" + "\u0301" * 39) == "marks"
    assert refused_for("Zalgo z\u0351\u0352\u0353o") == "marks"


def test_marks_are_counted_per_character_and_of_every_kind() -> None:
    assert clean_name("\u1ec7\u1ec7\u1ec7") == "\u1ec7\u1ec7\u1ec7"  # 2 each, 6 in all
    assert clean_name("a\u20dd\u20dd") == "a\u20dd\u20dd"  # enclosing marks (Me)
    assert refused_for("a\u20dd\u20dd\u20dd") == "marks"
    assert refused_for("\u0915\u0903\u0903\u0903") == "marks"  # spacing marks (Mc)
    assert clean_name("\u0915\u0903\u0903") == "\u0915\u0903\u0903"
    assert refused_for("\u0301\u0301\u0301Ana") == "marks"  # before any letter too
    assert clean_name("\u0301\u0301Ana") == "\u0301\u0301Ana"


# --- Folding typographic punctuation (issue 20.11: a phone's apostrophe) --------------------
APOSTROPHES = "\u2018\u2019\u201a\u201b\u2032\u2035\u2039\u203a\u02b9\u02bc\u0060\u00b4\uff07"
QUOTES = "\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb\u301d\u301e\uff02"
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u2e3a\u2e3b\ufe58\ufe63\uff0d"


@pytest.mark.parametrize(
    ("typographic", "plain"),
    [*((c, "'") for c in APOSTROPHES), *((c, '"') for c in QUOTES), *((c, "-") for c in DASHES)],
)
def test_typographic_punctuation_folds_to_the_plain_one(typographic: str, plain: str) -> None:
    assert fold_punctuation(f"O{typographic}M") == f"O{plain}M"
    assert fold_name(f"O{typographic}Malley") == f"o{plain}malley"


def test_a_phones_name_is_the_same_name_as_the_keyboards() -> None:
    assert fold_name("Sgt. Patrick O\u2019Malley") == fold_name("Sgt. Patrick O'Malley")
    assert fold_name("Ana\u2013María") == fold_name("Ana-Maria") == "ana-maria"
    assert fold_name("\u201cDoc\u201d Holliday") == '"doc" holliday'
    assert fold_name("D\u00b4Artagnan") == "d'artagnan"  # not NFKC's space and accent
    assert fold_punctuation("Ana María") == "Ana María"  # letters untouched
