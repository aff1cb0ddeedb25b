"""The hot path does no work per interaction that the floor of ``make bench`` does not, unless
it buys a guarantee (issue 29; docs/BENCHMARK.md, "Against the floor, part by part"):

- a commit that ends before its interaction's deadline starts no task to race it (the
  deadline is a timer; a slow commit still acknowledges the interaction meanwhile);
- a command's completion is an event of discord.py's (a task) only in a server with a GM
  still to tell about a lost announcement channel;
- the task factory that counts an interaction's tasks is on the loop only while that
  interaction is handed to discord.py, so that no other task of the bot goes through it;
- the option types a command declares are read once per command;
- a change on PostgreSQL is two round trips to the server, as on SQLite two trips to
  aiosqlite's thread, and makes sure of its server's row only until a change committed it;
- rows read on PostgreSQL take their column names once per query, not a psycopg
  ``Column`` per column at every read; a trip's statements go in one execute;
- a history entry's details read their class's field types once per class.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import time
from collections.abc import AsyncIterator, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import psycopg
import pytest
import pytest_asyncio
from discord import app_commands
from psycopg import _column as psycopg_column

from bench.trip_proxy import counting
from bot.app import SaludBot
from bot.config.settings import load_settings
from bot.interaction.errors import UserFacingError
from bot.interaction.option_types import check_option_types
from bot.storage import Storage, StoredCharacter, Ticket, typed_json
from bot.storage.details import HurtDetails, details_of
from bot.storage.postgres.storage import PgStorage
from bot.storage.sqlite.transaction import Transaction
from devkit.postgres import PostgresServer, running_postgres
from rules.dice import SystemRoller
from tests.storage.conftest import (
    GM,
    GUILD_A,
    GUILD_B,
    Interactions,
    create,
    fresh_postgres_database,
)


@pytest_asyncio.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    async with await Storage.open(tmp_path / "bot.sqlite3") as opened:
        yield opened


@contextmanager
def tasks_created() -> Iterator[list[str]]:
    """The names of the coroutines of every task created on the running loop meanwhile."""
    loop = asyncio.get_running_loop()
    made: list[str] = []
    previous = loop.get_task_factory()

    def factory(
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, Any],
        *,
        context: contextvars.Context | None = None,
    ) -> asyncio.Task[Any]:
        made.append(getattr(coro, "__qualname__", repr(coro)))
        return asyncio.Task(coro, loop=loop, context=context)

    loop.set_task_factory(factory)  # type: ignore[arg-type]
    try:
        yield made
    finally:
        loop.set_task_factory(previous)


async def test_a_commit_on_time_starts_no_task(storage: Storage) -> None:
    acknowledged: list[bool] = []

    async def on_late() -> None:
        acknowledged.append(True)

    ticket = Ticket(key=1, deadline=time.monotonic() + 30, on_late=on_late)
    with tasks_created() as made:
        async with storage.transaction(require_record=False, ticket=ticket) as tx:
            await tx.set_meta("hot-path", "1")
    assert made == [] and acknowledged == []


async def test_a_commit_past_the_deadline_still_acknowledges_meanwhile(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guarantee the timer keeps: the interaction is acknowledged while its slow COMMIT
    runs, and before the transaction returns (its reply then follows up)."""
    finish = Transaction.finish
    events: list[str] = []

    async def slow_finish(self: Transaction, *, require_record: bool = True) -> None:
        await asyncio.sleep(0.3)
        await finish(self, require_record=require_record)
        events.append("committed")

    async def on_late() -> None:
        await asyncio.sleep(0.05)
        events.append("acknowledged")

    monkeypatch.setattr(Transaction, "finish", slow_finish)
    ticket = Ticket(key=1, deadline=time.monotonic() + 0.1, on_late=on_late)
    async with storage.transaction(require_record=False, ticket=ticket) as tx:
        await tx.set_meta("hot-path", "2")
    assert events == ["acknowledged", "committed"]


def _bot(storage: Storage, tmp_path: Path, untold: bool) -> SaludBot:
    environ = {"DISCORD_TOKEN": "abc", "DATABASE_PATH": str(tmp_path / "unused.sqlite3")}
    bot = SaludBot(storage=storage, settings=load_settings(environ), roller=SystemRoller())
    announcements = SimpleNamespace(untold=lambda guild_id: untold)
    bot._services = SimpleNamespace(announcements=announcements)  # type: ignore[assignment]
    bot.loop = asyncio.get_running_loop()  # what logging in sets
    return bot


async def test_a_command_completion_is_no_task_when_no_gm_must_be_told(
    storage: Storage, tmp_path: Path
) -> None:
    bot = _bot(storage, tmp_path, untold=False)
    with tasks_created() as made:
        bot.dispatch("app_command_completion", SimpleNamespace(guild_id=1), object())
    assert made == []


async def test_a_command_completion_is_dispatched_when_a_gm_must_be_told(
    storage: Storage, tmp_path: Path
) -> None:
    bot = _bot(storage, tmp_path, untold=True)
    with tasks_created() as made:
        bot.dispatch("app_command_completion", SimpleNamespace(guild_id=1), object())
    assert len(made) == 1, made
    await asyncio.sleep(0.05)  # it runs: the stub interaction is refused and logged


async def test_the_task_factory_is_on_the_loop_only_while_an_interaction_is_handed(
    storage: Storage, tmp_path: Path
) -> None:
    bot = _bot(storage, tmp_path, untold=False)
    bot.intake.services = bot._services  # type: ignore[assignment]
    loop = asyncio.get_running_loop()
    assert loop.get_task_factory() is None
    ping = {"id": "10", "application_id": "20", "type": 1, "token": "t", "version": 1}
    ping["attachment_size_limit"] = 8_000_000
    bot._connection.parsers["INTERACTION_CREATE"](ping)
    assert loop.get_task_factory() is None


def test_option_types_are_read_once_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """``check_option_types`` runs for every slash command: the declared types are read
    from discord.py once per command, not built again each time; a wrong type is still
    refused."""
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)

    @tree.command(name="hot", description="d")
    async def hot(interaction: discord.Interaction, amount: str, times: int = 1) -> None:
        """A command of two options."""

    reads: list[str] = []
    parameters = app_commands.Command.parameters

    def counted(self: app_commands.Command[Any, Any, Any]) -> Any:
        reads.append(self.name)
        return parameters.fget(self)  # type: ignore[attr-defined]

    monkeypatch.setattr(app_commands.Command, "parameters", property(counted))
    good = {"name": "hot", "options": [{"name": "amount", "type": 3, "value": "1d6"}]}
    for _ in range(3):
        check_option_types(tree, good)
    assert reads == ["hot"]
    bad = {"name": "hot", "options": [{"name": "times", "type": 4, "value": True}]}
    with pytest.raises(UserFacingError):
        check_option_types(tree, bad)


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[PostgresServer]:
    with running_postgres() as server:
        yield server


async def _hurt_on_pg(storage: PgStorage, character: StoredCharacter, health: int) -> None:
    async with storage.transaction(guild_id=GUILD_A) as tx:
        current = await tx.get_character(GUILD_A, character.id)
        assert current is not None
        await tx.save_health(current, replace(current.health, health=health))
        await tx.record(guild_id=GUILD_A, interaction_id=_PG_IDS(), actor_id=GM, command="hurt")


_PG_IDS = Interactions()


async def test_a_change_on_postgresql_is_two_round_trips(postgres_server: PostgresServer) -> None:
    """A /hurt's transaction on PostgreSQL, counted on the wire (a Sync or a Query is a round
    trip the bot waits for): BEGIN with the server's row lock and the read, then the writes
    with COMMIT, and no empty Sync after either (psycopg's pipeline block ended with one of
    its own: an explicit ``sync()`` inside it was a trip more each time). The server's row
    is made sure of once: after a committed change, the next only locks it. The change is
    stored whole, its history entry with it."""
    url = await fresh_postgres_database(postgres_server)
    said = io.StringIO()
    async with counting(postgres_server.port, said) as (proxy, port):
        through = url.replace(f":{postgres_server.port}/", f":{port}/")
        async with await PgStorage.open_url(through) as storage:
            character = await create(storage, _PG_IDS, "Ana", guild=GUILD_A)
            trips = []
            for health in (6, 5):
                before, said_before = proxy.trips, said.tell()
                await _hurt_on_pg(storage, character, health)
                trips.append(proxy.trips - before)
            last_change = said.getvalue()[said_before:]
            async with storage.read() as reader:
                stored = await reader.character(character)
    assert trips == [2, 2]
    assert "FOR UPDATE" in last_change
    assert "INSERT INTO servers" not in last_change, last_change
    assert stored.health.health == 5
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute("SELECT count(*) FROM history WHERE command = 'hurt'")
        assert await cursor.fetchone() == (2,)


async def test_a_server_row_is_made_sure_of_again_after_a_rolled_back_change(
    postgres_server: PostgresServer,
) -> None:
    """A change that created the server's row and was rolled back leaves nothing known: the
    next change creates the row again (its lock would otherwise lock nothing)."""
    url = await fresh_postgres_database(postgres_server)
    said = io.StringIO()
    async with counting(postgres_server.port, said) as (_proxy, port):
        through = url.replace(f":{postgres_server.port}/", f":{port}/")
        async with await PgStorage.open_url(through) as storage:
            with pytest.raises(RuntimeError):
                async with storage.transaction(guild_id=GUILD_B) as tx:
                    await tx.record(
                        guild_id=GUILD_B, interaction_id=_PG_IDS(), actor_id=GM, command="x"
                    )
                    await tx.get_character(GUILD_B, 1)  # the trip that creates the row
                    raise RuntimeError("rolled back")
            said_before = said.tell()
            character = await create(storage, _PG_IDS, "Bea", guild=GUILD_B)
    assert "INSERT INTO servers" in said.getvalue()[said_before:]
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute("SELECT guild_id FROM servers")
        assert await cursor.fetchall() == [(GUILD_B,)]
    assert character.name == "Bea"


async def test_rows_read_on_postgresql_build_no_column_objects(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """psycopg's ``cursor.description`` builds a ``Column`` per column at every call (29 for
    a character); the engine reads a query's column names once, and its rows by name as
    before."""
    url = await fresh_postgres_database(postgres_server)
    async with await PgStorage.open_url(url) as storage:
        character = await create(storage, _PG_IDS, "Ana", guild=GUILD_A)
        async with storage.read() as reader:
            await reader.character(character)  # the query's names, read once
        made: list[object] = []
        column_init = psycopg_column.Column.__init__

        def counted(self: Any, *args: Any, **kwargs: Any) -> None:
            made.append(self)
            column_init(self, *args, **kwargs)

        monkeypatch.setattr(psycopg_column.Column, "__init__", counted)
        for _ in range(3):
            async with storage.read() as reader:
                stored = await reader.character(character)
            await _hurt_on_pg(storage, character, 7)
    assert made == []
    assert stored.name == "Ana" and stored.health.health in (7, 10)


async def test_a_change_on_postgresql_is_one_execute_a_trip(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """psycopg's cost is per statement executed (a cursor's adapters, the query converted,
    and in pipeline mode a flush and a poll of the socket after each); a trip's statements
    go as one simple query, so a /hurt's change is 2 executes (one a trip) rather than one
    per statement (8), and the change is stored as before."""
    url = await fresh_postgres_database(postgres_server)
    async with await PgStorage.open_url(url) as storage:
        character = await create(storage, _PG_IDS, "Ana", guild=GUILD_A)
        await _hurt_on_pg(storage, character, 8)  # the server's row: made sure of
        executed: list[str] = []
        execute = psycopg.AsyncCursor.execute
        executemany = psycopg.AsyncCursor.executemany

        async def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            executed.append(str(query)[:40])
            return await execute(self, query, *args, **kwargs)

        async def counted_many(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            executed.append(str(query)[:40])
            return await executemany(self, query, *args, **kwargs)

        monkeypatch.setattr(psycopg.AsyncCursor, "execute", counted)
        monkeypatch.setattr(psycopg.AsyncCursor, "executemany", counted_many)
        await _hurt_on_pg(storage, character, 4)
        monkeypatch.undo()
        async with storage.read() as reader:
            stored = await reader.character(character)
    assert len(executed) == 2, executed
    assert stored.health.health == 4


def test_a_history_entry_s_details_are_read_without_evaluating_annotations_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``typing.get_type_hints`` compiles a class's annotations at every call (79 µs for a
    /hurt's details); the fields of each details class are read once, so that a /history of
    20 entries does not pay it 20 times. What is read is the same."""
    stored = {"amount": "1d6", "dealt": 4, "dice": [4], "reason": "a fall"}
    first = details_of("hurt", stored)
    evaluated: list[object] = []
    hints = typed_json.get_type_hints

    def counted(cls: Any, *args: Any, **kwargs: Any) -> Any:
        evaluated.append(cls)
        return hints(cls, *args, **kwargs)

    monkeypatch.setattr(typed_json, "get_type_hints", counted)
    again = [details_of("hurt", stored) for _ in range(3)]
    assert evaluated == []
    assert again == [first] * 3 and isinstance(first, HurtDetails)
