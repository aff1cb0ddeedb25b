"""``/table create|rename|delete``: a table made (bound to its first place), renamed or
removed, each in one transaction; the storage's ``TableDirectory`` (in memory) follows the
commit, never leads it. Each returns the private sentence its cog sends."""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands

from bot.features.numbers import numbers_of
from bot.features.tables.names import checked_name
from bot.features.tables.option import gm_role_id_of
from bot.features.tables.settings import save_table
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.tables import created_text, deleted_text, renamed_text, table_name
from bot.storage.models import Numbers
from bot.storage.tables import MAX_TABLES, GameTable

__all__ = ["create_table", "delete_table", "rename_table"]


async def create_table(
    here: Here,
    name: str,
    place_id: int | None,
    gm_role: discord.Role | None,
    numbers: app_commands.Choice[str] | None,
) -> str:
    """A new table called ``name`` (checked), played at ``place_id`` (which leaves the table
    it played before), its GMs ``gm_role``'s members, its new characters' ``numbers``; at
    most ``MAX_TABLES`` a server."""
    tables = here.storage.tables
    cleaned = checked_name(here, name, renaming=None)
    if len(tables.tables(here.server_id)) >= MAX_TABLES:
        raise UserFacingError("error.table.too_many", limit=MAX_TABLES)
    if place_id is None:  # pragma: no cover - a command always has a channel
        raise UserFacingError("error.table.not_a_place")
    table = GameTable(
        here.interaction.id,
        here.server_id,
        cleaned,
        gm_role_id_of(here, gm_role),
        numbers=numbers_of(numbers) or Numbers.SHOWN,
    )
    previous = tables.table_of_place(here.server_id, place_id)
    async with here.settings_change() as tx:
        tx.tables.insert(table)
        tx.tables.bind(table, place_id)
    tables.put(table)
    tables.bind(here.server_id, place_id, table.id)
    return created_text(here.private_language, table, place_id, previous)


async def rename_table(here: Here, table: GameTable, name: str) -> str:
    """``table`` called ``name`` (checked) from now on."""
    cleaned = checked_name(here, name, renaming=table.id)
    renamed = replace(table, name=cleaned)
    await save_table(here, renamed)
    return renamed_text(here.private_language, table, renamed)


async def delete_table(here: Here, table: GameTable) -> str:
    """``table`` removed, when it is not the main table and no character plays at it."""
    language = here.private_language
    if table.is_main:
        raise UserFacingError("error.table.main_kept")
    async with here.read() as reader:
        count = await reader.count_characters(table.id)
    if count:
        raise UserFacingError(
            "error.table.not_empty." + ("one" if count == 1 else "other"),
            table=table_name(language, table),
            count=count,
        )
    async with here.settings_change() as tx:
        tx.tables.delete(table)
    here.storage.tables.remove(table)
    return deleted_text(language, table)
