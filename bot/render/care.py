"""The replies of care given (COMMANDS.md "Changes", "First Aid", "Stability"): the patient's
change with the line that says the medic's spend (``/firstaid``, ``/stability treat``), and a
``/rest``'s change told in one sentence (``bot.render.rest``)."""

from __future__ import annotations

import discord

from bot.i18n.catalogs import Language, text
from bot.render.change import change_embeds
from bot.render.common import safe
from bot.render.first_aid import first_aid_line
from bot.render.rest import rest_words
from bot.render.stability import stability_change_embeds
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.storage.models import StoredCharacter
from rules.first_aid import FirstAidResult
from rules.outcome import Outcome
from rules.psychoanalysis import STABILITY_PER_POINT, TreatmentResult

__all__ = ["first_aid_embeds", "rest_embeds", "treatment_embeds", "treatment_line"]


def first_aid_embeds(
    medic: StoredCharacter,
    patient: StoredCharacter,
    result: FirstAidResult,
    offered: int,
    language: Language,
    viewer: Viewer,
) -> list[discord.Embed]:
    """A ``/firstaid``: the patient's change, with the medic's spend and what it gave back
    (``bot.render.first_aid``); both as saved."""
    first_aid = text(language, "render.status.first_aid")
    given = first_aid_line(medic, result, offered, language, viewer)
    return change_embeds(
        patient,
        result.patient,
        language,
        extra_fields=[(first_aid, given)],
        viewer=viewer,
    )


def rest_embeds(
    character: StoredCharacter, outcome: Outcome, language: Language, viewer: Viewer
) -> list[discord.Embed]:
    """A ``/rest``: the change, what it did told in one sentence."""
    told = rest_words(character, outcome, language)
    return change_embeds(character, outcome, language, told=told, viewer=viewer)


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


def treatment_embeds(
    medic: StoredCharacter,
    patient: StoredCharacter,
    result: TreatmentResult,
    offered: int,
    language: Language,
    viewer: Viewer,
) -> list[discord.Embed]:
    """A ``/stability treat``: the patient's Stability change, with the medic's spend
    (``treatment_line``); both as saved."""
    line = treatment_line(medic, patient, result, offered, language, viewer)
    return stability_change_embeds(
        patient,
        result.patient,
        language,
        extra_fields=[(text(language, "stability.treat.field"), line)],
        viewer=viewer,
    )
