"""Where the database is without ``DATABASE_PATH``: a module of its own, so that the settings
read it without standing on the whole storage (``bot.storage`` opens the engines)."""

from __future__ import annotations

__all__ = ["DEFAULT_DATABASE_PATH"]

#: Where the database is without ``DATABASE_PATH`` (the embedded engine needs nothing else).
DEFAULT_DATABASE_PATH = "data/bot.sqlite3"
