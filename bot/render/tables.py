"""The words of ``/table`` (issue 27): a table's name and places as shown, the private
sentence each setting's change answers with, and the public embed of ``/table list``. Pure:
the commands' work is ``bot.features.tables``'s, these only say what it did."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.i18n.catalogs import Language, plural, text
from bot.render.limits import INFO_COLOUR
from bot.render.sanitize import escape
from bot.storage.models import Numbers
from bot.storage.tables import GameTable

__all__ = [
    "TableLine",
    "bound_text",
    "channel_text",
    "created_text",
    "deleted_text",
    "gm_role_text",
    "numbers_text",
    "place_shown",
    "renamed_text",
    "table_list_embed",
    "table_name",
    "unbound_text",
]


def table_name(language: Language, table: GameTable) -> str:
    """The table's name as shown (the main table's, until renamed, in ``language``)."""
    if table.name is None:
        return text(language, "table.main_name")
    return escape(table.name)


def place_shown(place_id: int) -> str:
    return f"<#{place_id}>"


def _moved_from(language: Language, previous: GameTable | None) -> str:
    """What a place played before it moved to a table ("" when it played none)."""
    if previous is None:
        return ""
    return " " + text(language, "table.moved_from", table=table_name(language, previous))


def created_text(
    language: Language, table: GameTable, place_id: int, previous: GameTable | None
) -> str:
    """``/table create``: the new table, where it plays, and the table that place left."""
    made = text(
        language, "table.created", table=table_name(language, table), place=place_shown(place_id)
    )
    return made + _moved_from(language, previous)


def bound_text(
    language: Language, table: GameTable, place_id: int, previous: GameTable | None
) -> str:
    """``/table bind``: where ``table`` plays too, and the other table that place left."""
    bound = text(
        language, "table.bound", table=table_name(language, table), place=place_shown(place_id)
    )
    if previous is not None and previous.id == table.id:
        previous = None
    return bound + _moved_from(language, previous)


def unbound_text(language: Language, table: GameTable, place_id: int) -> str:
    """``/table unbind``: the place ``table`` no longer plays in."""
    return text(
        language, "table.unbound", table=table_name(language, table), place=place_shown(place_id)
    )


def renamed_text(language: Language, old: GameTable, renamed: GameTable) -> str:
    """``/table rename``: the old name and the new."""
    return text(
        language,
        "table.renamed",
        old=table_name(language, old),
        table=table_name(language, renamed),
    )


def deleted_text(language: Language, table: GameTable) -> str:
    """``/table delete``: the table that is gone."""
    return text(language, "table.deleted", table=table_name(language, table))


def gm_role_text(language: Language, table: GameTable, role_id: int | None) -> str:
    """``/table gm-role``: the table's GM role now, or that it has none."""
    name = table_name(language, table)
    if role_id is None:
        return text(language, "table.gm_role.cleared", table=name)
    return text(language, "table.gm_role.set", table=name, role=f"<@&{role_id}>")


def channel_text(language: Language, table: GameTable, channel_id: int | None) -> str:
    """``/table channel``: the table's announcement channel now, or that it has none."""
    name = table_name(language, table)
    if channel_id is None:
        return text(language, "table.channel.cleared", table=name)
    return text(language, "table.channel.set", table=name, channel=f"<#{channel_id}>")


def numbers_text(language: Language, table: GameTable, numbers: Numbers) -> str:
    """``/table numbers``: who sees the numbers of the table's new characters."""
    return text(language, f"numbers.table.{numbers.value}", table=table_name(language, table))


@dataclass(frozen=True)
class TableLine:
    """One table of ``/table list`` as read: its places, the role of its GMs (the server's
    for the main table), how many characters play at it."""

    table: GameTable
    places: Sequence[int]
    gm_role_id: int | None
    characters: int


def _line(language: Language, line: TableLine) -> str:
    """``**name** · places · GM role · characters``; the main table with no place of its own
    plays "everywhere else"."""
    parts = [f"**{table_name(language, line.table)}**"]
    if line.places:
        parts.append(", ".join(place_shown(p) for p in line.places))
    elif line.table.is_main:
        parts.append(text(language, "table.list.elsewhere"))
    if line.gm_role_id is not None:
        parts.append(text(language, "table.list.gm_role", role=f"<@&{line.gm_role_id}>"))
    parts.append(
        plural(language, "table.list.characters", line.characters)
        if line.characters
        else text(language, "table.list.no_characters")
    )
    return " · ".join(parts)


def table_list_embed(language: Language, lines: Sequence[TableLine]) -> discord.Embed:
    """``/table list``: every table of the server, a line each."""
    return discord.Embed(
        title=text(language, "table.list.title"),
        description="\n".join(_line(language, line) for line in lines),
        colour=INFO_COLOUR,
    )
