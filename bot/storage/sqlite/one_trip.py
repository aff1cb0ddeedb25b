"""The one place that uses aiosqlite's private API: run a function on the ``sqlite3``
connection in aiosqlite's own thread, in one trip.

aiosqlite has no public way to run several statements in one trip to its thread; every
public call (``execute``, ``execute_fetchall`` …) goes through ``Connection._execute``, which
queues a function for the thread that owns the ``sqlite3`` connection (``Connection._conn``).
``Pipeline`` sends a transaction's queued statements this way. It pays: measured on this
project's 2-core machine (docs/DESIGN.md, Storage), a /hurt transaction takes 0.38–0.52 ms of
CPU in 2 trips against 0.52–0.70 ms in 6, and ``make bench`` answers /hurt with 50 in flight
at ~390 replies/s against ~330.

``pyproject.toml`` bounds aiosqlite to the versions this was written for (0.20–0.22), and
``tests/storage/test_one_trip.py`` fails if the bound changes or the call stops working.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiosqlite

__all__ = ["in_one_trip"]

T = TypeVar("T")


async def in_one_trip(conn: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(connection)`` run in ``conn``'s thread, in order with its other calls; its
    result, or its exception. ``ValueError`` when ``conn`` is closed (as aiosqlite's own)."""
    queue: Callable[..., Awaitable[T]] = conn._execute
    return await queue(work, conn._conn)
