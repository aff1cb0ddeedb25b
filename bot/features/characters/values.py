"""The options of a character's values (``/character create|set``): each number's range,
declared once (``InRange``), and the ``gender`` choices (COMMANDS.md Grammar)."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.interaction.errors import UserFacingError
from bot.interaction.transformers import InRange
from bot.render.common import safe
from bot.storage.details import GenderChoice
from rules.character import MAX_HEALTH_RATING, MAX_POOL_RATING, Gender
from rules.correction import MAX_CORRECTED_STABILITY, MIN_CORRECTED_STABILITY
from rules.stability import MAX_STABILITY_RATING

__all__ = [
    "GENDER_CHOICES",
    "MAX_SET_HEALTH",
    "MIN_SET_HEALTH",
    "SET_GENDER_CHOICES",
    "FirstAid",
    "HealthRating",
    "MaxFirstAid",
    "MaxHealth",
    "MaxStability",
    "SetHealth",
    "SetStability",
    "StabilityRating",
    "gender_choice",
    "gender_of",
]

#: ``/character set health`` range (a correction may set any Health a character can have).
MIN_SET_HEALTH, MAX_SET_HEALTH = -99, 99

# The number options, each range declared once (``InRange``).
HealthRating = app_commands.Transform[int, InRange("health", 1, MAX_HEALTH_RATING)]
SetHealth = app_commands.Transform[int, InRange("health", MIN_SET_HEALTH, MAX_SET_HEALTH)]
MaxHealth = app_commands.Transform[int, InRange("max_health", 1, MAX_HEALTH_RATING)]
FirstAid = app_commands.Transform[int, InRange("first_aid", 0, MAX_POOL_RATING)]
MaxFirstAid = app_commands.Transform[int, InRange("max_first_aid", 0, MAX_POOL_RATING)]
StabilityRating = app_commands.Transform[int, InRange("stability", 1, MAX_STABILITY_RATING)]
SetStability = app_commands.Transform[
    int, InRange("stability", MIN_CORRECTED_STABILITY, MAX_CORRECTED_STABILITY)
]
MaxStability = app_commands.Transform[int, InRange("max_stability", 0, MAX_STABILITY_RATING)]

#: ``gender`` of /character create: how replies speak of the character (COMMANDS.md Grammar).
GENDER_CHOICES = [
    app_commands.Choice(name=_("she/her", key="cmd.gender.feminine"), value="feminine"),
    app_commands.Choice(name=_("he/him", key="cmd.gender.masculine"), value="masculine"),
]
#: ``gender`` of /character set: also ``none``, to take it back.
SET_GENDER_CHOICES = [
    *GENDER_CHOICES,
    app_commands.Choice(name=_("none (they/their)", key="cmd.gender.none"), value="none"),
]


def gender_of(choice: app_commands.Choice[str] | None) -> Gender | None:
    """The stored gender of a ``gender`` choice (``none`` and no choice: None)."""
    if choice is None or choice.value == "none":
        return None
    try:
        return Gender(choice.value)
    except ValueError:
        raise UserFacingError("error.bad_option", value=safe(str(choice.value))) from None


def gender_choice(gender: Gender | None) -> GenderChoice:
    """The history's record of a ``gender`` given to ``/character set`` (``none``: taken back)."""
    return "none" if gender is None else gender.value
