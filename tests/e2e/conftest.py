"""End-to-end fixtures: a fake Discord in this process and the bot as a real subprocess.

Two pairs, made the same way (``tests/e2e/kit/processes.py``), so that both can run in one
pytest session without answering each other's interactions:

- `fake` + `salud_bot` (alias `bot`) + `guild`: the real bot (`python -m bot`).
- `floor_fake` + `floor_bot` + `floor_guild`: the bare floor bot of bench/ (the sharding test;
  the fake's own tests and the benchmark's, in tests/tooling/with_bot, import these fixtures).

Every test in tests/e2e is marked `e2e`. After each test, any traceback the bot logged during
it fails the test (call `bot.forget_log()` in a test that provokes one on purpose), and so do
dice it scripted (`bot.script_dice`) that the bot never rolled. The real bot rolls only the
dice a test scripts: an unscripted roll is a traceback (`devkit/probe.py`). Any internal (a
rule id, `True`, a stored value) in what the bot sent meanwhile fails the test too: every
payload of every Salud fake is read (`tests/e2e/kit/internals.py`). And no public payload gives
a private character's numbers (COMMANDS.md "Private numbers"): every public payload of every
Salud fake is kept and read against the private characters the bots stored
(`tests/e2e/kit/screen.py`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from devkit.fake_discord import REQUEST_WATCHERS, FakeDiscord, FakeGuild
from devkit.harness import FLOOR_COMMAND, SALUD_COMMAND, BotProcess
from tests.e2e.kit.internals import InternalsScan
from tests.e2e.kit.processes import (
    DATABASES,
    SCREENING,
    STARTED,
    STOPPED_PRIVATE,
    fake_with_bot,
    running_bot,
    running_fake,
)
from tests.e2e.kit.screen import ScreenScan, private_characters

Pair = tuple[FakeDiscord, BotProcess]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test under tests/e2e with `e2e`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


# --- the real bot ---------------------------------------------------------------------------------
@pytest_asyncio.fixture(scope="session")
async def salud_pair(
    tmp_path_factory: pytest.TempPathFactory, internals_scan: InternalsScan
) -> AsyncIterator[Pair]:
    """The fake Discord and `python -m bot` logged in to it, with a fresh database; shared.
    Everything the bot sends it is scanned for internals, from its first request on."""
    tmp = tmp_path_factory.mktemp("salud")
    async with running_fake("Salud") as fake:
        internals_scan.watch(fake)
        async with running_bot(fake, tmp, command=SALUD_COMMAND) as bot:
            yield fake, bot


@pytest.fixture(scope="session")
def fake(salud_pair: Pair) -> FakeDiscord:
    """The fake Discord the real bot logs in to (127.0.0.1, free port)."""
    return salud_pair[0]


@pytest.fixture(scope="session")
def salud_bot(salud_pair: Pair) -> BotProcess:
    """`python -m bot` logged in to `fake`; shared by the session."""
    return salud_pair[1]


@pytest.fixture
def bot(salud_bot: BotProcess) -> BotProcess:
    """Alias of `salud_bot`."""
    return salud_bot


@pytest_asyncio.fixture
async def guild(fake: FakeDiscord) -> FakeGuild:
    """A new server (en-US) that the real bot has just joined; one per test."""
    return await fake.create_guild(locale="en-US")


@pytest.fixture
def make_guild(fake: FakeDiscord) -> Callable[..., Awaitable[FakeGuild]]:
    """`await make_guild(locale="es-ES", name=...)`: more servers for the real bot."""
    return fake.create_guild


# --- the floor bot (sharding; the fake's and the benchmark's tests) -------------------------------
@pytest_asyncio.fixture(scope="session")
async def floor_pair(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pair]:
    """A second fake Discord and `python -m bench.floor_bot` logged in to it."""
    tmp = tmp_path_factory.mktemp("floor")
    async with fake_with_bot(
        tmp, app_name="Floor", command=FLOOR_COMMAND, token="floor-token"
    ) as pair:
        yield pair


@pytest.fixture(scope="session")
def floor_fake(floor_pair: Pair) -> FakeDiscord:
    """The fake Discord of the floor bot."""
    return floor_pair[0]


@pytest.fixture(scope="session")
def floor_bot(floor_pair: Pair) -> BotProcess:
    """The floor bot, logged in to `floor_fake`."""
    return floor_pair[1]


@pytest_asyncio.fixture
async def floor_guild(floor_fake: FakeDiscord) -> FakeGuild:
    """A new server that the floor bot has just joined."""
    return await floor_fake.create_guild(locale="en-US")


# --- after each test ----------------------------------------------------------------------------
@pytest_asyncio.fixture(autouse=True)
async def _no_new_tracebacks() -> AsyncIterator[None]:
    """Fails the test if a running bot logged a traceback while it ran, or was left with
    scripted dice it never rolled (the script ends with the test either way)."""
    yield
    problems = [(bot, tb) for bot in STARTED for tb in bot.new_tracebacks()]
    scripted = [bot for bot in STARTED if bot.dice_used and bot.running]
    reports = [await bot.end_dice_report() for bot in scripted]
    assert not problems, "the bot logged tracebacks during this test:\n" + "\n\n".join(
        f"[{bot.log_path}]\n{tb}" for bot, tb in problems
    )
    for report in reports:
        report.check()


@pytest.fixture(scope="session")
def internals_scan() -> Iterator[InternalsScan]:
    """Reads every payload the bot sends, from the first e2e test to the end of the session;
    a leak sent after the last test fails the session's end."""
    scan = InternalsScan()
    REQUEST_WATCHERS.append(scan)
    yield scan
    REQUEST_WATCHERS.remove(scan)
    assert not scan.findings, "internals shown to players:\n" + "\n".join(map(str, scan.findings))


@pytest.fixture(autouse=True)
def _no_internals_shown(internals_scan: InternalsScan) -> Iterator[None]:
    """Fails the test if what the bot sent during it (or since the test before) shows a rule
    id, an option's syntax or a stored value (COMMANDS.md, Replies: no internals)."""
    internals_scan.scanning = internals_scan.in_test = True
    try:
        yield
    finally:
        internals_scan.in_test = False
    found, internals_scan.findings[:] = list(internals_scan.findings), []
    assert not found, "internals shown to players:\n" + "\n".join(map(str, found))


@pytest.fixture(scope="session")
def screen_scan() -> Iterator[ScreenScan]:
    """Keeps every public payload the bot sends, the whole session long."""
    scan = ScreenScan()
    REQUEST_WATCHERS.append(scan)
    yield scan
    REQUEST_WATCHERS.remove(scan)


@pytest.fixture(autouse=True)
def _no_private_numbers_shown(screen_scan: ScreenScan) -> Iterator[None]:
    """Fails the test if a public payload sent during it (or since the test before) gives
    the numbers of a character whose numbers are private (the Keeper's screen), as the
    databases of the bots that ran say."""
    SCREENING.on = True
    try:
        yield
    finally:
        SCREENING.on = False
    private, STOPPED_PRIVATE[:] = list(STOPPED_PRIVATE), []
    fakes = screen_scan.fakes
    for database in DATABASES:
        if isinstance(database, str) or database.is_file():
            private += private_characters(database, fakes)
    found = screen_scan.findings(private)
    screen_scan.forget()
    assert not found, "private numbers shown to the table:\n" + "\n".join(map(str, found))
