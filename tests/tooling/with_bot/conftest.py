"""Tests of the tools that need a bot running: the fake Discord with the bare floor bot
(``test_fake_discord.py``), the probe in the real bot (``test_probe.py``), the benchmark's
floor against Salud (``test_floor_shapes.py``) and ``make bench --quick``
(``test_bench_quick.py``).

They start processes, so every test here is marked ``e2e`` as well as ``tooling`` (``make
unit`` leaves them out). They use the end-to-end fixtures and after-each-test checks of
``tests/e2e/conftest.py`` (tracebacks, dice left unrolled, internals, private numbers),
registered here by importing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import (  # noqa: F401  (fixtures, registered by importing them)
    _no_internals_shown,
    _no_new_tracebacks,
    _no_private_numbers_shown,
    bot,
    fake,
    floor_bot,
    floor_fake,
    floor_guild,
    floor_pair,
    guild,
    internals_scan,
    salud_bot,
    salud_pair,
    screen_scan,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test under tests/tooling/with_bot with `e2e`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
