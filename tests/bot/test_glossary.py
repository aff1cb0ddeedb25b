"""One word for one thing (COMMANDS.md "Grammar"): the glossary at the top of each language's
``common.po`` lists the word a table uses and the synonyms that must not creep back into any
message of that language; and no message speaks of a character as "it"."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from bot.i18n import Language, catalog

_MARKER = {Language.ES: "glosario:", Language.EN: "glossary:"}
#: ``{owner}`` is a placeholder's name, not a word the reader sees.
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def glossary(language: Language) -> dict[str, list[str]]:
    """The glossary of ``language``: the word used → the words refused."""
    path = resources.files("bot.i18n") / "locales" / language.value / "LC_MESSAGES" / "common.po"
    entries: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith(f"# {_MARKER[language]}"):
            continue
        used, _, refused = line.split(_MARKER[language], 1)[1].partition("≠")
        entries[used.strip()] = [word.strip() for word in refused.split(",") if word.strip()]
    return entries


def _pattern(word: str) -> re.Pattern[str]:
    """The word as written, or with a capital first letter, as a whole word."""
    forms = {re.escape(word), re.escape(word[:1].upper() + word[1:])}
    return re.compile(r"(?<!\w)(?:" + "|".join(sorted(forms)) + r")(?!\w)")


@pytest.mark.parametrize("language", list(Language))
def test_each_catalog_has_a_glossary(language: Language) -> None:
    entries = glossary(language)
    assert len(entries) >= 6, entries
    assert all(refused for refused in entries.values()), entries


@pytest.mark.parametrize("language", list(Language))
def test_no_message_uses_a_synonym_the_glossary_refuses(language: Language) -> None:
    found = [
        (key, word, used)
        for used, refused in glossary(language).items()
        for word in refused
        for key, message in catalog(language).items()
        # /help's search words are what a player may type, synonyms included (``keeper``,
        # ``curar``): never shown as a sentence.
        if not key.startswith("help.words.")
        and _pattern(word).search(_PLACEHOLDER.sub("", message))
    ]
    assert found == []


def test_the_glossary_test_catches_a_synonym() -> None:
    assert _pattern("dueño").search("Solo el Dueño de **Ana** o un DJ")
    assert _pattern("recarga").search("un DJ recarga las reservas")
    assert not _pattern("recarga").search("un DJ recargaba")
    assert not _pattern("primeros auxilios").search("Primeros Auxilios")


def test_the_spanish_glossary_has_the_words_of_the_table() -> None:
    used = set(glossary(Language.ES))
    assert {"jugador", "DJ", "Salud", "Primeros Auxilios", "Tirada de Consciencia"} <= used
