"""Tests of the development tools themselves: bench/, devkit/, tools/ and the e2e suite's scan
for internals (what they compute, and what they may import), not of the bot. Every test here
is marked ``tooling``. None starts the bot, except those in ``with_bot/``: the fake Discord,
the probe and the benchmark checked against a running bot, marked ``e2e`` too (its
conftest)."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test under tests/tooling with `tooling`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.tooling)
