"""``/firstaid`` and ``/rest``: Health won back, by a medic's First Aid or by days of rest,
saved with its history entry, and the reply (``bot.render.care``)."""

from __future__ import annotations

from bot.features.reply import ChangeReply
from bot.interaction.here import Here
from bot.render.care import first_aid_embeds, rest_embeds
from bot.render.change import should_announce
from bot.storage.details import FirstAidDetails, RestDetails
from bot.storage.models import LightCharacter
from rules.first_aid import give_first_aid
from rules.rest import rest as rest_days

__all__ = ["first_aid", "take_rest"]


async def first_aid(
    here: Here, medic: LightCharacter, patient: LightCharacter, points: int
) -> ChangeReply:
    """``medic`` (whom the user may act for) spends ``points`` of First Aid on ``patient``."""
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
    return ChangeReply(
        [saved_patient, saved_medic],
        lambda viewer, language: first_aid_embeds(
            saved_medic, saved_patient, result, points, language, viewer
        ),
        announce=should_announce([result.patient, result.medic]),
    )


async def take_rest(
    here: Here, character: LightCharacter, days: int, *, hospital: bool
) -> ChangeReply:
    """``character`` (whom the user may act for) rests ``days``, in hospital or not; a rest
    that changes nothing is not recorded."""
    async with here.change() as tx:
        current = await tx.character(character)
        outcome = rest_days(current.health, days, hospital=hospital)
        saved = current
        if outcome.changed:
            saved = await tx.save_health(current, outcome.after)
            await here.history(RestDetails(days=days, hospital=hospital)).record(tx)
    return ChangeReply(
        [saved],
        lambda viewer, language: rest_embeds(saved, outcome, language, viewer),
        announce=should_announce([outcome]),
    )
