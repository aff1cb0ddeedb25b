"""How long an interaction waited before the bot read it, from Discord's own timestamp.

Discord's 3 seconds run from when it created the interaction, not from when the bot read it:
a process that was frozen (``kill -STOP``, a VM's stolen time, swap, a long GC pause) finds
interactions that waited in its socket and look fresh when counted from their reading
(issue 24 point 13: 60 of 80 changes stored whose replies Discord then refused).

An interaction's id is a snowflake holding the millisecond Discord created it. The bot's wall
clock may be off Discord's by any amount (a skewed clock must change nothing, issue 19), so
the lag ``now - created`` is never used as it is: the least lag seen lately is what the clock
offset and the network cost, and what an interaction shows above it is how long it waited.
That least lag rises again slowly (``FORGET_PER_SECOND``), so that a wall clock stepped
forward costs deferrals for a while, never a change stored unanswered; a clock stepped back
lowers it at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["DISCORD_EPOCH_MS", "FORGET_PER_SECOND", "DiscordClock"]

#: Milliseconds from the Unix epoch to Discord's (2015-01-01), the start of snowflake time.
DISCORD_EPOCH_MS = 1_420_070_400_000
#: Seconds per second by which the least lag seen is forgotten: a clock's drift (parts per
#: million) stays far below it, a 5-s freeze moves it by 0.05 s.
FORGET_PER_SECOND = 0.01


class DiscordClock:
    """The least lag between Discord's timestamps and this process's wall clock, seen
    lately; ``waited(id)`` says how long one interaction sat unread beyond it."""

    def __init__(
        self,
        *,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._wall = wall
        self._monotonic = monotonic
        self._least_lag: float | None = None
        self._seen_at = 0.0  # monotonic, when the least lag was last brought up to date

    def waited(self, snowflake: object) -> float:
        """Seconds the interaction ``snowflake`` (its id, as Discord sends it) waited before
        now beyond the least lag seen lately (0 for an id that is not a snowflake)."""
        created = _created_seconds(snowflake)
        if created is None:
            return 0.0
        lag = self._wall() - created
        now = self._monotonic()
        least = self._least_lag
        if least is not None:
            least += FORGET_PER_SECOND * (now - self._seen_at)
        self._seen_at = now
        if least is None or lag < least:
            self._least_lag = lag
            return 0.0
        self._least_lag = least
        return lag - least


def _created_seconds(snowflake: object) -> float | None:
    """When Discord created what the snowflake names, in Unix seconds."""
    if (
        isinstance(snowflake, str)
        and snowflake.isascii()
        and snowflake.isdigit()
        and len(snowflake) <= 20
    ):
        value = int(snowflake)
    elif isinstance(snowflake, int) and not isinstance(snowflake, bool) and snowflake > 0:
        value = snowflake
    else:
        return None
    return ((value >> 22) + DISCORD_EPOCH_MS) / 1000.0
