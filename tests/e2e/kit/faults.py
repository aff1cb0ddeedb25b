"""Faults of the bot's host that a test switches on for its own bot (``SALUD_DEVKIT_*``, read
by ``devkit/sitecustomize``): never a production setting."""

from __future__ import annotations

#: Seconds every commit takes on the slow disk of ``slow_disk``: past the 2 s after which the
#: bot acknowledges an interaction it has not answered yet (``bot.interaction.deferral``).
SLOW_COMMIT_SECONDS = 2.1


def slow_disk(seconds: float | str = SLOW_COMMIT_SECONDS) -> dict[str, str]:
    """The environment of a bot whose every commit takes ``seconds`` (or a random time in a
    range, ``"0.3-1.4"``), as on an SD card or a busy VPS."""
    return {"SALUD_DEVKIT_COMMIT_DELAY": str(seconds)}


def shifted_clock(seconds: float) -> dict[str, str]:
    """The environment of a bot whose wall clock is ``seconds`` ahead of the world's (behind
    when negative)."""
    return {"SALUD_DEVKIT_CLOCK_OFFSET": str(seconds)}
