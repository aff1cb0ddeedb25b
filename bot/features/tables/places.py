"""``/table bind|unbind``: the places a table is played in. A place plays one table; bound
to another it leaves the one it played, and a place bound to none plays the main table (so
binding the main table unbinds). Each in one transaction, the directory updated after it."""

from __future__ import annotations

from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.tables import bound_text, place_shown, unbound_text
from bot.storage.tables import GameTable

__all__ = ["bind_table", "unbind_place"]


async def bind_table(here: Here, table: GameTable, place_id: int) -> str:
    """``table`` played at ``place_id`` too; the reply names the table the place left."""
    tables = here.storage.tables
    previous = tables.table_of_place(here.server_id, place_id)
    async with here.settings_change() as tx:
        if table.is_main:
            tx.tables.unbind(place_id)
        else:
            tx.tables.bind(table, place_id)
    if table.is_main:
        tables.unbind(place_id)
    else:
        tables.bind(here.server_id, place_id, table.id)
    return bound_text(here.private_language, table, place_id, previous)


async def unbind_place(here: Here, place_id: int) -> str:
    """The table bound to ``place_id`` no longer played there; only a GM at that table may
    (who asks about a place bound to none is told so first)."""
    tables = here.storage.tables
    bound = tables.table_of_place(here.server_id, place_id)
    if bound is None:
        raise UserFacingError("error.table.not_bound", place=place_shown(place_id))
    here.require_gm_at(bound, "table.action.bind")
    async with here.settings_change() as tx:
        tx.tables.unbind(place_id)
    tables.unbind(place_id)
    return unbound_text(here.private_language, bound, place_id)
