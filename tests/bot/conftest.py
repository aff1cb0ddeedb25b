"""Fixtures of the bot's in-process tests: a fake Discord of the test's own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from devkit.fake_discord import FakeDiscord


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord started in this process (the pacer's and the tracker's tests)."""
    server = FakeDiscord(app_name="Salud tests")
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
