"""Scenes (RULES.md S1, S2, M6, M10): First Aid, failed Stability tests and lucidity are
counted per scene."""

from __future__ import annotations

from dataclasses import replace

from rules.character import CharacterHealth
from rules.events import Event, SceneStarted
from rules.outcome import Outcome
from rules.stability import CharacterStability, StabilityOutcome
from rules.stability_events import LucidityEnded

__all__ = ["start_scene", "start_stability_scene"]


def start_scene(character: CharacterHealth) -> Outcome:
    """S1: Health now becomes the scene's starting Health; First Aid received resets.

    S2 needs nothing here: ``CharacterHealth.new`` starts the scene at full Health.
    """
    after = replace(character, scene_start_health=character.health, first_aid_received=0)
    return Outcome(
        before=character,
        after=after,
        events=(SceneStarted(scene_start_health=character.health),),
    )


def start_stability_scene(stability: CharacterStability | None) -> StabilityOutcome:
    """M6, M10: the scene's worst incident and failure losses back to 0, lucidity over; a
    due test stays due. Without Stability, or with nothing to reset, no change."""
    if stability is None:
        return StabilityOutcome(before=None, after=None, events=())
    events: list[Event] = [LucidityEnded()] if stability.lucid else []
    after = replace(stability, scene_worst_loss=0, scene_lost=0, lucid=False)
    return StabilityOutcome(before=stability, after=after, events=tuple(events))
