"""Which characters a command is about, so that a refusal can name them (COMMANDS.md
"Refusals name who they are about": ``Sgt. O'Malley está inconsciente: …``).

The rules refuse with a code and numbers, never a name: the character options note here
what they resolved to (``character``, ``medic``, ``patient``), and ``bot.interaction.tree`` fills
the refusal's ``{name}`` with the one the refusal is about, agreeing with its gender.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.interaction.context import SaludInteraction, context_of
from bot.storage import CharacterRef

__all__ = ["note_options", "note_subject", "subject_for"]

#: Refusals about the medic of a ``/firstaid``; the other ``/firstaid`` refusals are about
#: the patient.
_ABOUT_MEDIC = frozenset({"medic_dead", "medic_unconscious", "not_enough_first_aid"})
#: Which option a refusal of each code is about first, when the command has several.
_ORDER = ("character", "patient", "medic")


def note_subject(
    interaction: discord.Interaction[Any], option: str, character: CharacterRef
) -> None:
    """Remember that ``option`` of this interaction names ``character``."""
    context_of(interaction).subjects[option] = character


def note_options(
    interaction: discord.Interaction[Any], typed: object, character: CharacterRef
) -> None:
    """Note ``character`` for every option of the interaction whose typed value is ``typed``
    (a transformer is not told which option it is resolving)."""
    for option, value in interaction.namespace:
        if value == typed:
            note_subject(interaction, option, character)


def subject_for(interaction: discord.Interaction[Any], code: str) -> CharacterRef | None:
    """The character a refusal with ``code`` is about, if the command named one."""
    if not isinstance(interaction, SaludInteraction):  # refused before Salud's gateway saw it
        return None
    noted = interaction.salud.subjects
    if code in _ABOUT_MEDIC and "medic" in noted:
        return noted["medic"]
    for option in _ORDER:
        if option in noted:
            return noted[option]
    return None
