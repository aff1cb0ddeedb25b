"""``/stability treat``: a medic's Psychoanalysis (RULES.md M; COMMANDS.md "Stability")
restores a patient's Stability or makes a mentally ill patient lucid for the scene, saved
with its history entry, and the reply (``bot.render.care``)."""

from __future__ import annotations

from bot.features.reply import ChangeReply
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.care import treatment_embeds
from bot.render.common import safe
from bot.render.stability import stability_announce
from bot.storage.details import StabilityTreatDetails
from bot.storage.models import LightCharacter, StoredCharacter
from rules.abilities import Ability
from rules.psychoanalysis import SelfPsychoanalysis, is_psychoanalysis, treat_stability

__all__ = ["psychoanalysis_of", "treat"]


def psychoanalysis_of(medic: StoredCharacter, same_character: bool) -> Ability:
    """The medic's Psychoanalysis (``Psychoanalysis``, ``Psicoanálisis`` or ``Shrink``), or
    the refusal that says how to give it; treating oneself is refused first (M9)."""
    found = next((a for a in medic.abilities if is_psychoanalysis(a.name)), None)
    if found is not None:
        return found
    if same_character:
        raise SelfPsychoanalysis()
    raise UserFacingError("stability.error.no_psychoanalysis", name=safe(medic.name))


async def treat(
    here: Here,
    medic: LightCharacter,
    patient: LightCharacter,
    points: int,
    *,
    lucidity: bool,
) -> ChangeReply:
    """``medic`` (whom the user may act for) spends ``points`` of Psychoanalysis on
    ``patient``: Stability restored, or a lucid scene when ``lucidity``."""
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
    return ChangeReply(
        [saved_patient, saved_medic],
        lambda viewer, language: treatment_embeds(
            saved_medic, saved_patient, result, points, language, viewer
        ),
        announce=stability_announce([result.patient]),
    )
