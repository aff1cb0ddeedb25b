"""``/table gm-role|channel|numbers``: a table's own settings, each stored in one
transaction, then shown in the directory the commands resolve tables from (memory follows
the commit, never leads it). Each returns the private sentence its cog sends."""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.features.tables.option import gm_role_id_of
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.tables import channel_text, gm_role_text, numbers_text
from bot.storage.models import Numbers
from bot.storage.tables import GameTable

__all__ = ["save_table", "set_channel", "set_gm_role", "set_numbers"]


async def save_table(here: Here, changed: GameTable) -> None:
    """Store a table's new name or setting, then show it in the directory."""
    async with here.settings_change() as tx:
        tx.tables.update(changed)
    here.storage.tables.put(changed)


async def set_gm_role(here: Here, table: GameTable, role: discord.Role | None) -> str:
    """``role``'s members GMs at ``table`` only (``None``: no GM role of its own); the main
    table's GM role is the server's (``/config gm-role``)."""
    if table.is_main:
        raise UserFacingError("error.table.main_settings", command="/config gm-role")
    role_id = gm_role_id_of(here, role)
    await save_table(here, replace(table, gm_role_id=role_id))
    return gm_role_text(here.private_language, table, role_id)


async def set_channel(here: Here, table: GameTable, channel_id: int | None) -> str:
    """``table``'s announcement channel (``None``: none); the main table's is the server's
    (``/config channel``)."""
    if table.is_main:
        raise UserFacingError("error.table.main_settings", command="/config channel")
    await save_table(here, replace(table, channel_id=channel_id))
    return channel_text(here.private_language, table, channel_id)


async def set_numbers(here: Here, table: GameTable, numbers: Numbers) -> str:
    """The default ``numbers`` of the characters created at ``table`` from then on; the
    main table's too, before any other table exists (COMMANDS.md "Private numbers")."""
    await save_table(here, replace(table, numbers=numbers))
    return numbers_text(here.private_language, table, numbers)
