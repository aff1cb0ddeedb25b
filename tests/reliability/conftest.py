"""Reliability tests: the real bot under concurrency, crashes, a flaky Discord and bad input.

They reuse the end-to-end fixtures (a fake Discord in this process, the bot as a subprocess)
by importing them; tests that break the bot's connection or kill it use a bot of their own
(``support.isolated_bot``) so that the shared one stays healthy for the other tests. Every
test here is marked ``e2e``; the heavier variants also ``stress`` (``make stress``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devkit.postgres import PostgresServer, running_postgres
from tests.e2e.conftest import (  # noqa: F401  (fixtures, registered by importing them)
    _no_new_tracebacks,
    bot,
    fake,
    guild,
    internals_scan,
    make_guild,
    salud_bot,
    salud_pair,
)
from tests.e2e.kit.internals import InternalsScan


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test under tests/reliability with `e2e`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(autouse=True)
def _internals_not_scanned(internals_scan: InternalsScan) -> Iterator[None]:  # noqa: F811
    """The bot echoes what these tests type or send malformed (a character called ``C1``, a
    raw ``true``): the e2e suite's scan for internals (``tests/e2e/kit/internals.py``) is off
    during them, and until the next e2e test turns it back on."""
    internals_scan.scanning = False
    yield


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for this worker's tests on PostgreSQL (each test makes its own
    database on it: ``support.new_postgres_database``); started when a test first asks."""
    with running_postgres() as server:
        yield server
