"""Speaking the user's language: the gettext catalogs (``catalogs``) and the choice of the
form that agrees with a character's gender (``grammar``)."""

from __future__ import annotations

from bot.i18n.catalogs import (
    NAME_LOCATIONS,
    Language,
    SaludTranslator,
    catalog,
    language_for_locale,
    placeholders,
    plural,
    public_language,
    text,
    user_language,
)
from bot.i18n.grammar import gendered

__all__ = [
    "NAME_LOCATIONS",
    "Language",
    "SaludTranslator",
    "catalog",
    "gendered",
    "language_for_locale",
    "placeholders",
    "plural",
    "public_language",
    "text",
    "user_language",
]
