"""The ``loss`` option of ``/stability test``: a potential loss, 1–30 (RULES.md M5), whose
autocomplete suggests the SRD's eleven example incidents in the user's language, in our own
words, each with its loss (``Ves a una criatura sobrenatural de cerca (4)``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import Language, text
from bot.interaction.here import private_language
from bot.interaction.transformers import InRange
from bot.render.limits import CHOICE_LENGTH_LIMIT, CHOICES_LIMIT
from rules.incidents import INCIDENTS
from rules.stability import MAX_LOSS, MIN_LOSS

__all__ = ["IncidentLoss", "incident_choices"]


def incident_choices(typed: str, language: Language) -> list[app_commands.Choice[int]]:
    """The example incidents whose loss starts with the digits typed (all of them when none
    are), by loss; a loss typed that no example has is offered first, as a plain loss."""
    needle = typed.strip()
    choices = [
        app_commands.Choice(
            name=text(
                language,
                "stability.incident.label",
                incident=text(language, f"stability.incident.{incident.key}"),
                loss=incident.loss,
            )[:CHOICE_LENGTH_LIMIT],
            value=incident.loss,
        )
        for incident in INCIDENTS
        if not needle or str(incident.loss).startswith(needle)
    ]
    if needle.isdigit() and MIN_LOSS <= int(needle) <= MAX_LOSS:
        loss = int(needle)
        if all(choice.value != loss for choice in choices):
            own = text(language, "stability.incident.own", loss=loss)[:CHOICE_LENGTH_LIMIT]
            choices.insert(0, app_commands.Choice(name=own, value=loss))
    return choices[:CHOICES_LIMIT]


class IncidentLoss(InRange):
    """``loss``: a whole number 1–30, with the example incidents as suggestions."""

    def __init__(self) -> None:
        super().__init__("loss", MIN_LOSS, MAX_LOSS)

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[int]]:
        return incident_choices(str(value), await private_language(interaction))
