"""Fixtures: a real database per test, on each engine (an SQLite file; a fresh database on a
real PostgreSQL server this session started, ``devkit/postgres.py``), and a clock the test
moves by hand."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from bot.storage import Storage, StoredCharacter, name_key
from bot.storage.models import NewCharacter
from bot.storage.postgres.storage import PgStorage
from devkit.postgres import PostgresServer, running_postgres
from rules.abilities import Ability, AbilityKind
from rules.character import CharacterHealth

GUILD_A = 111_111_111_111_111_111
GUILD_B = 222_222_222_222_222_222
ALICE = 900_000_000_000_000_001
BOB = 900_000_000_000_000_002
GM = 900_000_000_000_000_099


class FakeClock:
    """Starts at a fixed moment; each reading moves one second on, so entries differ."""

    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


class Interactions:
    """Unique interaction ids, as Discord would give."""

    def __init__(self) -> None:
        self.last = 1_200_000_000_000_000_000

    def __call__(self) -> int:
        self.last += 1
        return self.last


def health(max_health: int = 10, first_aid: int = 3) -> CharacterHealth:
    return CharacterHealth.new(max_health, first_aid)


def general(name: str, rating: int, pool: int | None = None) -> Ability:
    return Ability(name, AbilityKind.GENERAL, rating, rating if pool is None else pool)


def investigative(name: str, rating: int, pool: int | None = None) -> Ability:
    return Ability(name, AbilityKind.INVESTIGATIVE, rating, rating if pool is None else pool)


async def create(
    storage: Storage, next_id: Interactions, name: str, owner: int = ALICE, guild: int = GUILD_A
) -> StoredCharacter:
    """A character with two abilities, created and recorded in one transaction (as the bot's
    ``/character create`` is)."""
    async with storage.transaction(guild_id=guild) as tx:
        character = await tx.create_character(
            NewCharacter(
                guild, name, owner, health(), [general("Athletics", 4), investigative("Occult", 2)]
            )
        )
        await tx.record(guild_id=guild, interaction_id=next_id(), actor_id=owner, command="create")
    return character


async def named(storage: Storage, guild: int, name: str) -> StoredCharacter | None:
    """The character called ``name`` (its exact name, ignoring case) as the bot finds it: in
    the server's name index, then read whole."""
    found = (await storage.names(guild)).with_key(name_key(name.strip()))
    if found is None:
        return None
    async with storage.read() as reader:
        return await reader.character(found)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def next_id() -> Interactions:
    return Interactions()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the session (each test has its own database on it)."""
    with running_postgres() as server:
        yield server


_DATABASES = itertools.count(1)


async def fresh_postgres_database(server: PostgresServer) -> str:
    """The URL of a new empty database on ``server``."""
    name = f"test_{next(_DATABASES)}"
    async with await psycopg.AsyncConnection.connect(server.url, autocommit=True) as conn:
        await conn.execute(f"CREATE DATABASE {name}")
    return server.url.rsplit("/", 1)[0] + f"/{name}"


#: For a test that looks at SQLite's own file or connection: its storage is SQLite only.
SQLITE_ONLY = pytest.mark.parametrize("engine", ["sqlite"])


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> str:
    """Which engine the test's ``storage`` is: every storage test runs on both."""
    return str(request.param)


@pytest.fixture
async def reopen(
    engine: str, db_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> Callable[[], Awaitable[Storage]]:
    """Opens the test's database again (as a bot's restart does), on the test's engine; each
    call opens it anew, the same database each time."""
    if engine == "sqlite":
        return lambda: Storage.open(db_path, clock=clock)
    url = await fresh_postgres_database(request.getfixturevalue("postgres_server"))

    async def on_postgres() -> Storage:
        return await PgStorage.open_url(url, clock=clock)

    return on_postgres


async def count_rows(storage: Storage, table: str, where: str, params: tuple[int, ...]) -> int:
    """``SELECT count(*) FROM table WHERE where`` (``?`` placeholders) on the storage's engine,
    beside the storage (a test that looks at the rows themselves)."""
    statement = f"SELECT count(*) FROM {table} WHERE {where}"
    if isinstance(storage, PgStorage):
        async with await psycopg.AsyncConnection.connect(storage._url) as conn:
            cursor = await conn.execute(statement.replace("?", "%s").encode(), params)
            row = await cursor.fetchone()
    else:
        with sqlite3.connect(storage._path) as raw:
            row = raw.execute(statement, params).fetchone()
    assert row is not None
    return int(row[0])


@pytest.fixture
async def storage(
    engine: str, db_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> AsyncIterator[Storage]:
    if engine == "postgres":
        server = request.getfixturevalue("postgres_server")
        opened: Storage = await PgStorage.open_url(
            await fresh_postgres_database(server), clock=clock
        )
    else:
        opened = await Storage.open(db_path, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()
