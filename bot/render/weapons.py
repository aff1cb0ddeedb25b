"""The usual GUMSHOE damages that ``/hurt``'s ``amount`` suggests (COMMANDS.md: fist or kick
``1d6-2`` … a firearm at point-blank range adds 2 more), named in the user's language."""

from __future__ import annotations

from dataclasses import dataclass

from discord import app_commands

from bot.i18n.catalogs import Language, text
from bot.render.limits import CHOICE_LENGTH_LIMIT, CHOICES_LIMIT
from rules.dice import parse_amount

__all__ = ["WEAPONS", "Weapon", "weapon_choices"]


@dataclass(frozen=True)
class Weapon:
    """A usual GUMSHOE damage, suggested by ``amount``'s autocomplete."""

    key: str
    expression: str


#: COMMANDS.md: fist or kick ``1d6-2`` … a firearm at point-blank range adds 2 more.
WEAPONS: tuple[Weapon, ...] = (
    Weapon("fist", "1d6-2"),
    Weapon("knife", "1d6-1"),
    Weapon("machete", "1d6"),
    Weapon("sword", "1d6+1"),
    Weapon("light_point_blank", "1d6+2"),
    Weapon("heavy_point_blank", "1d6+3"),
)


def weapon_choices(typed: str, language: Language) -> list[app_commands.Choice[str]]:
    """The usual weapon damages whose label or expression contains ``typed``; a valid
    expression typed by the user comes first, as typed."""
    needle = typed.strip().casefold()
    choices: list[app_commands.Choice[str]] = []
    values = {weapon.expression for weapon in WEAPONS}
    if needle:
        try:
            parse_amount(typed)
        except Exception:  # not (yet) an amount: just filter the suggestions
            pass
        else:
            if typed.strip() not in values:
                shown = typed.strip()[:CHOICE_LENGTH_LIMIT]
                choices.append(app_commands.Choice(name=shown, value=typed.strip()))
    for weapon in WEAPONS:
        label = text(language, f"health.weapon.{weapon.key}", expression=weapon.expression)
        if not needle or needle in label.casefold() or needle in weapon.expression:
            choices.append(
                app_commands.Choice(name=label[:CHOICE_LENGTH_LIMIT], value=weapon.expression)
            )
    return choices[:CHOICES_LIMIT]
