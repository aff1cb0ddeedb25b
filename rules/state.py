"""Health states (H2): a function of current Health alone."""

from __future__ import annotations

from enum import Enum

from rules._bands import LOST_THRESHOLD, SERIOUS_THRESHOLD, Band, band_of

__all__ = ["DEATH_THRESHOLD", "SERIOUSLY_WOUNDED_AT", "HealthState", "state_of"]

#: Health at or below which a character is dead (H5): the lost band shared with Stability.
DEATH_THRESHOLD = LOST_THRESHOLD
#: Health at or below which a living character is Seriously wounded (H2).
SERIOUSLY_WOUNDED_AT = SERIOUS_THRESHOLD


class HealthState(Enum):
    """The four states of RULES.md H2, from best to worst."""

    HEALTHY = "healthy"
    HURT = "hurt"
    SERIOUSLY_WOUNDED = "seriously_wounded"
    DEAD = "dead"


#: H2: one state for each band of the pool.
_STATE_OF_BAND = {
    Band.ABOVE_ZERO: HealthState.HEALTHY,
    Band.LOW: HealthState.HURT,
    Band.SERIOUS: HealthState.SERIOUSLY_WOUNDED,
    Band.LOST: HealthState.DEAD,
}


def state_of(health: int) -> HealthState:
    """The state that a Health value means (H2)."""
    return _STATE_OF_BAND[band_of(health)]
