"""Reliability tests: the real bot under concurrency, crashes, a flaky Discord and bad input.

They reuse the end-to-end fixtures (a fake Discord in this process, the bot as a subprocess)
by importing them; tests that break the bot's connection or kill it use a bot of their own
(``support.isolated_bot``) so that the shared one stays healthy for the other tests. Every
test here is marked ``e2e``; the heavier variants also ``stress`` (``make stress``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import (  # noqa: F401  (fixtures, registered by importing them)
    _no_new_tracebacks,
    bot,
    fake,
    guild,
    make_guild,
    salud_bot,
    salud_pair,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test under tests/reliability with `e2e`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
