"""Snowflakes and tokens for the fake Discord: real-looking ids so discord.py's created_at works."""

from __future__ import annotations

import itertools
import secrets
import time

DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)


def snowflake() -> str:
    """A new, unique, time-ordered snowflake as Discord sends it (a string)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return str((ms << 22) | (next(_counter) & 0x3FFFFF))


def token() -> str:
    """A random interaction token."""
    return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)


def iso_now() -> str:
    """The current time in Discord's ISO 8601 format."""
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1e6):06d}+00:00"
