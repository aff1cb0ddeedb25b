"""Sentences that agree with a character's grammatical gender, when it is known.

COMMANDS.md "Grammar": without ``gender`` no sentence assumes one (Spanish states and flags
stand as labels, English uses the name or they/their); with it, Spanish adjectives agree
and English says she/he. A gendered message has a neutral key and, beside it, the keys
``<key>.feminine`` and ``<key>.masculine``; a message that needs no agreement has only the
neutral key, so nothing else has to know which messages agree.
"""

from __future__ import annotations

from bot.i18n.catalogs import Language, catalog, text
from rules.character import Gender

__all__ = ["gendered"]


def gendered(language: Language, key: str, gender: Gender | None, /, **params: object) -> str:
    """The message ``key`` in the form that agrees with ``gender`` (neutral when None or when
    the message has no gendered forms)."""
    if gender is not None:
        variant = f"{key}.{gender.value}"
        if variant in catalog(language):
            return text(language, variant, **params)
    return text(language, key, **params)
