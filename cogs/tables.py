"""``/table create|bind|unbind|list|rename|delete|gm-role|channel|numbers``: several games in
one server (issue 27). A table's settings, like ``/config``, are answered privately and are no
change of a character (no history, no ``/undo``); ``/table list`` is public.

Thin adapters: parse the options, check who may act, call one feature function
(``bot.features.tables``) and send the reply it returns.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludGroupCog, SlashInteraction
from bot.features.numbers import NUMBERS_CHOICES, numbers_of
from bot.features.tables.edits import create_table, delete_table, rename_table
from bot.features.tables.listing import table_list
from bot.features.tables.option import (
    MAX_TABLE_NAME,
    TABLE_OPTION,
    AnnouncementChannel,
    Place,
    TableArg,
    channel_id_of,
)
from bot.features.tables.places import bind_table, unbind_place
from bot.features.tables.settings import set_channel, set_gm_role, set_numbers
from bot.interaction.deferral import private_reply
from bot.interaction.here import Here
from bot.interaction.sending import send_private, send_public
from bot.storage import Numbers

__all__ = ["TablesCog"]


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
        interaction: SlashInteraction,
        name: app_commands.Range[str, 1, MAX_TABLE_NAME],
        place: Place | None = None,
        gm_role: discord.Role | None = None,
        numbers: app_commands.Choice[str] | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_server_gm("table.action.create")
        place_id = int(place.id) if place is not None else interaction.channel_id
        await send_private(interaction, await create_table(here, name, place_id, gm_role, numbers))

    @private_reply
    @app_commands.command(
        name="bind", description=_("GM: play a table in one more place", key="cmd.table.bind")
    )
    @app_commands.describe(
        table=TABLE_OPTION,
        place=_("A channel, thread, forum or category", key="cmd.table.bind.place"),
    )
    async def bind(self, interaction: SlashInteraction, table: TableArg, place: Place) -> None:
        here = await Here.of(interaction)
        here.require_gm_at(table, "table.action.bind")
        await send_private(interaction, await bind_table(here, table, int(place.id)))

    @private_reply
    @app_commands.command(
        name="unbind", description=_("GM: stop playing a table in a place", key="cmd.table.unbind")
    )
    @app_commands.describe(
        place=_("A channel, thread, forum or category", key="cmd.table.unbind.place")
    )
    async def unbind(self, interaction: SlashInteraction, place: Place) -> None:
        here = await Here.of(interaction)
        await send_private(interaction, await unbind_place(here, int(place.id)))

    @app_commands.command(
        name="list", description=_("Every table of the server", key="cmd.table.list")
    )
    async def list_tables(self, interaction: SlashInteraction) -> None:
        here = await Here.of(interaction)
        await send_public(interaction, embeds=[await table_list(here)])

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
        interaction: SlashInteraction,
        table: TableArg,
        name: app_commands.Range[str, 1, MAX_TABLE_NAME],
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm_at(table, "table.action.rename")
        await send_private(interaction, await rename_table(here, table, name))

    @private_reply
    @app_commands.command(
        name="delete", description=_("GM: remove an empty table", key="cmd.table.delete")
    )
    @app_commands.describe(table=TABLE_OPTION)
    async def delete(self, interaction: SlashInteraction, table: TableArg) -> None:
        here = await Here.of(interaction)
        here.require_server_gm("table.action.delete")
        await send_private(interaction, await delete_table(here, table))

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
        self, interaction: SlashInteraction, table: TableArg, role: discord.Role | None = None
    ) -> None:
        here = await Here.of(interaction)
        here.require_server_gm("table.action.gm_role")
        await send_private(interaction, await set_gm_role(here, table, role))

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
        interaction: SlashInteraction,
        table: TableArg,
        channel: AnnouncementChannel | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm_at(table, "table.action.channel")
        await send_private(interaction, await set_channel(here, table, channel_id_of(channel)))

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
        self, interaction: SlashInteraction, table: TableArg, numbers: app_commands.Choice[str]
    ) -> None:
        """The default ``numbers`` of the characters created at ``table`` from then on; works
        on the main table too, before any other table exists (COMMANDS.md "Private
        numbers")."""
        here = await Here.of(interaction)
        here.require_gm_at(table, "numbers.action.table")
        chosen = numbers_of(numbers) or Numbers.SHOWN
        await send_private(interaction, await set_numbers(here, table, chosen))


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(TablesCog(bot))
