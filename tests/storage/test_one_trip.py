"""``one_trip.in_one_trip``, the one use of aiosqlite's private API: it must keep working with
the aiosqlite versions ``pyproject.toml`` allows, and those must be the ones it was written
for."""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import AsyncIterator
from importlib import metadata
from pathlib import Path

import aiosqlite
import pytest

from bot.storage.sqlite.one_trip import in_one_trip

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@pytest.fixture
async def conn() -> AsyncIterator[aiosqlite.Connection]:
    async with aiosqlite.connect(":memory:", isolation_level=None) as connection:
        await connection.execute("CREATE TABLE t (v TEXT UNIQUE)")
        yield connection


def test_the_aiosqlite_bound_is_the_one_it_was_written_for() -> None:
    """A new aiosqlite may change ``Connection._execute``: raise the bound only after
    checking ``one_trip.py`` against it."""
    bound = re.search(r'"aiosqlite(>=[^"]+)"', PYPROJECT.read_text(encoding="utf-8"))
    assert bound is not None and bound.group(1) == ">=0.20,<0.23"
    major, minor = (int(part) for part in metadata.version("aiosqlite").split(".")[:2])
    assert (major, minor) >= (0, 20) and (major, minor) < (0, 23)


async def test_the_work_runs_in_aiosqlite_thread_in_order_with_its_other_calls(
    conn: aiosqlite.Connection,
) -> None:
    await conn.execute("INSERT INTO t (v) VALUES ('public call first')")

    def work(raw: sqlite3.Connection) -> tuple[int, list[str]]:
        raw.execute("INSERT INTO t (v) VALUES ('in the trip')")
        return threading.get_ident(), [row[0] for row in raw.execute("SELECT v FROM t")]

    thread, seen = await in_one_trip(conn, work)
    assert thread != threading.get_ident()
    assert seen == ["public call first", "in the trip"]
    rows = await conn.execute_fetchall("SELECT count(*) FROM t")
    assert [tuple(row) for row in rows] == [(2,)]


async def test_the_works_error_is_raised_to_the_caller(conn: aiosqlite.Connection) -> None:
    def twice(raw: sqlite3.Connection) -> None:
        raw.execute("INSERT INTO t (v) VALUES ('a')")
        raw.execute("INSERT INTO t (v) VALUES ('a')")

    with pytest.raises(sqlite3.IntegrityError):
        await in_one_trip(conn, twice)


async def test_a_closed_connection_is_refused_as_aiosqlite_refuses_it() -> None:
    connection = await aiosqlite.connect(":memory:")
    await connection.close()
    with pytest.raises(ValueError):
        await in_one_trip(connection, lambda raw: raw.execute("SELECT 1"))
