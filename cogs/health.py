"""``/hurt``, ``/conscious``, ``/firstaid``, ``/rest``: Health lost and won (COMMANDS.md).

Thin adapters: parse the options, check who may act, apply one rule (``rules``) in one
transaction with its history entry, and answer publicly with ``bot.render.change``'s embeds. Every
refusal is raised (a ``RuleError`` or ``UserFacingError``) and answered by ``bot.interaction.tree``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.features.characters.option import Character, Patient, resolve_character
from bot.features.numbers import send_screened
from bot.features.rolls.consciousness import (
    consciousness_view,
    perform_consciousness_roll,
    send_roll_reply,
)
from bot.i18n import Language, text
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here, private_language
from bot.interaction.mentions import call_players
from bot.interaction.sending import RollButtons
from bot.interaction.transformers import MAX_REASON_LENGTH, InRange, clean_reason
from bot.render import safe
from bot.render.change import change_embeds, should_announce
from bot.render.first_aid import first_aid_line
from bot.render.hurt import hurt_embeds
from bot.render.limits import CHOICE_LENGTH_LIMIT, CHOICES_LIMIT
from bot.render.rest import rest_words
from bot.render.visibility import Viewer
from bot.storage import LightCharacter, StoredCharacter
from bot.storage.details import FirstAidDetails, HurtDetails, HurtTarget, RestDetails
from bot.storage.roll_messages import number_due_rolls
from rules.consciousness import MAX_SPEND
from rules.damage import apply_damage
from rules.dice import (
    DamageRoll,
    DiceExpression,
    DiceOutOfRange,
    FixedAmount,
    parse_amount,
    roll_amount,
)
from rules.errors import CharacterDead
from rules.first_aid import MAX_FIRST_AID_POINTS, give_first_aid
from rules.outcome import Outcome
from rules.rest import MAX_DAYS
from rules.rest import rest as rest_days

if TYPE_CHECKING:
    from bot.app import SaludBot


#: ``amount`` as typed: longer texts are refused by the dice parser anyway.
MAX_AMOUNT_LENGTH = 100


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


def _parse_amount(typed: str) -> DiceExpression | FixedAmount:
    """``rules.dice.parse_amount``, with an out-of-range limit named in the user's words."""
    try:
        return parse_amount(typed)
    except DiceOutOfRange as error:
        which = error.params.get("which")
        if which in {"count", "sides", "modifier", "amount"}:
            raise UserFacingError(
                f"error.dice_out_of_range.{which}",
                min=error.params.get("min"),
                max=error.params.get("max"),
            ) from error
        raise


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


def hurt_targets(chosen: Sequence[LightCharacter | None]) -> list[LightCharacter]:
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


def hurt_details(
    amount: str,
    reason: str | None,
    hits: Sequence[tuple[StoredCharacter, Outcome, DamageRoll]],
) -> HurtDetails:
    """The history details of a ``/hurt``: the amount and, per target, the damage rolled."""
    targets = tuple(
        HurtTarget(dealt=roll.dealt, dice=tuple(roll.dice), name=saved.name)
        for saved, _outcome, roll in hits
    )
    return HurtDetails(amount=amount.strip(), targets=targets, reason=reason or None)


class HealthCog(commands.Cog):
    """Damage, the Consciousness roll, First Aid and rest."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot

    # --- /hurt ------------------------------------------------------------------------------

    @app_commands.command(name="hurt", description=_("Damage a character", key="cmd.hurt"))
    @app_commands.guild_only()
    @app_commands.describe(
        character=_("The character hit", key="cmd.hurt.character"),
        amount=_("Damage: a number (5) or dice (1d6+1)", key="cmd.hurt.amount"),
        reason=_("What caused the wound (up to 100 characters)", key="cmd.hurt.reason"),
        character2=_(
            "Another character hit by the same blow (own damage roll)", key="cmd.hurt.character2"
        ),
        character3=_(
            "Another character hit by the same blow (own damage roll)", key="cmd.hurt.character2"
        ),
        character4=_(
            "Another character hit by the same blow (own damage roll)", key="cmd.hurt.character2"
        ),
    )
    async def hurt(
        self,
        interaction: discord.Interaction[SaludBot],
        character: Character,
        amount: app_commands.Range[str, 1, MAX_AMOUNT_LENGTH],
        reason: app_commands.Range[str, 1, MAX_REASON_LENGTH] | None = None,
        character2: Character | None = None,
        character3: Character | None = None,
        character4: Character | None = None,
    ) -> None:
        here = await Here.of(interaction)
        targets = hurt_targets([character, character2, character3, character4])
        for target in targets:
            here.require_owner_or_gm(target, "action.hurt")
        expression = _parse_amount(amount)
        shown_reason = clean_reason(reason)
        rolls = [roll_amount(expression, here.dice) for _ in targets]
        async with here.change() as tx:
            hits = []
            for target, roll in zip(targets, rolls, strict=True):
                current = await tx.character(target)
                try:
                    outcome = apply_damage(current.health, roll.dealt)
                except CharacterDead as dead:
                    if len(targets) == 1:
                        raise
                    # Several targets: say which one stops the blow.
                    name = safe(current.name)
                    raise UserFacingError("health.error.target_dead", name=name) from dead
                hits.append((await tx.save_health(current, outcome.after), outcome, roll))
            numbers = await number_due_rolls(tx, here.table_id, [(c, o) for c, o, _ in hits])
            await here.history(hurt_details(amount, shown_reason, hits)).record(tx)
        language = here.public_language
        await send_screened(
            interaction,
            here,
            [saved for saved, _, _ in hits],
            lambda viewer, language: hurt_embeds(hits, expression, shown_reason, language, viewer),
            announce=should_announce([outcome for _, outcome, _ in hits]),
            view=consciousness_view([saved for saved, _, _ in hits], language, numbers),
            call=call_players(
                [(saved, outcome) for saved, outcome, _ in hits],
                caller=here.user_id,
                language=language,
            ),
            buttons=RollButtons(numbers),
        )

    @hurt.autocomplete("amount")
    async def amount_autocomplete(
        self, interaction: discord.Interaction[SaludBot], current: str
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
        character=_("The character (default: your only one)", key="cmd.option.character_default"),
        spend=_("Health points to add to the die (default 0)", key="cmd.conscious.spend"),
    )
    async def conscious(
        self,
        interaction: discord.Interaction[SaludBot],
        character: Character | None = None,
        spend: app_commands.Transform[int, InRange("spend", 0, MAX_SPEND)] = 0,
    ) -> None:
        here = await Here.of(interaction)
        target = character or await resolve_character(here, None)
        here.require_owner_or_gm(target, "action.conscious")  # once, before the storage lock
        saved, roll = await perform_consciousness_roll(
            here, target.id, spend, require_pending=False
        )
        await send_roll_reply(interaction, here, saved, roll)

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
        interaction: discord.Interaction[SaludBot],
        medic: Character,
        patient: Patient,
        points: app_commands.Transform[int, InRange("points", 1, MAX_FIRST_AID_POINTS)],
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(medic, "action.firstaid")
        async with here.change() as tx:
            medic_now, patient_now = await tx.characters(medic, patient)
            result = give_first_aid(
                medic_now.health,
                patient_now.health,
                points,
                same_character=medic_now.id == patient_now.id,
                medic_stability=medic_now.stability,
            )
            saved_medic = await tx.save_health(medic_now, result.medic.after)
            saved_patient = await tx.save_health(patient_now, result.patient.after)
            details = FirstAidDetails(
                medic=medic_now.name,
                points=points,
                spent=result.spent,
                restored=result.restored,
                stabilized=result.stabilized,
                patient=patient_now.name,
            )
            await here.history(details).record(tx)

        def render(viewer: Viewer, language: Language) -> list[discord.Embed]:
            first_aid = text(language, "render.status.first_aid")
            given = first_aid_line(saved_medic, result, points, language, viewer)
            return change_embeds(
                saved_patient,
                result.patient,
                language,
                extra_fields=[(first_aid, given)],
                viewer=viewer,
            )

        await send_screened(
            interaction,
            here,
            [saved_patient, saved_medic],
            render,
            announce=should_announce([result.patient, result.medic]),
        )

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
        interaction: discord.Interaction[SaludBot],
        character: Character,
        days: app_commands.Transform[int, InRange("days", 1, MAX_DAYS)],
        hospital: bool = False,
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "action.rest")
        async with here.change() as tx:
            current = await tx.character(character)
            outcome = rest_days(current.health, days, hospital=hospital)
            saved = current
            if outcome.changed:
                saved = await tx.save_health(current, outcome.after)
                await here.history(RestDetails(days=days, hospital=hospital)).record(tx)
        await send_screened(
            interaction,
            here,
            [saved],
            lambda viewer, language: change_embeds(
                saved, outcome, language, told=rest_words(saved, outcome, language), viewer=viewer
            ),
            announce=should_announce([outcome]),
        )


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(HealthCog(bot))
