"""Scenes (RULES.md S1, S2): what First Aid may restore is counted per scene."""

from __future__ import annotations

from dataclasses import replace

from rules.character import CharacterHealth
from rules.events import SceneStarted
from rules.outcome import Outcome

__all__ = ["start_scene"]


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
