"""Speaking the user's language: the gettext catalogs (``catalogs``) and the choice of the
form that agrees with a character's gender (``grammar``). The facade is the catalogs' names
and ``gendered``: they are listed once, in ``catalogs.__all__``."""

from __future__ import annotations

from bot.i18n import catalogs
from bot.i18n.catalogs import *  # noqa: F403 (the catalogs' __all__, listed there)
from bot.i18n.grammar import gendered

__all__ = [*catalogs.__all__, "gendered"]
