"""``/table list``: every table of the server read with its places, the role of its GMs and
how many characters play at it (one read), for ``bot.render.tables`` to say publicly."""

from __future__ import annotations

import discord

from bot.interaction.here import Here
from bot.render.tables import TableLine, table_list_embed

__all__ = ["table_list"]


async def table_list(here: Here) -> discord.Embed:
    """The public embed of the server's tables; the main table's GMs are the server's."""
    tables = here.storage.tables
    lines = []
    async with here.read() as reader:
        for table in tables.tables(here.server_id):
            count = await reader.count_characters(table.id)
            role = table.gm_role_id if not table.is_main else here.settings.gm_role_id
            lines.append(TableLine(table, tables.places_of(table), role, count))
    return table_list_embed(here.public_language, lines)
