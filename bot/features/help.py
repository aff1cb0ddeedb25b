"""``/help``: the commands on one phone screen with a button to the rules in one screen
(``overview``, ``HelpButton``), or one command's page (``/help command``); their words and
embeds are ``bot.render.help``'s.

Here: which command a user asks for, and the autocomplete that finds it by name or by the
words a player may look it up by, ``help.words.<command>`` (``herida``, ``curar``: command
names are English in every language). A command added later needs only its three catalog
entries (``help.who``, ``help.example``, ``help.words``), and a test fails until it has them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import Language, catalog, text
from bot.interaction.buttons import CustomId, SaludButton, button_view, choice
from bot.interaction.here import Here
from bot.interaction.sending import NO_MENTIONS
from bot.render.help import (
    Command,
    HelpPage,
    catalog_key,
    command_description,
    help_button_label,
    overview_embed,
)
from bot.render.limits import CHOICE_LENGTH_LIMIT, CHOICES_LIMIT
from rules.names import fold_name, starts_a_word

__all__ = [
    "HelpButton",
    "command_choices",
    "find_command",
    "leaf_commands",
    "overview",
    "search_words",
]

#: The buttons each page carries, to the pages it leads to (the commands' page one button, to
#: the rules; each rules page to the commands and to the other rules).
PAGE_BUTTONS: dict[HelpPage, tuple[HelpPage, ...]] = {
    "commands": ("rules",),
    "rules": ("commands", "stability"),
    "stability": ("commands", "rules"),
}


def leaf_commands(tree: app_commands.CommandTree[Any]) -> list[Command]:
    """Every command a user can run (groups left out), by name."""
    found = [item for item in tree.walk_commands() if isinstance(item, app_commands.Command)]
    return sorted(found, key=lambda command: command.qualified_name)


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
        label = f"/{command.qualified_name} — {command_description(command, language)}"
        choices.append(
            app_commands.Choice(name=label[:CHOICE_LENGTH_LIMIT], value=command.qualified_name)
        )
    return choices


def overview(page: HelpPage, language: Language) -> tuple[discord.Embed, discord.ui.View]:
    """``/help`` without options (``bot.render.help.overview_embed``), with its buttons to
    the other pages."""
    view = button_view()
    for other in PAGE_BUTTONS[page]:
        view.add_item(HelpButton(other, help_button_label(page, other, language)))
    return overview_embed(page, language), view


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

    async def pressed(self, here: Here) -> None:
        embed, view = overview(self.page, here.private_language)
        await here.interaction.response.edit_message(
            embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
        )
