"""A table's name as a GM types it (``/table create|rename``): cleaned, within its length,
and no other table's of the server; the main table, until renamed, is called by its name in
every language, so no table may take that either."""

from __future__ import annotations

from bot.features.tables.option import MAX_TABLE_NAME
from bot.i18n import Language, text
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.sanitize import escape
from rules.names import clean_name, name_key

__all__ = ["checked_name"]


def checked_name(here: Here, name: str, *, renaming: int | None) -> str:
    """``name`` cleaned, refused when empty, too long, or the name of a table of the server
    other than ``renaming`` (the id of the table it is to rename, if any)."""
    cleaned = clean_name(name)
    if not cleaned or len(cleaned) > MAX_TABLE_NAME:
        raise UserFacingError("error.table.bad_name", max_length=MAX_TABLE_NAME)
    key = name_key(cleaned)
    for table in here.storage.tables.tables(here.server_id):
        if table.id == renaming:
            continue
        shown = table.name
        names = (
            [shown] if shown is not None else [text(lang, "table.main_name") for lang in Language]
        )
        if any(name_key(n) == key for n in names):
            raise UserFacingError("error.table.name_taken", name=escape(cleaned))
    return cleaned
