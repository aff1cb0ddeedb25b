"""The bands of a pool that may fall below 0: shared by Health (H1, H2) and Stability (M1–M4).

Both pools are cut at the same places: above 0; 0 to -5; -6 to -11; -12 or less. Health names
a state after each band (H2: Healthy, Hurt, Seriously wounded, Dead); Stability folds the two
middle bands into Shaken (M2), marks a fall into the third with a mental illness (M3), and
calls the last incurable insanity (M4). A spend may never take either pool into the last
band (C4, M7). Private: the public names are ``HealthState`` and ``StabilityState``.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["LOST_THRESHOLD", "SERIOUS_THRESHOLD", "Band", "band_of", "max_spend_above_lost"]

#: H5, M4: a pool at or below this is lost for good (death, incurable insanity).
LOST_THRESHOLD = -12
#: H2, M3: the serious band (Seriously wounded, the mental illness) starts here.
SERIOUS_THRESHOLD = -6


class Band(Enum):
    """Where a pool stands, from best to worst."""

    ABOVE_ZERO = "above_zero"
    LOW = "low"
    SERIOUS = "serious"
    LOST = "lost"


def band_of(pool: int) -> Band:
    """The band of ``pool``: 1 or more, 0 to -5, -6 to -11, -12 or less."""
    if pool >= 1:
        return Band.ABOVE_ZERO
    if pool > SERIOUS_THRESHOLD:
        return Band.LOW
    if pool > LOST_THRESHOLD:
        return Band.SERIOUS
    return Band.LOST


def max_spend_above_lost(pool: int, cap: int) -> int:
    """C4, M7: the largest spend, at most ``cap``, that leaves ``pool`` above the lost band
    (0 when none is possible). Any spend up to it is legal, also one larger than a positive
    pool."""
    return max(0, min(cap, pool - LOST_THRESHOLD - 1))
