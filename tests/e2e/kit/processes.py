"""Starting and stopping a fake Discord and the bot logged in to it: the one way every e2e and
reliability test gets them (the session's shared pairs in tests/e2e/conftest.py, and the
bots of one test only)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devkit.fake_discord import FakeDiscord
from devkit.harness import SALUD_COMMAND, BotProcess
from tests.e2e.kit.screen import Database, PrivateCharacter, private_characters

#: Every bot running now; tests/e2e/conftest.py fails a test during which one logged a traceback.
STARTED: list[BotProcess] = []
#: The database of every bot started this session whose characters can be read now: every
#: SQLite file, running or not, and the PostgreSQL server of a bot running now (the screen's
#: scan reads which characters were private: ``tests/e2e/kit/screen.py``).
DATABASES: list[Database] = []
#: The private characters of each PostgreSQL bot that stopped since the last test's end, read
#: as it stopped (its server may be gone by then).
STOPPED_PRIVATE: list[PrivateCharacter] = []


@dataclass
class Screening:
    """Whether an e2e test runs now (``tests/e2e/conftest.py``): only then is a PostgreSQL
    bot's server read by the screen's scan (a reliability test's may be held or gone on
    purpose, and no scan reads what it shows)."""

    on: bool = False


#: Set by the e2e tests' screen check while each test runs.
SCREENING = Screening()


def database_of(bot: BotProcess) -> Database:
    """Where ``bot`` keeps its characters: its ``DATABASE_URL``, else its SQLite file."""
    return bot.extra_env.get("DATABASE_URL") or bot.database_path


def watched(bot: BotProcess) -> BotProcess:
    """``bot``, its database among those the screen's scan reads (a bot that a test starts
    by itself, not through ``running_bot``)."""
    database = database_of(bot)
    if database not in DATABASES and (SCREENING.on or not isinstance(database, str)):
        DATABASES.append(database)
    return bot


def stopped(bot: BotProcess, fake: FakeDiscord) -> None:
    """``bot`` has stopped: a PostgreSQL bot's private characters are read now, for the
    scan at the test's end, and its server is not read again."""
    database = database_of(bot)
    if isinstance(database, str) and database in DATABASES:
        STOPPED_PRIVATE.extend(private_characters(database, [fake]))
        DATABASES.remove(database)


@asynccontextmanager
async def running_fake(app_name: str = "Salud", **options: Any) -> AsyncIterator[FakeDiscord]:
    """A fake Discord on 127.0.0.1 (a free port) for the block's duration."""
    fake = FakeDiscord(app_name=app_name, **options)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    tmp: Path,
    *,
    name: str = "bot",
    command: tuple[str, ...] = SALUD_COMMAND,
    token: str = "fake-token",
    env: dict[str, str] | None = None,
) -> AsyncIterator[BotProcess]:
    """The bot (``command``) logged in to ``fake``, with a fresh database ``tmp/<name>.sqlite3``
    and the devkit's probe (``devkit/probe.py``): its dice are the ones a test scripts; ``env``
    is added to its environment (the devkit's faults: ``SALUD_DEVKIT_*``).

    While it runs it is in ``STARTED``; when it stops, any traceback it logged fails the test,
    and so do scripted dice it never rolled.
    """
    bot = BotProcess(
        fake,
        command=command,
        database_path=tmp / f"{name}.sqlite3",
        log_path=tmp / f"{name}.log",
        token=token,
        extra_env=env,
        probe=command == SALUD_COMMAND,
    )
    STARTED.append(watched(bot))
    try:
        await bot.start()
        yield bot
        if bot.dice_used and bot.running:
            await bot.end_dice()
    finally:
        await bot.stop()
        STARTED.remove(bot)
        stopped(bot, fake)
        tracebacks = bot.new_tracebacks()
        assert not tracebacks, f"the bot logged tracebacks ({bot.log_path}):\n" + "\n\n".join(
            tracebacks
        )


@asynccontextmanager
async def fake_with_bot(
    tmp: Path,
    *,
    app_name: str = "Salud",
    name: str = "bot",
    command: tuple[str, ...] = SALUD_COMMAND,
    token: str = "fake-token",
    env: dict[str, str] | None = None,
    **fake_options: Any,
) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    """A fake Discord and the bot logged in to it, both stopped after the block."""
    async with (
        running_fake(app_name, **fake_options) as fake,
        running_bot(fake, tmp, name=name, command=command, token=token, env=env) as bot,
    ):
        yield fake, bot
