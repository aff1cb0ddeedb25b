"""End-to-end fixtures: a fake Discord in this process and the bot as a real subprocess.

Two independent pairs, so that both can run in one pytest session without answering each
other's interactions:

- `fake` + `salud_bot` (alias `bot`) + `guild`: the real bot (`python -m bot`).
- `floor_fake` + `floor_bot` + `floor_guild`: the bare floor bot of bench/ (fixture self-tests).

Every test in tests/e2e is marked `e2e`. After each test, any traceback the bot logged during
it fails the test (call `bot.forget_log()` in a test that provokes one on purpose).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import FLOOR_COMMAND, SALUD_COMMAND, BotProcess

_STARTED: list[BotProcess] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test under tests/e2e with `e2e`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


async def _bot_fixture(
    fake: FakeDiscord, tmp: Path, command: tuple[str, ...], token: str
) -> AsyncIterator[BotProcess]:
    bot = BotProcess(
        fake,
        command=command,
        database_path=tmp / "bot.sqlite3",
        log_path=tmp / "bot.log",
        token=token,
    )
    _STARTED.append(bot)
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()
        _STARTED.remove(bot)
        tracebacks = bot.new_tracebacks()
        assert not tracebacks, f"the bot logged tracebacks ({bot.log_path}):\n" + "\n\n".join(
            tracebacks
        )


# --- the real bot ---------------------------------------------------------------------------------
@pytest_asyncio.fixture(scope="session")
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord the real bot logs in to (127.0.0.1, free port)."""
    server = FakeDiscord(app_name="Salud")
    await server.start()
    yield server
    await server.stop()


@pytest_asyncio.fixture(scope="session")
async def salud_bot(
    fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BotProcess]:
    """`python -m bot` logged in to `fake`, with a fresh database; shared by the session."""
    async for bot in _bot_fixture(
        fake, tmp_path_factory.mktemp("salud"), SALUD_COMMAND, "fake-token"
    ):
        yield bot


@pytest.fixture
def bot(salud_bot: BotProcess) -> BotProcess:
    """Alias of `salud_bot`."""
    return salud_bot


@pytest_asyncio.fixture
async def guild(fake: FakeDiscord, salud_bot: BotProcess) -> FakeGuild:
    """A new server (en-US) that the real bot has just joined; one per test."""
    return await fake.create_guild(locale="en-US")


@pytest.fixture
def make_guild(fake: FakeDiscord, salud_bot: BotProcess) -> Callable[..., Awaitable[FakeGuild]]:
    """`await make_guild(locale="es-ES", name=...)`: more servers for the real bot."""
    return fake.create_guild


# --- the floor bot (fixture self-tests, benchmark) ------------------------------------------------
@pytest_asyncio.fixture(scope="session")
async def floor_fake() -> AsyncIterator[FakeDiscord]:
    """A second fake Discord, for the floor bot."""
    server = FakeDiscord(app_name="Floor")
    await server.start()
    yield server
    await server.stop()


@pytest_asyncio.fixture(scope="session")
async def floor_bot(
    floor_fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BotProcess]:
    """`python -m bench.floor_bot` logged in to `floor_fake`."""
    async for bot in _bot_fixture(
        floor_fake, tmp_path_factory.mktemp("floor"), FLOOR_COMMAND, "floor-token"
    ):
        yield bot


@pytest_asyncio.fixture
async def floor_guild(floor_fake: FakeDiscord, floor_bot: BotProcess) -> FakeGuild:
    """A new server that the floor bot has just joined."""
    return await floor_fake.create_guild(locale="en-US")


# --- after each test ----------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _no_new_tracebacks() -> Iterator[None]:
    """Fails the test if a running bot logged a traceback while it ran."""
    yield
    problems = [(bot, tb) for bot in _STARTED for tb in bot.new_tracebacks()]
    assert not problems, "the bot logged tracebacks during this test:\n" + "\n\n".join(
        f"[{bot.log_path}]\n{tb}" for bot, tb in problems
    )
