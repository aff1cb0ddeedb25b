"""Localisation: gettext ``.po`` catalogs (read with Babel) and the command-metadata translator.

Catalogs live in ``bot/i18n/locales/<es|en>/LC_MESSAGES/<domain>.po``; every domain of a language is
merged into one table. Message ids are symbolic keys (``error.character_not_found``) and the
translations use ``str.format`` placeholders (``{name}``), so both languages are complete
catalogs and a test can compare their keys and placeholders.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Mapping
from enum import Enum
from functools import cache
from importlib import resources

import discord
from babel.messages.pofile import read_po
from discord import app_commands

__all__ = [
    "NAME_LOCATIONS",
    "Language",
    "SaludTranslator",
    "catalog",
    "language_for_locale",
    "placeholders",
    "plural",
    "public_language",
    "text",
    "user_language",
]

log = logging.getLogger(__name__)


class Language(Enum):
    """The two languages the bot speaks."""

    ES = "es"
    EN = "en"


_SPANISH_LOCALES = {"es-ES", "es-419", "es"}
_ENGLISH_LOCALES = {"en-US", "en-GB", "en"}


def language_for_locale(locale: str | discord.Locale | None) -> Language | None:
    """The bot's language for a Discord locale, or None when it speaks neither."""
    if locale is None:
        return None
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    if value in _SPANISH_LOCALES:
        return Language.ES
    if value in _ENGLISH_LOCALES:
        return Language.EN
    return None


def public_language(configured: str | None, guild_locale: str | discord.Locale | None) -> Language:
    """Public messages: the configured language, else Spanish if the server is, else English."""
    if configured in {"es", "en"}:
        return Language(configured)
    return Language.ES if language_for_locale(guild_locale) is Language.ES else Language.EN


def user_language(
    user_locale: str | discord.Locale | None,
    configured: str | None,
    guild_locale: str | discord.Locale | None,
) -> Language:
    """Language of a reply addressed to one person: theirs if es/en, else the server's."""
    return language_for_locale(user_locale) or public_language(configured, guild_locale)


@cache
def catalog(language: Language) -> Mapping[str, str]:
    """Every message of one language, merged from all its domain files."""
    messages: dict[str, str] = {}
    folder = resources.files("bot.i18n") / "locales" / language.value / "LC_MESSAGES"
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".po"):
            continue
        with entry.open("rb") as handle:
            po = read_po(handle, locale=language.value)
        for message in po:
            if not message.id or not isinstance(message.id, str):
                continue
            if message.id in messages:
                raise ValueError(f"message {message.id!r} defined twice ({entry.name})")
            messages[message.id] = str(message.string)
    return messages


def placeholders(template: str) -> frozenset[str]:
    """The ``{name}`` fields a template uses (for the catalog-parity test)."""
    return frozenset(
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field
    )


def text(language: Language, key: str, /, **params: object) -> str:
    """The message ``key`` in ``language`` with its placeholders filled.

    A key missing from the catalog is a programming error caught by tests; at run time it
    falls back to English, then to the key itself, so a user never sees a traceback.
    """
    template = catalog(language).get(key) or catalog(Language.EN).get(key)
    if not template:
        log.error("missing message %r (%s)", key, language.value)
        return key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        log.exception("bad parameters for message %r (%s): %r", key, language.value, params)
        return template


#: Where a text is a name (of a command, group or option): names stay English everywhere.
NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


class SaludTranslator(app_commands.Translator):
    """Translates command descriptions and choice labels; names stay English everywhere.

    Strings are declared as ``locale_str("English text", key="cmd.hurt.description")``; the
    Spanish text is the catalog entry for that key.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if language_for_locale(locale) is not Language.ES:
            return None
        if context.location in NAME_LOCATIONS:
            return None
        key = string.extras.get("key")
        if not isinstance(key, str):
            return None
        return catalog(Language.ES).get(key)


def plural(language: Language, key: str, count: int, /, **params: object) -> str:
    """The message ``key.one`` or ``key.other`` for ``count``, with ``count`` among its
    parameters."""
    form = "one" if count == 1 else "other"
    return text(language, f"{key}.{form}", count=count, **params)
