"""Database files for the benchmark: the schema from the bot's own migrations, then thousands of
servers written with plain SQL in one transaction (seconds, not the minutes that commands would
take), and the per-cell reset of the characters the benchmark drives.

Rows are written exactly as the storage layer writes them (``bot.storage.snapshot``), so the bot
reads them like its own: each character has a "character create" history entry with its snapshot
and three abilities, and each server a settings row.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import psycopg

from bot.storage import Storage, name_key
from bot.storage.postgres.dialect import translate
from bot.storage.snapshot import (
    HEALTH_COLUMNS,
    NO_STABILITY_ROW,
    dump_json,
    health_to_row,
    make_snapshot,
)
from bot.storage.sqlite.rows import NAME_KEY_COLUMNS, name_keys
from rules.character import CharacterHealth

__all__ = [
    "CHARACTER_NAMES",
    "PgConnection",
    "StoredServer",
    "create_pg_schema",
    "create_schema",
    "pg_connection",
    "populate",
    "populate_pg",
    "reset_characters",
    "reset_pg",
    "stored_interactions",
]

#: The five characters of every server (unique per server, which is all the bot requires).
CHARACTER_NAMES = ("Ana", "Bruno", "Carmen", "David", "Elena")

_ABILITIES = (
    {"name": "Athletics", "kind": "general", "rating": 8, "pool": 8},
    {"name": "Library Use", "kind": "investigative", "rating": 2, "pool": 2},
    {"name": "Scuffling", "kind": "general", "rating": 6, "pool": 6},
)


@dataclass(frozen=True)
class StoredServer:
    """A server to store: its id and, per character name, the owner's user id."""

    guild_id: int
    owners: tuple[int, ...]  # one per CHARACTER_NAMES entry


async def create_schema(path: Path) -> None:
    """An empty database at the bot's current schema (its own migrations)."""
    storage = await Storage.open(path)
    await storage.close()


def _filler_servers(count: int, seed: int) -> list[StoredServer]:
    """Servers nobody uses during the run: random snowflake-sized ids."""
    rng = random.Random(seed)
    base = 1 << 60
    return [
        StoredServer(
            guild_id=base + index * 4096 + rng.randrange(4096),
            owners=tuple(base + rng.randrange(1 << 50) for _ in CHARACTER_NAMES),
        )
        for index in range(count)
    ]


def populate(path: Path, active: Sequence[StoredServer], *, fillers: int = 0, seed: int = 6) -> int:
    """Write ``active`` and ``fillers`` more servers × 5 characters into the (migrated) file at
    ``path``, in a shuffled order, in one transaction. Returns the number of servers written."""
    servers = [*active, *_filler_servers(fillers, seed)]
    random.Random(seed).shuffle(servers)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        _fill(conn, servers)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return len(servers)


class Connection(Protocol):
    """What the writers here use of a connection: ``sqlite3.Connection`` or ``PgConnection``."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any: ...


def _fill(conn: Connection, servers: Sequence[StoredServer]) -> None:
    """Write the servers × 5 characters in one transaction, after the rows already there."""
    created_at = datetime(2025, 1, 1, tzinfo=UTC).isoformat(timespec="microseconds")
    health = health_to_row(CharacterHealth.new(99, 99))
    conn.execute("BEGIN IMMEDIATE")
    row = conn.execute("SELECT coalesce(max(id), 0) FROM characters").fetchone()
    next_id = int(row[0]) + 1
    row = conn.execute("SELECT coalesce(max(interaction_id), 0) FROM history").fetchone()
    next_interaction = int(row[0]) + 1
    settings: list[tuple[Any, ...]] = []
    characters: list[tuple[Any, ...]] = []
    abilities: list[tuple[Any, ...]] = []
    history: list[tuple[Any, ...]] = []
    touched: list[tuple[Any, ...]] = []
    columns = (
        "id",
        "guild_id",
        "name",
        *NAME_KEY_COLUMNS,
        "owner_id",
        "created_at",
        *HEALTH_COLUMNS,
    )
    for server in servers:
        settings.append((server.guild_id, None, None, None, created_at))
        for number, (name, owner) in enumerate(
            zip(CHARACTER_NAMES, server.owners, strict=True), start=1
        ):
            values = {
                "id": next_id,
                "guild_id": server.guild_id,
                "name": name,
                **dict(zip(NAME_KEY_COLUMNS, name_keys(name), strict=True)),
                "owner_id": owner,
                "created_at": created_at,
                **health,
                **NO_STABILITY_ROW,  # the table's defaults: no Stability
            }
            characters.append(tuple(values[column] for column in columns))
            abilities += [
                (
                    next_id,
                    a["name"],
                    name_key(str(a["name"])),
                    a["kind"],
                    a["rating"],
                    a["pool"],
                )
                for a in _ABILITIES
            ]
            snapshot = make_snapshot(values, [dict(a) for a in _ABILITIES])
            details = {"name": name, "health": 99, "first_aid": 99}
            history.append(
                (
                    next_id,  # one entry per character: the same number fits as its id
                    server.guild_id,
                    number,  # the server's own count (migration 0009)
                    next_interaction,
                    owner,
                    "character create",
                    dump_json(details),
                    created_at,
                )
            )
            touched.append((next_id, next_id, name, None, dump_json(snapshot)))
            next_id += 1
            next_interaction += 1
    conn.executemany(
        "INSERT INTO guild_settings (guild_id, gm_role_id, channel_id, language, updated_at)"
        " VALUES (?, ?, ?, ?, ?)",
        settings,
    )
    marks = ", ".join("?" * len(columns))
    conn.executemany(f"INSERT INTO characters ({', '.join(columns)}) VALUES ({marks})", characters)
    conn.executemany(
        "INSERT INTO abilities (character_id, name, name_key, kind, rating, pool)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        abilities,
    )
    conn.executemany(
        "INSERT INTO history (id, guild_id, number, interaction_id, actor_id, command,"
        " details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        history,
    )
    conn.executemany(
        "INSERT INTO history_characters (history_id, character_id, name, before, after)"
        " VALUES (?, ?, ?, ?, ?)",
        touched,
    )
    conn.execute("COMMIT")


def reset_characters(path: Path, guild_ids: Iterable[int], health: CharacterHealth) -> None:
    """Give every character of these servers the values ``health`` (between benchmark cells,
    while the bot runs: WAL lets this second connection write when the bot is idle)."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    try:
        _reset(conn, guild_ids, health)
    finally:
        conn.close()


def _reset(conn: Connection, guild_ids: Iterable[int], health: CharacterHealth) -> None:
    row = health_to_row(health)
    ids = [int(guild_id) for guild_id in guild_ids]
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(
        f"UPDATE characters SET {', '.join(f'{c} = ?' for c in HEALTH_COLUMNS)}"
        f" WHERE guild_id IN ({', '.join('?' * len(ids))})",
        (*row.values(), *ids),
    )
    conn.execute("COMMIT")


def stored_interactions(conn: Connection, interaction_ids: Sequence[str]) -> int:
    """How many of these interactions are in the history (changes made)."""
    if not interaction_ids:
        return 0
    marks = ", ".join("?" * len(interaction_ids))
    row = conn.execute(
        f"SELECT count(*) FROM history WHERE interaction_id IN ({marks})",
        [int(i) for i in interaction_ids],
    ).fetchone()
    return int(row[0])


# --- the same on PostgreSQL -----------------------------------------------------------------------
class PgConnection:
    """A psycopg connection (autocommit) that takes the SQLite statements above, said in
    PostgreSQL's dialect by the engine's own ``translate``."""

    def __init__(self, url: str) -> None:
        self._conn = psycopg.connect(url, autocommit=True)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(translate(sql), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        with self._conn.cursor() as cursor:
            cursor.executemany(translate(sql), rows)

    def close(self) -> None:
        self._conn.close()


@contextlib.contextmanager
def pg_connection(url: str) -> Iterator[PgConnection]:
    conn = PgConnection(url)
    try:
        yield conn
    finally:
        conn.close()


async def create_pg_schema(url: str) -> None:
    """An empty PostgreSQL database at the bot's current schema (its own migrations)."""
    from bot.storage.postgres.storage import PgStorage

    storage = await PgStorage.open_url(url)
    await storage.close()


def populate_pg(url: str, active: Sequence[StoredServer]) -> int:
    """``populate`` on PostgreSQL (the active servers only); the identity columns are moved
    past the ids written, as the bot's own inserts take theirs from them."""
    with pg_connection(url) as conn:
        _fill(conn, active)
        for table in ("characters", "history"):
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" (SELECT max(id) FROM {table}))"
            )
    return len(active)


def reset_pg(url: str, guild_ids: Iterable[int], health: CharacterHealth) -> None:
    """``reset_characters`` on PostgreSQL."""
    with pg_connection(url) as conn:
        _reset(conn, guild_ids, health)


def _main() -> None:  # pragma: no cover - a manual check of the population speed
    import sys
    import tempfile
    import time

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        asyncio.run(create_schema(path))
        start = time.perf_counter()
        populate(path, [], fillers=count)
        print(f"{count} servers in {time.perf_counter() - start:.2f} s, {path.stat().st_size} B")


if __name__ == "__main__":
    _main()
