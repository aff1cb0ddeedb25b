"""Points discord.py at the fake Discord, inside the bot process only (tests, never production).

This directory is put first on the bot subprocess's PYTHONPATH by devkit/harness.py; Python
imports `sitecustomize` at start-up. Nothing happens unless SALUD_FAKE_DISCORD_URL is set.
With SALUD_DEVKIT_PROBE also set (the harness's `BotProcess(probe=True)`, which the tests use),
`devkit.probe` is installed: scripted dice and round trips counted per interaction.
"""

from __future__ import annotations

import os


def _point_discord_at_fake(url: str) -> None:
    """REST base, gateway address and a short guild-ready wait, all aimed at the fake."""
    import asyncio

    import discord
    import discord.gateway
    import discord.http
    import discord.state
    import yarl

    url = url.rstrip("/")
    discord.http.Route.BASE = f"{url}/api/v10"
    ws_url = "ws" + url.removeprefix("http") + "/gateway"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(ws_url)

    timeout = float(os.environ.get("SALUD_FAKE_GUILD_READY_TIMEOUT", "0.1"))
    original_init = discord.state.ConnectionState.__init__

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        original_init(self, *args, **kwargs)
        self.guild_ready_timeout = min(self.guild_ready_timeout, timeout)

    discord.state.ConnectionState.__init__ = __init__  # type: ignore[method-assign]

    # discord.py waits 5 s before every IDENTIFY but the first (Discord's identify rate limit);
    # the fake has no such limit, so a re-IDENTIFY after INVALID_SESSION is immediate here.
    identify_delay = float(os.environ.get("SALUD_FAKE_IDENTIFY_DELAY", "0"))

    async def before_identify_hook(self, shard_id, *, initial=False):  # type: ignore[no-untyped-def]
        if not initial and identify_delay:
            await asyncio.sleep(identify_delay)

    discord.Client.before_identify_hook = before_identify_hook  # type: ignore[method-assign]


def _slow_commits(spec: str) -> None:
    """A slow disk: every trip to aiosqlite's thread that commits (ends a transaction other
    than by ``rollback()``) then sleeps in that thread, ``spec`` seconds (``0.2``) or a random
    time in a range (``0.3-1.4``), as an fsync on an SD card or a busy VPS would."""
    import random
    import sqlite3
    import time

    import aiosqlite.core

    low_text, _, high_text = spec.partition("-")
    low = float(low_text)
    high = float(high_text or low_text)
    original = aiosqlite.core.Connection._execute

    async def _execute(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        if getattr(fn, "__name__", "") == "rollback":
            return await original(self, fn, *args, **kwargs)

        def slowed():  # type: ignore[no-untyped-def]
            connection = self._conn
            was_open = connection.in_transaction
            try:
                return fn(*args, **kwargs)
            finally:
                try:
                    ended = was_open and not connection.in_transaction
                except sqlite3.ProgrammingError:  # the call closed the connection
                    ended = False
                if ended:
                    time.sleep(random.uniform(low, high))

        return await original(self, slowed)

    aiosqlite.core.Connection._execute = _execute  # type: ignore[method-assign]


def _shift_clock(seconds: float) -> None:
    """A wall clock ``seconds`` ahead of the world's (behind when negative): what the bot
    must not trust to tell an interaction's age."""
    import time

    real = time.time
    time.time = lambda: real() + seconds  # type: ignore[assignment]


if os.environ.get("SALUD_DEVKIT_COMMIT_DELAY"):
    _slow_commits(os.environ["SALUD_DEVKIT_COMMIT_DELAY"])
if os.environ.get("SALUD_DEVKIT_CLOCK_OFFSET"):
    _shift_clock(float(os.environ["SALUD_DEVKIT_CLOCK_OFFSET"]))
if os.environ.get("SALUD_DEVKIT_TASK_PROBE"):  # the bot's tasks counted (devkit/task_probe.py)
    from devkit.task_probe import install as _count_tasks

    _count_tasks(os.environ["SALUD_DEVKIT_TASK_PROBE"])

_URL = os.environ.get("SALUD_FAKE_DISCORD_URL")
if _URL:
    if not _URL.startswith(("http://127.0.0.1:", "http://localhost:")):
        raise SystemExit(f"SALUD_FAKE_DISCORD_URL must be a loopback address, got {_URL!r}")
    _point_discord_at_fake(_URL)
    _PROBE = os.environ.get("SALUD_DEVKIT_PROBE")
    if _PROBE:
        from devkit import probe

        probe.install(_PROBE)
