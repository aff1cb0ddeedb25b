"""``/help command``: one page per command, built from the command tree itself.

The options, their descriptions, ranges and choices come from the command's own metadata
(what Discord shows); only "who may use it" and "an example" are written by hand, as the
catalog entries ``help.who.<command>`` and ``help.example.<command>`` (spaces and dashes as
underscores: ``help.who.character_create``). A command added later needs only those two
entries, and a test fails until it has them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import Language, catalog, text
from bot.render.limits import FIELD_VALUE_LIMIT, INFO_COLOUR

__all__ = [
    "catalog_key",
    "command_choices",
    "command_page",
    "find_command",
    "leaf_commands",
]

#: Discord: 25 autocomplete choices, 100 characters a choice name.
_CHOICES, _CHOICE_LENGTH = 25, 100

Command = app_commands.Command[Any, ..., Any]


def leaf_commands(tree: app_commands.CommandTree[Any]) -> list[Command]:
    """Every command a user can run (groups left out), by name."""
    found = [item for item in tree.walk_commands() if isinstance(item, app_commands.Command)]
    return sorted(found, key=lambda command: command.qualified_name)


def catalog_key(command: Command) -> str:
    """``character create`` → ``character_create`` (the suffix of its two help entries)."""
    return command.qualified_name.replace(" ", "_").replace("-", "_")


def _localized(value: object, language: Language) -> str:
    """A ``locale_str`` in ``language`` (its ``key`` in the catalog), else the text as is."""
    if isinstance(value, app_commands.locale_str):
        key = value.extras.get("key")
        if isinstance(key, str) and key in catalog(language):
            return text(language, key)
        return value.message
    return str(value or "")


def _description(command: Command, language: Language) -> str:
    # discord.py keeps the locale_str of a command's description only here.
    return _localized(
        getattr(command, "_locale_description", None) or command.description, language
    )


def find_command(tree: app_commands.CommandTree[Any], typed: str) -> Command | None:
    """The command called ``typed`` (``/character create`` or ``character create``, any case)."""
    wanted = " ".join(typed.strip().lstrip("/").casefold().split())
    for command in leaf_commands(tree):
        if command.qualified_name == wanted:
            return command
    return None


def command_choices(
    commands: Iterable[Command], typed: str, language: Language
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the commands whose name contains ``typed``, with their description."""
    needle = " ".join(typed.strip().lstrip("/").casefold().split())
    choices = []
    for command in commands:
        if needle and needle not in command.qualified_name:
            continue
        label = f"/{command.qualified_name} — {_description(command, language)}"
        choices.append(
            app_commands.Choice(name=label[:_CHOICE_LENGTH], value=command.qualified_name)
        )
    return choices[:_CHOICES]


def _option_line(parameter: app_commands.Parameter, language: Language) -> str:
    """``• `amount` (required) — Damage: a number (5) or dice (1d6+1)`` and its choices."""
    need = "help.page.required" if parameter.required else "help.page.optional"
    line = text(
        language,
        "help.page.option",
        name=parameter.display_name,
        need=text(language, need),
        description=_localized(parameter.locale_description or parameter.description, language),
    )
    if parameter.choices:
        shown = ", ".join(f"`{choice.value}`" for choice in parameter.choices)
        line += " " + text(language, "help.page.choices", choices=shown)
    return line


def command_page(command: Command, language: Language) -> discord.Embed:
    """The page of one command: what it does, its options, who may use it, an example."""
    embed = discord.Embed(
        title=f"/{command.qualified_name}",
        description=_description(command, language),
        colour=INFO_COLOUR,
    )
    lines = [_option_line(parameter, language) for parameter in command.parameters]
    options = "\n".join(lines) if lines else text(language, "help.page.no_options")
    if len(options) > FIELD_VALUE_LIMIT:
        options = options[: FIELD_VALUE_LIMIT - 1] + "…"
    embed.add_field(name=text(language, "help.page.options"), value=options, inline=False)
    key = catalog_key(command)
    for title, entry in (("help.page.who", "help.who"), ("help.page.example", "help.example")):
        if f"{entry}.{key}" in catalog(language):
            embed.add_field(
                name=text(language, title), value=text(language, f"{entry}.{key}"), inline=False
            )
    embed.set_footer(text=text(language, "help.page.footer"))
    return embed
