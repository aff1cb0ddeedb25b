"""Faults of the fake Discord that a test switches on for its own duration."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import devkit.fake_discord.server as fake_server
from devkit.fake_discord import ids

#: How late an interaction reaches the bot, of Discord's 3 s to answer.
LATE_MS = 2300


@contextmanager
def interactions_created_late(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Interaction ids (snowflakes carry their creation time) dated 2.3 s in the past."""

    def late_snowflake() -> str:
        ms = int(time.time() * 1000) - LATE_MS - ids.DISCORD_EPOCH_MS
        return str((ms << 22) | (next(ids._counter) & 0x3FFFFF))

    with monkeypatch.context() as patch:
        patch.setattr(fake_server, "snowflake", late_snowflake)
        yield
