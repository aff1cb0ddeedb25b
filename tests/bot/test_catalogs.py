"""Both languages carry every message, with the same placeholders."""

from __future__ import annotations

from bot.i18n import Language, catalog, placeholders, text


def test_every_message_exists_in_both_languages() -> None:
    spanish, english = catalog(Language.ES), catalog(Language.EN)
    assert set(spanish) - set(english) == set(), "only in Spanish"
    assert set(english) - set(spanish) == set(), "only in English"


def test_placeholders_agree_between_languages() -> None:
    spanish, english = catalog(Language.ES), catalog(Language.EN)
    mismatched = {
        key: (placeholders(spanish[key]), placeholders(english[key]))
        for key in english
        if key in spanish and placeholders(spanish[key]) != placeholders(english[key])
    }
    assert mismatched == {}


def test_no_message_is_empty() -> None:
    for language in Language:
        empty = [key for key, value in catalog(language).items() if not value.strip()]
        assert empty == [], language


def test_text_fills_placeholders_and_falls_back_to_the_key() -> None:
    assert "servidor" in text(Language.ES, "error.guild_only")
    assert text(Language.EN, "no.such.key") == "no.such.key"
