"""The SRD's example incidents of a Stability test (RULES.md M5), as data.

Each has a stable key and its potential loss; the words, in English and Spanish, are the
bot's (its catalogs look them up by key), so that ``loss`` can suggest them in the user's
language. Ordered as RULES.md lists them: by loss, then as the SRD lists them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["INCIDENTS", "Incident", "find_incident"]


@dataclass(frozen=True)
class Incident:
    """An example incident: a stable ``key`` and its potential ``loss`` (M5)."""

    key: str
    loss: int


INCIDENTS: tuple[Incident, ...] = (
    Incident("human_attack_harm", 2),
    Incident("vehicle_accident", 2),
    Incident("human_attack_kill", 3),
    Incident("creature_seen_far", 3),
    Incident("creature_seen_near", 4),
    Incident("grisly_scene", 4),
    Incident("loved_one_died_violently", 4),
    Incident("loved_one_body_found", 6),
    Incident("creature_attack", 7),
    Incident("loved_one_killed", 7),
    Incident("loved_one_killed_gruesomely", 8),
)

_BY_KEY = {incident.key: incident for incident in INCIDENTS}


def find_incident(key: str) -> Incident | None:
    """The example incident with ``key``, if any."""
    return _BY_KEY.get(key)
