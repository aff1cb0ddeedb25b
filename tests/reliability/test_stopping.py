"""SIGTERM (or SIGHUP) in the middle of a burst of commands (COMMANDS.md, Stopping): from the
signal on, new interactions get the ephemeral "restarting" answer and change nothing; those in
flight finish; the process exits 0 within the drain; no change is stored without its reply."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path

import pytest

from devkit.fake_discord import Reply
from tests.e2e.kit.db import stored as character_row
from tests.reliability.support import (
    RESTARTING,
    burst,
    entries_of,
    hurts_in_turn,
    integrity,
    interaction_ids,
    isolated_bot,
    players_with_characters,
)

NAMES = ("Ana", "Bea", "Cid")
BURST = 100
AFTER_SIGNAL = 20


def _stored_without_reply(replies: list[Reply], stored: set[int]) -> list[str]:
    return [
        r.record.summary()
        for r in replies
        if int(r.record.id) in stored and not (r.is_complete() and not r.ephemeral and r.embeds)
    ]


async def _stop_during_burst(
    tmp_path: Path, trial: int, signum: signal.Signals = signal.SIGTERM
) -> int:
    """One trial, stopped by ``signum``; returns how many of the commands sent after the
    signal reached the bot and were answered "restarting" (none if it had already closed the
    gateway)."""
    async with isolated_bot(tmp_path, name=f"stopping-{trial}") as (fake, bot):
        guild = await fake.create_guild()
        owners = await players_with_characters(fake, guild, NAMES)
        calls = hurts_in_turn(owners, NAMES, BURST)
        replies = await burst(fake, guild, calls)
        await fake.wait_until(
            lambda: sum(r.is_complete() for r in replies) >= 10, 20, what="10 replies"
        )
        assert bot.process is not None
        signalled = time.monotonic()
        bot.process.send_signal(signum)
        await bot.wait_for_log("Stop signal received", timeout=5)
        late = await burst(fake, guild, calls[:AFTER_SIGNAL])
        exit_code = await bot.stop(timeout=15)
        took = time.monotonic() - signalled

        assert exit_code == 0, bot.log_tail()
        assert took < 7.0, f"stopping took {took:.1f} s (drain at most 5 s)"
        assert integrity(bot.database_path) == ["ok"]
        ids = interaction_ids(bot.database_path)
        assert len(ids) == len(set(ids)), "an interaction was recorded twice"
        stored = set(ids)
        orphans = _stored_without_reply(replies + late, stored)
        assert not orphans, f"stored without their reply: {orphans}"
        for reply in late:
            assert int(reply.record.id) not in stored
            if reply.is_complete():
                assert reply.ephemeral and RESTARTING in reply.text, reply.text
        for reply in replies:
            if int(reply.record.id) not in stored:
                assert not reply.is_complete() or reply.ephemeral, reply.record.summary()
                if reply.is_complete():
                    assert RESTARTING in reply.text, reply.text
        answered = [r for r in replies if int(r.record.id) in stored]
        assert answered, "nothing of the burst was answered before the signal"
        for name in NAMES:
            row = character_row(bot.database_path, guild, name)
            hurts = [e for e in entries_of(bot.database_path, row["id"]) if e.command == "hurt"]
            assert row["health"] == 99 - len(hurts), (name, row["health"], len(hurts))
        return sum(reply.is_complete() for reply in late)


async def test_sigterm_during_a_burst_stores_nothing_without_its_reply(tmp_path: Path) -> None:
    refused = [await _stop_during_burst(tmp_path, trial) for trial in range(2)]
    # The bot drains for as long as commands are in flight: the late ones meet it then.
    assert sum(refused) > 0, "no command sent after the signal was answered 'restarting'"


async def test_sighup_stops_like_sigterm(tmp_path: Path) -> None:
    """Closing the terminal of ``make run`` sends SIGHUP: before, it killed the bot at once
    with 180 of 200 commands in flight unanswered (issue 24 point 15)."""
    await _stop_during_burst(tmp_path, 0, signal.SIGHUP)


async def test_a_second_sigterm_does_not_cut_the_stop_short(tmp_path: Path) -> None:
    """Supervisors signal again (systemd, docker, our own harness did): before, a SIGTERM that
    arrived after the event loop had closed met the default action and the process ended
    with -15 instead of 0, in CI once in a few hundred stops. Here the signals keep coming
    every few milliseconds until the process is gone."""
    async with isolated_bot(tmp_path, name="signalled-twice") as (fake, bot):
        guild = await fake.create_guild()
        await players_with_characters(fake, guild, NAMES)
        process = bot.process
        assert process is not None
        process.send_signal(signal.SIGTERM)
        await bot.wait_for_log("Stop signal received", timeout=5)
        sent = 1
        while process.returncode is None and sent < 4000:
            # os.kill, not send_signal: Popen.send_signal polls first and may reap the child
            # before asyncio's watcher does, which then reports the exit code as 255.
            with contextlib.suppress(ProcessLookupError):  # gone between the check and here
                os.kill(process.pid, signal.SIGTERM)
            sent += 1
            await asyncio.sleep(0.002)
        assert await bot.stop(timeout=15) == 0, bot.log_tail()
        assert sent > 2, "the process was gone before a second signal could be sent"


@pytest.mark.stress
async def test_stress_sigterm_during_a_burst_ten_times(tmp_path: Path) -> None:
    refused = [await _stop_during_burst(tmp_path, trial) for trial in range(10)]
    assert sum(refused) > 0, "no command sent after the signal was answered 'restarting'"
