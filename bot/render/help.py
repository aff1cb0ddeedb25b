"""``/help`` in words: the commands on one phone screen, the rules of Health and of Stability
a screen each, and one command's page (``/help command``).

A command's page is built from the command tree itself: the options, their descriptions,
ranges and choices come from the command's own metadata (what Discord shows, in the user's
language); only "who may use it" and "an example" are written by hand, as the catalog entries
``help.who.<command>`` and ``help.example.<command>`` (``catalog_key``). Which command is
asked for, its autocomplete and the buttons between pages are ``bot.features.help``'s.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands

from bot.i18n.catalogs import Language, catalog, text
from bot.render.cut import cut
from bot.render.limits import FIELD_VALUE_LIMIT, INFO_COLOUR

__all__ = [
    "SECTIONS",
    "Command",
    "HelpPage",
    "catalog_key",
    "command_description",
    "command_page",
    "help_button_label",
    "overview_embed",
]

#: The pages of ``/help`` without options: the commands, then the rules of Health and of
#: Stability, each one phone screen (both rules together are two).
HelpPage = Literal["commands", "rules", "stability"]

#: The sections of the commands' page, each an embed field: (name key, value key).
SECTIONS = (
    ("help.characters.name", "help.characters.value"),
    ("help.play.name", "help.play.value"),
    ("help.abilities.name", "help.abilities.value"),
    ("help.gm.name", "help.gm.value"),
)

Command = app_commands.Command[Any, ..., Any]


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


def command_description(command: Command, language: Language) -> str:
    """What ``command`` does, in ``language``, as Discord shows it."""
    # discord.py keeps the locale_str of a command's description only here.
    return _localized(
        getattr(command, "_locale_description", None) or command.description, language
    )


def _choice_labels(parameter: app_commands.Parameter, language: Language) -> str:
    """The choices as the user's Discord shows them (``femenino o masculino``), never the
    values the bot stores."""
    labels = [
        _localized(getattr(choice, "_locale_name", None) or choice.name, language)
        for choice in parameter.choices
    ]
    if len(labels) < 2:
        return "".join(labels)
    return ", ".join(labels[:-1]) + text(language, "names.or") + labels[-1]


_NUMBERED = re.compile(r"(?P<stem>.*\D)(?P<number>[2-9])")


def _series(parameters: list[app_commands.Parameter]) -> list[list[app_commands.Parameter]]:
    """The options in order, a numbered run (``character2``, ``character3``, ``character4``:
    the same stem and description, numbers in a row) gathered into one group."""
    groups: list[list[app_commands.Parameter]] = []
    for parameter in parameters:
        found = _NUMBERED.fullmatch(parameter.name)
        if found and groups:
            last = groups[-1][-1]
            before = _NUMBERED.fullmatch(last.name)
            follows = (
                before is not None
                and before["stem"] == found["stem"]
                and int(before["number"]) + 1 == int(found["number"])
                and last.description == parameter.description
            )
            if follows:
                groups[-1].append(parameter)
                continue
        groups.append([parameter])
    return groups


def _option_line(group: list[app_commands.Parameter], language: Language) -> str:
    """``• `amount` (required) — Damage: a number (5) or dice (1d6+1)``; the choices as
    labels (``… the character: she/her or he/him``); a numbered run once:
    ``• `character2`–`character4` (optional) — …``."""
    first, last = group[0], group[-1]
    name = f"`{first.display_name}`"
    if len(group) > 1:
        name += f"–`{last.display_name}`"
    need = "help.page.required" if first.required else "help.page.optional"
    description = _localized(first.locale_description or first.description, language)
    if first.choices:
        description = text(
            language,
            "help.page.choices",
            description=description,
            choices=_choice_labels(first, language),
        )
    return text(
        language,
        "help.page.option",
        name=name,
        need=text(language, need),
        description=description,
    )


def command_page(command: Command, language: Language) -> discord.Embed:
    """The page of one command: what it does, its options, who may use it, an example."""
    embed = discord.Embed(
        title=f"/{command.qualified_name}",
        description=command_description(command, language),
        colour=INFO_COLOUR,
    )
    lines = [_option_line(group, language) for group in _series(list(command.parameters))]
    options = "\n".join(lines) if lines else text(language, "help.page.no_options")
    options = cut(options, FIELD_VALUE_LIMIT)
    embed.add_field(name=text(language, "help.page.options"), value=options, inline=False)
    key = catalog_key(command)
    for title, entry in (("help.page.who", "help.who"), ("help.page.example", "help.example")):
        if f"{entry}.{key}" in catalog(language):
            embed.add_field(
                name=text(language, title), value=text(language, f"{entry}.{key}"), inline=False
            )
    embed.set_footer(text=text(language, "help.page.footer"))
    return embed


def overview_embed(page: HelpPage, language: Language) -> discord.Embed:
    """``/help`` without options: the commands on one phone screen (at most 30 lines), or the
    rules of Health or of Stability in one screen each."""
    if page == "commands":
        embed = discord.Embed(
            title=text(language, "help.title"),
            description=text(language, "help.description"),
            colour=INFO_COLOUR,
        )
        for name_key, value_key in SECTIONS:
            embed.add_field(
                name=text(language, name_key), value=text(language, value_key), inline=False
            )
        embed.set_footer(text=text(language, "help.footer"))
    else:
        embed = discord.Embed(
            title=text(language, f"help.{page}.name"),
            description=text(language, f"help.{page}.value"),
            colour=INFO_COLOUR,
        )
        embed.set_footer(text=text(language, "help.rules.footer"))
    return embed


def help_button_label(page: HelpPage, other: HelpPage, language: Language) -> str:
    """The words of the button on ``page`` that turns to ``other``: from Stability's rules,
    the rules of Health are "Health", not "The rules"."""
    label = "health" if page == "stability" and other == "rules" else other
    return text(language, f"help.button.{label}")
