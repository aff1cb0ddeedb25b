"""``Pipeline``: queued statements go with the next trip, in order, and fail with it."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator

import aiosqlite
import pytest

from bot.storage.sqlite.pipeline import Pipeline


@pytest.fixture
async def conn() -> AsyncIterator[aiosqlite.Connection]:
    async with aiosqlite.connect(":memory:", isolation_level=None) as connection:
        await connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)")
        yield connection


async def test_queued_statements_run_in_order_with_the_next_trip(
    conn: aiosqlite.Connection,
) -> None:
    pipe = Pipeline(conn)
    pipe.queue("INSERT INTO t (v) VALUES (?)", ("a",))
    pipe.queue_many("INSERT INTO t (v) VALUES (?)", [("b",), ("c",)])
    pipe.queue_many("INSERT INTO t (v) VALUES (?)", [])  # nothing to send
    pipe.queue("UPDATE t SET v = v || '!' WHERE v = ?", ("a",))
    assert [tuple(r) for r in await conn.execute_fetchall("SELECT count(*) FROM t")] == [(0,)]
    rows = await pipe.fetchall("SELECT v FROM t ORDER BY id")
    assert [row[0] for row in rows] == ["a!", "b", "c"]
    assert await pipe.insert("INSERT INTO t (v) VALUES (?)", ("d",)) == 4  # nothing sent again
    assert [row[0] for row in await conn.execute_fetchall("SELECT v FROM t")] == [
        "a!",
        "b",
        "c",
        "d",
    ]


async def test_a_failing_queued_statement_fails_the_trip_and_stops_it(
    conn: aiosqlite.Connection,
) -> None:
    pipe = Pipeline(conn)
    pipe.queue("INSERT INTO t (v) VALUES (?)", ("a",))
    pipe.queue("INSERT INTO t (v) VALUES (?)", ("a",))  # UNIQUE
    pipe.queue("INSERT INTO t (v) VALUES (?)", ("never",))
    with pytest.raises(sqlite3.IntegrityError):
        await pipe.execute("INSERT INTO t (v) VALUES (?)", ("nor this",))
    rows = await conn.execute_fetchall("SELECT v FROM t")
    assert [row[0] for row in rows] == ["a"]
    await pipe.execute("SELECT 1")  # the failed trip's statements are not sent again
    assert [row[0] for row in await conn.execute_fetchall("SELECT v FROM t")] == ["a"]


async def test_discarded_statements_never_run(conn: aiosqlite.Connection) -> None:
    pipe = Pipeline(conn)
    pipe.queue("INSERT INTO t (v) VALUES (?)", ("a",))
    pipe.discard()
    assert [tuple(r) for r in await pipe.fetchall("SELECT count(*) FROM t")] == [(0,)]


async def test_a_probe_goes_with_the_next_trip_and_keeps_its_first_row(
    conn: aiosqlite.Connection,
) -> None:
    pipe = Pipeline(conn)
    pipe.queue("INSERT INTO t (v) VALUES (?)", ("a",))
    pipe.probe("count", "SELECT count(*), count(*) + 1 FROM t")
    pipe.probe("missing", "SELECT v FROM t WHERE v = ?", ("zzz",))
    assert pipe.probed == {}  # nothing sent yet
    rows = await pipe.fetchall("SELECT v FROM t")
    assert [row[0] for row in rows] == ["a"]
    assert pipe.probed == {"count": (1, 2), "missing": None}
    pipe.probe("after failure", "SELECT 1")
    pipe.queue("INSERT INTO t (v) VALUES (?)", ("a",))  # UNIQUE: the trip fails
    with pytest.raises(sqlite3.IntegrityError):
        await pipe.execute("SELECT 1")
    assert "after failure" not in pipe.probed
