"""``/hurt``, ``/conscious``, ``/firstaid``, ``/rest``: Health lost and won (COMMANDS.md).

Thin adapters: parse the options, check who may act, call one feature function
(``bot.features.health``, ``bot.features.rolls.consciousness``) and send the reply it returns.
Every refusal is raised (a ``RuleError`` or ``UserFacingError``) and answered by
``bot.interaction.tree``.
"""

from __future__ import annotations

from collections.abc import Sequence

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludCog, SlashInteraction
from bot.features.characters.option import (
    DEFAULT_CHARACTER_OPTION,
    Character,
    Patient,
    resolve_character,
)
from bot.features.health.care import first_aid, take_rest
from bot.features.health.hurt import MAX_AMOUNT_LENGTH, wound
from bot.features.reply import send_reply
from bot.features.rolls.consciousness import CONSCIOUSNESS, perform_consciousness_roll
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here, private_language
from bot.interaction.transformers import InRange, Reason
from bot.render.common import safe
from bot.render.weapons import weapon_choices
from bot.storage import LightCharacter
from rules.consciousness import MAX_SPEND
from rules.first_aid import MAX_FIRST_AID_POINTS
from rules.rest import MAX_DAYS

#: The description of /hurt's character2–4: one more character hit by the same blow.
HIT_TOO = _("Another character hit by the same blow (own damage roll)", key="cmd.hurt.character2")


def _hurt_targets(chosen: Sequence[LightCharacter | None]) -> list[LightCharacter]:
    """The characters one ``/hurt`` hits, in option order; a character named twice refuses
    the whole command (each target rolls its own damage: twice would be two blows)."""
    targets: list[LightCharacter] = []
    for character in chosen:
        if character is None:
            continue
        if any(target.id == character.id for target in targets):
            raise UserFacingError("health.error.hurt_twice", name=safe(character.name))
        targets.append(character)
    return targets


class HealthCog(SaludCog):
    """Damage, the Consciousness roll, First Aid and rest."""

    # --- /hurt ------------------------------------------------------------------------------

    @app_commands.command(name="hurt", description=_("Damage a character", key="cmd.hurt"))
    @app_commands.guild_only()
    @app_commands.describe(
        character=_("The character hit", key="cmd.hurt.character"),
        amount=_("Damage: a number (5) or dice (1d6+1)", key="cmd.hurt.amount"),
        reason=_("What caused the wound (up to 100 characters)", key="cmd.hurt.reason"),
        character2=HIT_TOO,
        character3=HIT_TOO,
        character4=HIT_TOO,
    )
    async def hurt(
        self,
        interaction: SlashInteraction,
        character: Character,
        amount: app_commands.Range[str, 1, MAX_AMOUNT_LENGTH],
        reason: Reason | None = None,
        character2: Character | None = None,
        character3: Character | None = None,
        character4: Character | None = None,
    ) -> None:
        here = await Here.of(interaction)
        targets = _hurt_targets([character, character2, character3, character4])
        for target in targets:
            here.require_owner_or_gm(target, "action.hurt")
        await send_reply(here, await wound(here, targets, amount, reason))

    @hurt.autocomplete("amount")
    async def amount_autocomplete(
        self, interaction: SlashInteraction, current: str
    ) -> list[app_commands.Choice[str]]:
        language = await private_language(interaction)
        return weapon_choices(current, language)

    # --- /conscious -------------------------------------------------------------------------

    @app_commands.command(
        name="conscious",
        description=_("Make a Consciousness roll (the bot rolls)", key="cmd.conscious"),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character=DEFAULT_CHARACTER_OPTION,
        spend=_("Health points to add to the die (default 0)", key="cmd.conscious.spend"),
    )
    async def conscious(
        self,
        interaction: SlashInteraction,
        character: Character | None = None,
        spend: app_commands.Transform[int, InRange("spend", 0, MAX_SPEND)] = 0,
    ) -> None:
        here = await Here.of(interaction)
        target = character or await resolve_character(here, None)
        here.require_owner_or_gm(target, "action.conscious")  # once, before the storage lock
        saved, roll = await perform_consciousness_roll(
            here, target.id, spend, require_pending=False
        )
        await CONSCIOUSNESS.reply(here, saved, roll)

    # --- /firstaid --------------------------------------------------------------------------

    @app_commands.command(
        name="firstaid",
        description=_("Give First Aid: heal or stabilize another character", key="cmd.firstaid"),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        medic=_("The character who gives First Aid", key="cmd.firstaid.medic"),
        patient=_("The character who receives First Aid", key="cmd.firstaid.patient"),
        points=_("First Aid points the medic spends (1–99)", key="cmd.firstaid.points"),
    )
    async def firstaid(
        self,
        interaction: SlashInteraction,
        medic: Character,
        patient: Patient,
        points: app_commands.Transform[int, InRange("points", 1, MAX_FIRST_AID_POINTS)],
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(medic, "action.firstaid")
        await send_reply(here, await first_aid(here, medic, patient, points))

    # --- /rest ------------------------------------------------------------------------------

    @app_commands.command(
        name="rest", description=_("Days of rest, at home or in hospital", key="cmd.rest")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character=_("The character who rests", key="cmd.rest.character"),
        days=_("Days of rest (1–365)", key="cmd.rest.days"),
        hospital=_(
            "In hospital (needed when Seriously wounded; default: no)", key="cmd.rest.hospital"
        ),
    )
    async def rest(
        self,
        interaction: SlashInteraction,
        character: Character,
        days: app_commands.Transform[int, InRange("days", 1, MAX_DAYS)],
        hospital: bool = False,
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "action.rest")
        await send_reply(here, await take_rest(here, character, days, hospital=hospital))


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(HealthCog(bot))
