"""``/help``: the commands on one phone screen with a button to the rules in one screen
(``overview``, ``HelpButton``), or one command's page (``/help command``).

A command's page is built from the command tree itself: the options, their descriptions,
ranges and choices come from the command's own metadata (what Discord shows, in the user's
language); only "who may use it" and "an example" are written by hand, as the catalog entries
``help.who.<command>`` and ``help.example.<command>`` (spaces and dashes as underscores:
``help.who.character_create``), and the words a player may look it up by,
``help.words.<command>`` (``herida``, ``curar``: command names are English in every language).
A command added later needs only those three entries, and a test fails until it has them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal

import discord
from discord import app_commands

from bot.i18n import Language, catalog, text
from bot.interaction.buttons import CustomId, SaludButton, button_view, choice
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS
from bot.render.cut import cut
from bot.render.limits import (
    CHOICE_LENGTH_LIMIT,
    CHOICES_LIMIT,
    FIELD_VALUE_LIMIT,
    INFO_COLOUR,
)
from rules.names import fold_name, starts_a_word

__all__ = [
    "HelpButton",
    "catalog_key",
    "command_choices",
    "command_page",
    "find_command",
    "leaf_commands",
    "overview",
    "search_words",
]

#: The pages of ``/help`` without options: the commands, then the rules of Health and of
#: Stability, each one phone screen (both rules together are two).
HelpPage = Literal["commands", "rules", "stability"]

#: The buttons each page carries, to the pages it leads to (the commands' page one button, to
#: the rules; each rules page to the commands and to the other rules).
PAGE_BUTTONS: dict[HelpPage, tuple[HelpPage, ...]] = {
    "commands": ("rules",),
    "rules": ("commands", "stability"),
    "stability": ("commands", "rules"),
}

#: The sections of the commands' page, each an embed field: (name key, value key).
SECTIONS = (
    ("help.characters.name", "help.characters.value"),
    ("help.play.name", "help.play.value"),
    ("help.abilities.name", "help.abilities.value"),
    ("help.gm.name", "help.gm.value"),
)

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


def search_words(command: Command) -> str:
    """The words ``command`` is looked up by, folded as names are (case and accents ignored):
    its catalog entry ``help.words.<command>`` in both languages, so that a Spanish player
    whose Discord speaks English still finds ``/hurt`` by ``herida``."""
    key = f"help.words.{catalog_key(command)}"
    words = [text(language, key) for language in Language if key in catalog(language)]
    return fold_name(" ".join(words))


def command_choices(
    commands: Iterable[Command], typed: str, language: Language
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the commands whose name contains ``typed``, then those with a word that
    ``typed`` begins (``estab``, ``cur``, ``herid``), each with its description."""
    needle = " ".join(typed.strip().lstrip("/").casefold().split())
    folded = fold_name(needle)
    by_name: list[Command] = []
    by_word: list[Command] = []
    for command in commands:
        if not needle or needle in command.qualified_name:
            by_name.append(command)
        elif all(starts_a_word(search_words(command), word) for word in folded.split()):
            by_word.append(command)
    choices = []
    for command in (by_name + by_word)[:CHOICES_LIMIT]:
        label = f"/{command.qualified_name} — {_description(command, language)}"
        choices.append(
            app_commands.Choice(name=label[:CHOICE_LENGTH_LIMIT], value=command.qualified_name)
        )
    return choices


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
        description=_description(command, language),
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


def overview(page: HelpPage, language: Language) -> tuple[discord.Embed, discord.ui.View]:
    """``/help`` without options: the commands on one phone screen (at most 30 lines), or the
    rules of Health or of Stability in one screen each; each with its buttons to the others."""
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
    view = button_view()
    for other in PAGE_BUTTONS[page]:
        # From Stability's rules, the rules of Health are "Health", not "The rules".
        label = "health" if page == "stability" and other == "rules" else other
        view.add_item(HelpButton(other, text(language, f"help.button.{label}")))
    return embed, view


#: ``salud:help:<commands|rules|stability>``: the page the button turns to.
HELP_ID = CustomId("help", choice("page", "commands", "rules", "stability"))


class HelpButton(SaludButton, custom_id=HELP_ID):
    """Turns ``/help`` to its other page, in the language of whoever presses it (the page is
    theirs alone: ephemeral)."""

    def __init__(self, page: HelpPage, label: str = "") -> None:
        super().__init__(HELP_ID.build(page=page), label or page)
        self.page: HelpPage = page

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> HelpButton:
        pages: dict[str, HelpPage] = {"rules": "rules", "stability": "stability"}
        return cls(pages.get(match["page"], "commands"), label)

    async def pressed(self, interaction: discord.Interaction[Any], here: Here) -> None:
        embed, view = overview(self.page, here.private_language)
        await interaction.response.edit_message(
            embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
        )
