"""``/stability test|roll|treat``: Stability, the mind's pool (RULES.md M; COMMANDS.md
"Stability").

Thin adapters, as ``cogs/health.py``: parse the options, check who may act, apply one rule
(``rules``) in one transaction with its history entry, and answer publicly. A GM calls a
test (``bot.features.stability.call``); each player rolls their own, with the buttons of the
call or with ``/stability roll`` (``bot.features.rolls.stability``); a medic's
Psychoanalysis restores Stability or makes a mentally ill patient lucid for the scene.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.features.characters.option import (
    Character,
    StableCharacter,
    StablePatient,
    resolve_character,
)
from bot.features.numbers import send_screened
from bot.features.rolls.stability import perform_stability_roll, send_stability_roll
from bot.features.stability.call import call_tests, send_call
from bot.features.stability.incidents import IncidentLoss
from bot.i18n import Language, text
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.subjects import note_subject
from bot.interaction.transformers import MAX_REASON_LENGTH, InRange, clean_reason
from bot.render import safe
from bot.render.stability import stability_announce, stability_change_embeds
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.storage import LightCharacter, StoredCharacter
from bot.storage.details import StabilityTreatDetails
from rules.abilities import Ability
from rules.psychoanalysis import (
    MAX_PSYCHOANALYSIS_POINTS,
    STABILITY_PER_POINT,
    SelfPsychoanalysis,
    TreatmentResult,
    is_psychoanalysis,
    treat_stability,
)
from rules.stability import (
    DEFAULT_STABILITY_DIFFICULTY,
    MAX_STABILITY_DIFFICULTY,
    MAX_STABILITY_SPEND,
    MIN_STABILITY_DIFFICULTY,
)

if TYPE_CHECKING:
    from bot.app import SaludBot

log = logging.getLogger(__name__)

__all__ = ["StabilityCog"]

Loss = app_commands.Transform[int, IncidentLoss]
Difficulty = app_commands.Transform[
    int, InRange("difficulty", MIN_STABILITY_DIFFICULTY, MAX_STABILITY_DIFFICULTY)
]


def called_characters(chosen: list[LightCharacter | None]) -> list[LightCharacter]:
    """The characters of a call, in option order (the rules refuse one named twice)."""
    return [character for character in chosen if character is not None]


async def resolve_stable(here: Here) -> LightCharacter:
    """An omitted ``character``: the user's only character with Stability, else their only
    character (whose refusal then says it has no Stability), else the usual refusal."""
    own = [c for c in (await here.names()).owned_by(here.user_id) if c.has_stability]
    if len(own) == 1:
        note_subject(here.interaction, "character", own[0])
        return own[0]
    return await resolve_character(here, None)


def psychoanalysis_of(medic: StoredCharacter, same_character: bool) -> Ability:
    """The medic's Psychoanalysis (``Psychoanalysis``, ``Psicoanálisis`` or ``Shrink``), or
    the refusal that says how to give it; treating oneself is refused first (M9)."""
    found = next((a for a in medic.abilities if is_psychoanalysis(a.name)), None)
    if found is not None:
        return found
    if same_character:
        raise SelfPsychoanalysis()
    raise UserFacingError("stability.error.no_psychoanalysis", name=safe(medic.name))


def treatment_line(
    medic: StoredCharacter,
    patient: StoredCharacter,
    result: TreatmentResult,
    offered: int,
    language: Language,
    viewer: Viewer = EVERYONE,
) -> str:
    """``**Dr. Freud** gasta 2 de Psicoanálisis (5 → 3 / 8): +4 de Estabilidad``: the medic's
    spend with the pool before → after, and what it did; the rating named when it capped the
    Stability restored. A medic whose numbers ``viewer`` may not see treats without a spend
    or a pool."""
    after = result.psychoanalysis_after
    if not shows_numbers(medic, viewer):
        return text(language, "numbers.treat", medic=safe(medic.name), patient=safe(patient.name))
    pool = f"{after.pool + result.spent} → {after.pool} / {after.rating}"
    params = {"medic": safe(medic.name), "points": result.spent, "pool": pool}
    if result.lucid:
        return text(language, "stability.treat.lucid", patient=safe(patient.name), **params)
    if result.restored < STABILITY_PER_POINT * offered and patient.stability is not None:
        return text(
            language,
            "stability.treat.restored_limited",
            restored=result.restored,
            rating=patient.stability.rating,
            **params,
        )
    return text(language, "stability.treat.restored", restored=result.restored, **params)


@app_commands.guild_only()
class StabilityCog(
    commands.GroupCog,
    group_name="stability",
    group_description=_(
        "Stability: tests the players roll, and Psychoanalysis", key="cmd.stability"
    ),
):
    """Stability tests, their rolls and Psychoanalysis."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot
        super().__init__()

    # --- /stability test --------------------------------------------------------------------

    @app_commands.command(
        name="test",
        description=_(
            "GM: call a Stability test; each player rolls with the buttons",
            key="cmd.stability.test",
        ),
    )
    @app_commands.describe(
        loss=_("The incident's potential loss (1–30)", key="cmd.stability.test.loss"),
        character=_("A character who must test", key="cmd.stability.test.character"),
        character2=_("Another character facing the same incident", key="cmd.stability.test.more"),
        character3=_("Another character facing the same incident", key="cmd.stability.test.more"),
        character4=_("Another character facing the same incident", key="cmd.stability.test.more"),
        difficulty=_(
            "Difficulty (1–10; default 4, 3 if inured, 5 if susceptible)",
            key="cmd.stability.test.difficulty",
        ),
        reason=_("What they face (up to 100 characters)", key="cmd.stability.test.reason"),
    )
    async def test(
        self,
        interaction: discord.Interaction[SaludBot],
        loss: Loss,
        character: StableCharacter,
        character2: StableCharacter | None = None,
        character3: StableCharacter | None = None,
        character4: StableCharacter | None = None,
        difficulty: Difficulty = DEFAULT_STABILITY_DIFFICULTY,
        reason: app_commands.Range[str, 1, MAX_REASON_LENGTH] | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("stability.action.test")
        targets = called_characters([character, character2, character3, character4])
        shown_reason = clean_reason(reason)
        called = await call_tests(here, targets, loss, difficulty, shown_reason)
        await send_call(interaction, here, called)

    # --- /stability roll --------------------------------------------------------------------

    @app_commands.command(
        name="roll",
        description=_(
            "Roll your character's Stability test (the bot rolls)", key="cmd.stability.roll"
        ),
    )
    @app_commands.describe(
        character=_("The character (default: your only one)", key="cmd.option.character_default"),
        spend=_("Stability points to add to the die (default 0)", key="cmd.stability.roll.spend"),
    )
    async def roll(
        self,
        interaction: discord.Interaction[SaludBot],
        character: StableCharacter | None = None,
        spend: app_commands.Transform[int, InRange("spend", 0, MAX_STABILITY_SPEND)] = 0,
    ) -> None:
        here = await Here.of(interaction)
        target = character or await resolve_stable(here)
        here.require_owner_or_gm(target, "stability.action.roll")  # before the storage lock
        saved, made = await perform_stability_roll(here, target.id, spend)
        await send_stability_roll(interaction, here, saved, made)

    # --- /stability treat -------------------------------------------------------------------

    @app_commands.command(
        name="treat",
        description=_(
            "Psychoanalysis: restore another's Stability, or a lucid scene",
            key="cmd.stability.treat",
        ),
    )
    @app_commands.describe(
        medic=_("The character who spends Psychoanalysis", key="cmd.stability.treat.medic"),
        patient=_("The character treated", key="cmd.stability.treat.patient"),
        points=_("Psychoanalysis points the medic spends (1–99)", key="cmd.stability.treat.points"),
        lucidity=_(
            "A lucid scene for a mentally ill patient (2 points; default: no)",
            key="cmd.stability.treat.lucidity",
        ),
    )
    async def treat(
        self,
        interaction: discord.Interaction[SaludBot],
        medic: Character,
        patient: StablePatient,
        points: app_commands.Transform[int, InRange("points", 1, MAX_PSYCHOANALYSIS_POINTS)],
        lucidity: bool = False,
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(medic, "stability.action.treat")
        async with here.change() as tx:
            medic_now, patient_now = await tx.characters(medic, patient)
            same = medic_now.id == patient_now.id
            result = treat_stability(
                medic_now.health,
                patient_now.health,
                points,
                psychoanalysis=psychoanalysis_of(medic_now, same),
                patient_stability=patient_now.stability,
                medic_stability=medic_now.stability,
                lucidity=lucidity,
                same_character=same,
            )
            saved_medic = await tx.set_ability(medic_now, result.psychoanalysis_after)
            saved_patient = await tx.save_stability(patient_now, result.patient.after)
            details = StabilityTreatDetails(
                medic=medic_now.name,
                points=points,
                spent=result.spent,
                restored=result.restored,
                lucidity=result.lucid,
            )
            await here.history(details).record(tx)

        def render(viewer: Viewer, language: Language) -> list[discord.Embed]:
            line = treatment_line(saved_medic, saved_patient, result, points, language, viewer)
            return stability_change_embeds(
                saved_patient,
                result.patient,
                language,
                extra_fields=[(text(language, "stability.treat.field"), line)],
                viewer=viewer,
            )

        await send_screened(
            interaction,
            here,
            [saved_patient, saved_medic],
            render,
            announce=stability_announce([result.patient]),
        )


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(StabilityCog(bot))
