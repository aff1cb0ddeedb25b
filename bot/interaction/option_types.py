"""Option values of the wrong JSON type, refused before a command sees them.

Discord sends each option's value with the type the command declared; a client that does not
(or a bug) would otherwise reach discord.py's converters and the cogs with, say, a number where
text was expected (``amount: 5``), ``true`` for an integer (Python's ``bool`` is an ``int``:
``health: true`` would create Health 1), ``9.5`` for an integer, or ``"notanid"`` for a user.
``check_option_types`` compares every value of a slash command with the type its parameter
declares and refuses the first that does not fit: the user gets the ephemeral "invalid value"
error, and nothing runs.
"""

from __future__ import annotations

import json
import weakref
from typing import Any

import discord
from discord import app_commands

from bot.interaction.errors import UserFacingError
from bot.render.sanitize import escape

__all__ = ["check_option_types"]

_Type = discord.AppCommandOptionType
#: Where Discord puts the object an id option names (``data.resolved``).
_RESOLVED: dict[_Type, tuple[str, ...]] = {
    _Type.user: ("users", "members"),
    _Type.channel: ("channels",),
    _Type.role: ("roles",),
    _Type.mentionable: ("users", "members", "roles"),
    _Type.attachment: ("attachments",),
}
_NESTING = {_Type.subcommand.value, _Type.subcommand_group.value}


#: Each command's declared option types by option name, made once per command: discord.py's
#: ``Command.parameters`` builds new objects at every call, and this runs for every command.
_DECLARED: weakref.WeakKeyDictionary[Any, dict[str, _Type]] = weakref.WeakKeyDictionary()


def _declared(command: app_commands.Command[Any, Any, Any]) -> dict[str, _Type]:
    types = _DECLARED.get(command)
    if types is None:
        types = {parameter.display_name: parameter.type for parameter in command.parameters}
        _DECLARED[command] = types
    return types


def _fits(kind: _Type, value: Any, resolved: Any) -> bool:
    if kind is _Type.string:
        return isinstance(value, str)
    if kind is _Type.integer:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is _Type.number:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is _Type.boolean:
        return isinstance(value, bool)
    if kind in _RESOLVED:
        # An id, as text, of an object Discord sent along: else the command would get a bare id.
        if not (isinstance(value, str) and value.isascii() and value.isdigit()):
            return False
        tables = resolved if isinstance(resolved, dict) else {}
        return any(isinstance(tables.get(t), dict) and value in tables[t] for t in _RESOLVED[kind])
    return True


def _refuse(value: Any, option: str) -> UserFacingError:
    raw = value if isinstance(value, str) else json.dumps(value, default=str)  # as Discord sent it
    shown = escape(raw)
    return UserFacingError("error.option_type", value=shown[:60], option=option[:32])


def check_option_types(tree: app_commands.CommandTree[Any], data: Any) -> None:
    """Raise ``UserFacingError("error.option_type")`` when an option of the slash command in
    ``data`` (the interaction's ``data``) has a value its parameter cannot take."""
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise _refuse(data, "?")
    command: Any = tree.get_command(data["name"])
    options = data.get("options", [])
    while True:
        if not isinstance(options, list) or not all(isinstance(o, dict) for o in options):
            raise _refuse(options, data["name"])
        nested = next((o for o in options if o.get("type") in _NESTING), None)
        if nested is None or not isinstance(command, app_commands.Group):
            break
        command = command.get_command(str(nested.get("name")))
        options = nested.get("options", [])
    if not isinstance(command, app_commands.Command):
        return  # unknown or outdated: the tree answers that itself
    declared = _declared(command)
    for option in options:
        name = option.get("name")
        kind = declared.get(name) if isinstance(name, str) else None
        if kind is None:  # an out-of-date client's option: refused, never applied
            raise UserFacingError("error.outdated_command")
        value = option.get("value")
        if not _fits(kind, value, data.get("resolved")):
            raise _refuse(value, str(name))
