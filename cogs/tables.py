"""``/table create|bind|unbind|list|rename|delete|gm-role|channel``: several games in one
server (issue 27). A table's settings, like ``/config``, are answered privately and are no
change of a character (no history, no ``/undo``); ``/table list`` is public.

The tables live in the storage's ``TableDirectory`` (in memory); each command writes its rows
in one transaction and updates the directory once that has committed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludGroupCog
from bot.features.numbers import NUMBERS_CHOICES, numbers_of
from bot.features.tables import (
    MAX_TABLE_NAME,
    TABLE_OPTION,
    AnnouncementChannel,
    Place,
    TableArg,
    gm_role_id_of,
    place_shown,
    table_name,
)
from bot.i18n import Language, plural, text
from bot.interaction.deferral import private_reply
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_private, send_public
from bot.render.limits import INFO_COLOUR
from bot.render.sanitize import escape
from bot.storage import Numbers
from bot.storage.names import name_key
from bot.storage.tables import MAX_TABLES, GameTable, TableDirectory
from rules import clean_name

__all__ = ["TablesCog"]


def _checked_name(here: Here, tables: TableDirectory, name: str, *, renaming: int | None) -> str:
    cleaned = clean_name(name)
    if not cleaned or len(cleaned) > MAX_TABLE_NAME:
        raise UserFacingError("error.table.bad_name", max_length=MAX_TABLE_NAME)
    key = name_key(cleaned)
    for table in tables.tables(here.server_id):
        if table.id == renaming:
            continue
        shown = table.name
        names = (
            [shown] if shown is not None else [text(lang, "table.main_name") for lang in Language]
        )
        if any(name_key(n) == key for n in names):
            raise UserFacingError("error.table.name_taken", name=escape(cleaned))
    return cleaned


class TablesCog(
    SaludGroupCog,
    group_name="table",
    group_description=_("Several games in one server: tables", key="cmd.table"),
):
    """The tables of a server: made, bound to places, named and given GMs by GMs."""

    @private_reply
    @app_commands.command(
        name="create", description=_("GM: a new table for another game", key="cmd.table.create")
    )
    @app_commands.describe(
        name=_("The table's name", key="cmd.table.create.name"),
        place=_("Where it is played; this channel when omitted", key="cmd.table.create.place"),
        gm_role=_("Members of this role are GMs at this table", key="cmd.table.create.gm_role"),
        numbers=_(
            "Numbers of the table's new characters (default: shown)",
            key="cmd.table.create.numbers",
        ),
    )
    @app_commands.choices(numbers=NUMBERS_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[SaludBot],
        name: app_commands.Range[str, 1, MAX_TABLE_NAME],
        place: Place | None = None,
        gm_role: discord.Role | None = None,
        numbers: app_commands.Choice[str] | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_server_gm("table.action.create")
        tables = here.storage.tables
        cleaned = _checked_name(here, tables, name, renaming=None)
        if len(tables.tables(here.server_id)) >= MAX_TABLES:
            raise UserFacingError("error.table.too_many", limit=MAX_TABLES)
        place_id = int(place.id) if place is not None else interaction.channel_id
        if place_id is None:  # pragma: no cover - a command always has a channel
            raise UserFacingError("error.table.not_a_place")
        table = GameTable(
            interaction.id,
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
        language = here.private_language
        reply = text(
            language,
            "table.created",
            table=table_name(language, table),
            place=place_shown(place_id),
        )
        if previous is not None:
            reply += " " + text(language, "table.moved_from", table=table_name(language, previous))
        await send_private(interaction, reply)

    @private_reply
    @app_commands.command(
        name="bind", description=_("GM: play a table in one more place", key="cmd.table.bind")
    )
    @app_commands.describe(
        table=TABLE_OPTION,
        place=_("A channel, thread, forum or category", key="cmd.table.bind.place"),
    )
    async def bind(
        self, interaction: discord.Interaction[SaludBot], table: TableArg, place: Place
    ) -> None:
        here = await Here.of(interaction)
        _require_gm_at(here, table, "table.action.bind")
        tables = here.storage.tables
        place_id = int(place.id)
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
        language = here.private_language
        reply = text(
            language, "table.bound", table=table_name(language, table), place=place_shown(place_id)
        )
        if previous is not None and previous.id != table.id:
            reply += " " + text(language, "table.moved_from", table=table_name(language, previous))
        await send_private(interaction, reply)

    @private_reply
    @app_commands.command(
        name="unbind", description=_("GM: stop playing a table in a place", key="cmd.table.unbind")
    )
    @app_commands.describe(
        place=_("A channel, thread, forum or category", key="cmd.table.unbind.place")
    )
    async def unbind(self, interaction: discord.Interaction[SaludBot], place: Place) -> None:
        here = await Here.of(interaction)
        tables = here.storage.tables
        place_id = int(place.id)
        bound = tables.table_of_place(here.server_id, place_id)
        language = here.private_language
        if bound is None:
            raise UserFacingError("error.table.not_bound", place=place_shown(place_id))
        _require_gm_at(here, bound, "table.action.bind")
        async with here.settings_change() as tx:
            tx.tables.unbind(place_id)
        tables.unbind(place_id)
        await send_private(
            interaction,
            text(
                language,
                "table.unbound",
                table=table_name(language, bound),
                place=place_shown(place_id),
            ),
        )

    @app_commands.command(
        name="list", description=_("Every table of the server", key="cmd.table.list")
    )
    async def list_tables(self, interaction: discord.Interaction[SaludBot]) -> None:
        here = await Here.of(interaction)
        language = here.public_language
        tables = here.storage.tables
        lines = []
        async with here.read() as reader:
            for table in tables.tables(here.server_id):
                count = await reader.count_characters(table.id)
                parts = [f"**{table_name(language, table)}**"]
                places = tables.places_of(table)
                if places:
                    parts.append(", ".join(place_shown(p) for p in places))
                elif table.is_main:
                    parts.append(text(language, "table.list.elsewhere"))
                role = table.gm_role_id if not table.is_main else here.settings.gm_role_id
                if role is not None:
                    parts.append(text(language, "table.list.gm_role", role=f"<@&{role}>"))
                parts.append(
                    plural(language, "table.list.characters", count)
                    if count
                    else text(language, "table.list.no_characters")
                )
                lines.append(" · ".join(parts))
        embed = discord.Embed(
            title=text(language, "table.list.title"),
            description="\n".join(lines),
            colour=INFO_COLOUR,
        )
        await send_public(interaction, embeds=[embed])

    @private_reply
    @app_commands.command(
        name="rename", description=_("GM: a new name for a table", key="cmd.table.rename")
    )
    @app_commands.describe(
        table=TABLE_OPTION,
        name=_("The new name", key="cmd.table.rename.name"),
    )
    async def rename(
        self,
        interaction: discord.Interaction[SaludBot],
        table: TableArg,
        name: app_commands.Range[str, 1, MAX_TABLE_NAME],
    ) -> None:
        here = await Here.of(interaction)
        _require_gm_at(here, table, "table.action.rename")
        tables = here.storage.tables
        cleaned = _checked_name(here, tables, name, renaming=table.id)
        language = here.private_language
        old = table_name(language, table)
        renamed = replace(table, name=cleaned)
        await _save_table(here, renamed)
        await send_private(
            interaction,
            text(language, "table.renamed", old=old, table=table_name(language, renamed)),
        )

    @private_reply
    @app_commands.command(
        name="delete", description=_("GM: remove an empty table", key="cmd.table.delete")
    )
    @app_commands.describe(table=TABLE_OPTION)
    async def delete(self, interaction: discord.Interaction[SaludBot], table: TableArg) -> None:
        here = await Here.of(interaction)
        here.require_server_gm("table.action.delete")
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
        await send_private(
            interaction, text(language, "table.deleted", table=table_name(language, table))
        )

    @private_reply
    @app_commands.command(
        name="gm-role", description=_("GM: the GM role of a table", key="cmd.table.gm_role")
    )
    @app_commands.describe(
        table=TABLE_OPTION,
        role=_(
            "Members of this role are GMs at that table only (omit to clear)",
            key="cmd.table.gm_role.role",
        ),
    )
    async def gm_role(
        self,
        interaction: discord.Interaction[SaludBot],
        table: TableArg,
        role: discord.Role | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_server_gm("table.action.gm_role")
        language = here.private_language
        if table.is_main:
            raise UserFacingError("error.table.main_settings", command="/config gm-role")
        await _save_table(here, replace(table, gm_role_id=gm_role_id_of(here, role)))
        name = table_name(language, table)
        if role is None:
            reply = text(language, "table.gm_role.cleared", table=name)
        else:
            reply = text(language, "table.gm_role.set", table=name, role=role.mention)
        await send_private(interaction, reply)

    @private_reply
    @app_commands.command(
        name="channel",
        description=_("GM: the announcement channel of a table", key="cmd.table.channel"),
    )
    @app_commands.describe(
        table=TABLE_OPTION,
        channel=_(
            "Text channel that also gets the table's state changes and deaths (omit to clear)",
            key="cmd.table.channel.channel",
        ),
    )
    async def channel(
        self,
        interaction: discord.Interaction[SaludBot],
        table: TableArg,
        channel: AnnouncementChannel | None = None,
    ) -> None:
        here = await Here.of(interaction)
        language = here.private_language
        _require_gm_at(here, table, "table.action.channel")
        if table.is_main:
            raise UserFacingError("error.table.main_settings", command="/config channel")
        channel_id = None if channel is None else int(cast(Any, channel).id)
        await _save_table(here, replace(table, channel_id=channel_id))
        name = table_name(language, table)
        if channel_id is None:
            reply = text(language, "table.channel.cleared", table=name)
        else:
            reply = text(language, "table.channel.set", table=name, channel=f"<#{channel_id}>")
        await send_private(interaction, reply)

    @private_reply
    @app_commands.command(
        name="numbers",
        description=_(
            "GM: who sees the numbers of a table's new characters", key="cmd.table.numbers"
        ),
    )
    @app_commands.describe(
        table=TABLE_OPTION,
        numbers=_(
            "Shown to everyone, or only to each player and the GMs",
            key="cmd.table.numbers.numbers",
        ),
    )
    @app_commands.choices(numbers=NUMBERS_CHOICES)
    async def numbers(
        self,
        interaction: discord.Interaction[SaludBot],
        table: TableArg,
        numbers: app_commands.Choice[str],
    ) -> None:
        """The default ``numbers`` of the characters created at ``table`` from then on; works
        on the main table too, before any other table exists (COMMANDS.md "Private
        numbers")."""
        here = await Here.of(interaction)
        language = here.private_language
        _require_gm_at(here, table, "numbers.action.table")
        chosen = numbers_of(numbers) or Numbers.SHOWN
        await _save_table(here, replace(table, numbers=chosen))
        name = table_name(language, table)
        await send_private(interaction, text(language, f"numbers.table.{chosen.value}", table=name))


def _require_gm_at(here: Here, table: GameTable, action: str) -> None:
    """Refuse a member who is no GM at ``table`` (a GM of the server, or of the table's own
    GM role), naming the ``action`` in their language."""
    if not here.is_gm_at(table):
        raise UserFacingError("error.not_gm", action=text(here.private_language, action))


async def _save_table(here: Here, changed: GameTable) -> None:
    """Store a table's new name, GM role or channel, then show it in the directory the
    commands resolve from (memory follows the commit, never leads it)."""
    async with here.settings_change() as tx:
        tx.tables.update(changed)
    here.storage.tables.put(changed)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(TablesCog(bot))
