"""Health states (H2): a function of current Health alone."""

from __future__ import annotations

from enum import Enum

__all__ = ["DEATH_THRESHOLD", "HealthState", "state_of"]

#: Health at or below which a character is dead (H5).
DEATH_THRESHOLD = -12


class HealthState(Enum):
    """The four states of RULES.md H2, from best to worst."""

    HEALTHY = "healthy"
    HURT = "hurt"
    SERIOUSLY_WOUNDED = "seriously_wounded"
    DEAD = "dead"


def state_of(health: int) -> HealthState:
    """The state that a Health value means (H2)."""
    if health >= 1:
        return HealthState.HEALTHY
    if health >= -5:
        return HealthState.HURT
    if health > DEATH_THRESHOLD:
        return HealthState.SERIOUSLY_WOUNDED
    return HealthState.DEAD
