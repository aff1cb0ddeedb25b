# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""Helpers of the reliability tests: a bot of one's own, bursts of commands, and reading the
database file the way an auditor would (read-only, one consistent snapshot)."""

from __future__ import annotations

import asyncio
import itertools
import json
import shutil
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bot as bot_package
from bot.storage.snapshot import load_after
from bot.storage.sqlite.database import latest_version
from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.fake_discord.replies import message_text
from devkit.harness import SALUD_COMMAND, BotProcess
from devkit.postgres import PostgresServer
from tests.e2e.kit.commands import create
from tests.e2e.kit.db import read_only
from tests.e2e.kit.processes import fake_with_bot

EPHEMERAL = 1 << 6
#: ``error.unexpected`` in English: the reply to an exception nobody expected.
UNEXPECTED = "something went wrong on our side"  # "Sorry, something went wrong…"
#: ``lifecycle.busy`` in English: a command that could not be served in time, unchanged.
BUSY = "Salud has too many commands from this server at once"
#: ``lifecycle.restarting`` in English: a command that arrived while the bot was stopping.
RESTARTING = "Salud is restarting and did nothing with this command"


@asynccontextmanager
async def isolated_bot(
    tmp_path: Path,
    *,
    interaction_deadline: float = 3.0,
    name: str = "salud",
    env: dict[str, str] | None = None,
    **fake_options: Any,
) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    """A fake Discord and a bot of this test only (which it may disconnect, flood or kill),
    with ``env`` added to its environment (the devkit's faults: ``SALUD_DEVKIT_*``) and
    ``fake_options`` given to the fake (``global_rate_limit``, ``rest_latency``).

    Made like the shared pair (tests/e2e/kit/processes.py): a traceback it logs fails the test.
    """
    async with fake_with_bot(
        tmp_path,
        name=name,
        token=f"{name}-token",
        env=env,
        interaction_deadline=interaction_deadline,
        **fake_options,
    ) as pair:
        yield pair


async def burst(
    fake: FakeDiscord,
    guild: FakeGuild,
    calls: Sequence[tuple[FakeMember, str, Mapping[str, Any]]],
) -> list[Reply]:
    """Dispatches every call at once (as many users clicking together); returns the Replies
    without waiting for them."""
    return [
        await fake.slash(guild, member, command, options, wait="none")
        for member, command, options in calls
    ]


async def players_with_characters(
    fake: FakeDiscord, guild: FakeGuild, names: Sequence[str]
) -> dict[str, FakeMember]:
    """A player for each name, who has created the character of that name with 99 Health."""
    owners = {name: guild.member(name) for name in names}
    for name in names:
        await create(fake, guild, owners[name], name, 99)
    return owners


def hurts_in_turn(
    owners: Mapping[str, FakeMember], names: Sequence[str], count: int
) -> list[tuple[FakeMember, str, dict[str, Any]]]:
    """``count`` /hurt of 1, each by its owner, going round ``names`` in turn."""
    return [
        (owners[name], "hurt", {"character": name, "amount": "1"})
        for number in range(count)
        for name in [names[number % len(names)]]
    ]


async def wait_all(fake: FakeDiscord, replies: Sequence[Reply], timeout: float) -> None:
    """Waits until every reply is complete (callback, and the message after a deferral)."""
    await fake.wait_until(
        lambda: all(reply.is_complete() for reply in replies),
        timeout,
        what=f"{sum(not r.is_complete() for r in replies)} of {len(replies)} replies",
    )


def is_refusal(reply: Reply) -> bool:
    """An ephemeral answer (every error of the bot is one): the reply itself, or, after a
    public deferral, the ephemeral followup that replaced the deleted placeholder."""
    if not reply.is_complete():
        return False
    if reply.ephemeral:
        return True
    followups = reply.followups
    return (
        reply.message is None
        and bool(followups)
        and all(message.get("flags", 0) & EPHEMERAL for message in followups)
    )


def said(reply: Reply) -> str:
    """What the user read: the reply, or the followups that replaced its placeholder."""
    return reply.text or "\n".join(message_text(message) for message in reply.followups)


# --- another version of Salud, a PostgreSQL database ----------------------------------------------
#: The schema of the newer Salud that ``newer_salud`` makes.
NEWER = latest_version() + 1


def newer_salud(tmp: Path) -> Path:
    """A newer version of ``bot/``: this one with one more migration on both engines, in a
    folder of its own (``cogs/`` and ``rules/`` are imported from this tree as they are)."""
    root = tmp / "newer"
    shutil.copytree(
        Path(bot_package.__file__).parent,
        root / "bot",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    for engine in ("sqlite", "postgres"):
        migration = root / "bot" / "storage" / engine / "migrations" / f"{NEWER:04d}_newer.sql"
        migration.write_text("ALTER TABLE history ADD COLUMN newer_salud TEXT;\n", encoding="utf-8")
    return root


def salud_command(code: Path | None) -> tuple[str, ...]:
    """The command of a bot process whose ``bot/`` package is in ``code`` (None: this tree's)."""
    if code is None:
        return SALUD_COMMAND
    return (
        sys.executable,
        "-c",
        f"import runpy, sys; sys.path.insert(0, {str(code)!r});"
        " runpy.run_module('bot', run_name='__main__', alter_sys=True)",
    )


_DATABASES = itertools.count(1)


async def new_postgres_database(server: PostgresServer) -> str:
    """The URL of a new empty database on ``server``."""
    return await asyncio.to_thread(server.new_database, f"reliability_{next(_DATABASES)}")


def on_postgres(url: str) -> dict[str, str]:
    """The environment of a bot on the PostgreSQL database ``url`` (no SQLite file)."""
    return {"DATABASE_PATH": "", "DATABASE_URL": url}


# --- the database, read-only --------------------------------------------------------------------
def dump(path: Path) -> list[str]:
    """The whole database as SQL statements, from one snapshot (a read transaction)."""
    with read_only(path, timeout=10) as conn:
        conn.execute("BEGIN")
        return list(conn.iterdump())


def integrity(path: Path) -> list[str]:
    """``PRAGMA integrity_check`` and ``foreign_key_check`` results (``['ok']`` when sound)."""
    with read_only(path, timeout=10) as conn:
        rows = [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
        rows += [repr(tuple(row)) for row in conn.execute("PRAGMA foreign_key_check")]
        return rows


@dataclass(frozen=True)
class Entry:
    """One history entry touching one character, with its snapshots' Health."""

    id: int
    interaction_id: int
    command: str
    details: dict[str, Any]
    before: dict[str, Any] | None
    after: dict[str, Any] | None


def entries_of(path: Path, character_id: int) -> list[Entry]:
    """Every history entry touching a character, oldest first."""
    with read_only(path, timeout=10) as conn:
        rows = conn.execute(
            "SELECT h.id, h.interaction_id, h.command, h.details, hc.before, hc.after"
            " FROM history AS h JOIN history_characters AS hc ON hc.history_id = h.id"
            " WHERE hc.character_id = ? ORDER BY h.id",
            (character_id,),
        ).fetchall()
    return [
        Entry(
            id=int(row["id"]),
            interaction_id=int(row["interaction_id"]),
            command=str(row["command"]),
            details=json.loads(row["details"]),
            before=None if row["before"] is None else json.loads(row["before"]),
            # Stored as its changes from ``before``: made whole as the bot reads it.
            after=load_after(
                None if row["before"] is None else json.loads(row["before"]), row["after"]
            ),
        )
        for row in rows
    ]


def interaction_ids(path: Path) -> list[int]:
    """Every interaction id in the history, with repetitions (there must be none)."""
    with read_only(path, timeout=10) as conn:
        return [int(row[0]) for row in conn.execute("SELECT interaction_id FROM history")]


def assert_chain(entries: Sequence[Entry], row: Mapping[str, Any]) -> None:
    """Each entry starts where the previous one ended, and the stored row is where the last
    one ended: no update was lost, none half-applied."""
    for previous, current in itertools.pairwise(entries):
        assert current.before == previous.after, (
            f"history entry {current.id} ({current.command}) does not start where entry"
            f" {previous.id} ended:\n{previous.after}\n{current.before}"
        )
    assert entries, "no history"
    last = entries[-1].after
    assert last is not None
    stored = {column: row[column] for column in last["health"]}
    assert stored == last["health"], f"stored row {stored} != last history state {last['health']}"
