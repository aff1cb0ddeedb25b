"""Which characters a command is about, so that a refusal can name them (COMMANDS.md
"Refusals name who they are about": ``Sgt. O'Malley está inconsciente: …``).

The rules refuse with a code, numbers and the party the refusal concerns
(``rules.errors.Party``: the subject of the action, or the medic who acts on another), never
a name. The character options note here, on the interaction (typed), what they
resolved to; ``bot.interaction.tree`` asks for the character of the refusal's party and fills
the refusal's ``{name}`` with it, agreeing with its gender.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.interaction.context import SaludInteraction, salud_of
from bot.storage.models import CharacterRef
from rules.errors import Party

__all__ = ["PARTY_OPTIONS", "note_options", "note_subject", "subject_of"]

#: The options (as Discord names them, in every language) that name each party, in the
#: order a refusal looks for them: a command has one of them at most.
PARTY_OPTIONS: Mapping[Party, tuple[str, ...]] = {
    Party.SUBJECT: ("character", "patient"),
    Party.MEDIC: ("medic",),
}


def note_subject(
    interaction: discord.Interaction[Any], option: str, character: CharacterRef
) -> None:
    """Remember that ``option`` of this interaction names ``character``."""
    salud_of(interaction).subjects[option] = character


def note_options(
    interaction: discord.Interaction[Any], typed: object, character: CharacterRef
) -> None:
    """Note ``character`` for every option of the interaction whose typed value is ``typed``
    (a transformer is not told which option it is resolving)."""
    for option, value in interaction.namespace:
        if value == typed:
            note_subject(interaction, option, character)


def subject_of(interaction: discord.Interaction[Any], party: Party) -> CharacterRef | None:
    """The character ``party`` is in this interaction, if the command named one."""
    if not isinstance(interaction, SaludInteraction):  # refused before Salud's gateway saw it
        return None
    noted = interaction.subjects
    for option in PARTY_OPTIONS[party]:
        if option in noted:
            return noted[option]
    return None
