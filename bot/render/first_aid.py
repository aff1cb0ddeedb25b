"""The line that says a First Aid (COMMANDS.md "Changes", "First Aid"): under the patient's
Health, the medic's spend with the pool before → after and the Health it gave back
(``Padre Tomás spends 2 First Aid (5 → 3 / 8): +4 Health``); when a limit caps the
healing, which one: a third of the maximum Health per scene (F3), the Health at the start of
the scene (F2), the maximum (H6)."""

from __future__ import annotations

from bot.i18n.catalogs import Language, text
from bot.render.common import safe
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.storage.models import StoredCharacter
from rules.character import CharacterHealth
from rules.first_aid import HEALTH_PER_POINT, FirstAidResult, first_aid_cap

__all__ = ["first_aid_line", "healing_limit"]


def healing_limit(
    patient: CharacterHealth, offered: int, restored: int, language: Language
) -> str | None:
    """Which limit kept the healing below what the points offered would give (2 a point),
    in words with its value; None when nothing capped it. ``patient`` as it was before."""
    if restored >= HEALTH_PER_POINT * offered:
        return None
    start = min(patient.scene_start_health, patient.max_health)
    lost_this_scene = start - patient.health
    cap = first_aid_cap(patient)
    if cap - patient.first_aid_received < lost_this_scene:
        return text(language, "render.first_aid.limit.third", cap=cap)
    if patient.scene_start_health >= patient.max_health:
        return text(language, "render.first_aid.limit.maximum", health=patient.max_health)
    return text(language, "render.first_aid.limit.scene_start", health=start)


def first_aid_line(
    medic: StoredCharacter,
    result: FirstAidResult,
    offered: int,
    language: Language,
    viewer: Viewer = EVERYONE,
) -> str:
    """``**Padre Tomás** gasta 2 de Primeros Auxilios (5 → 3 / 8): +4 de Salud.`` (see the
    module); a stabilization says only the spend, its sentence follows. A medic whose
    numbers ``viewer`` may not see gives First Aid without a spend or a pool."""
    if not shows_numbers(medic, viewer):
        key = "numbers.firstaid"
        given = {"medic": safe(medic.name), "restored": result.restored}
        if result.stabilized:
            return text(language, f"{key}.stabilized", **given)
        limit = healing_limit(result.patient.before, offered, result.restored, language)
        if limit is None:
            return text(language, f"{key}.healed", **given)
        return text(language, f"{key}.healed_limited", limit=limit, **given)
    pool = (
        f"{result.medic.before.first_aid_pool} → {medic.health.first_aid_pool}"
        f" / {medic.health.first_aid_rating}"
    )
    params = {"medic": safe(medic.name), "points": result.spent, "pool": pool}
    if result.stabilized:
        return text(language, "health.firstaid.stabilized", **params)
    limit = healing_limit(result.patient.before, offered, result.restored, language)
    if limit is None:
        return text(language, "health.firstaid.healed", restored=result.restored, **params)
    return text(
        language, "health.firstaid.healed_limited", restored=result.restored, limit=limit, **params
    )
