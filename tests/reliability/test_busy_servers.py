"""A flood of commands from one server must not make another server's commands wait
(COMMANDS.md, Busy servers): the storage serves each server's queue in turn. A command that
must wait past its time is deferred, then served; "busy" is kept for the commands beyond a
server's cap of open commands, and changes nothing; none is stored without its reply, none
twice."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from tests.e2e.kit import create, slow_disk
from tests.reliability.support import BUSY, interaction_ids, is_refusal, isolated_bot, said

FLOOD_CHARACTERS = 25
COMMIT_SECONDS = 0.01
QUIET_NAMES = ("Quiet", "Calm", "Still")
QUIET_EVERY = 0.1
#: Seconds from a quiet command to the message its player reads (filled, when a busy machine
#: deferred it): one queued behind the flood would wait for the flood's 250 commits. The
#: margin is for the CPU the flood's events take in the bot's one event loop on a 2-core
#: machine running 4 test workers (stalls of 1.5 s were seen there, which the storage's
#: turns do not cause).
ANSWERED_WITHIN = 2.0
#: Of the quiet commands, how many may pass ANSWERED_WITHIN (never Discord's 3 s): a stall of
#: the shared machine can hold one or two (2.1 and 2.2 s were seen beside four other test
#: workers), while a quiet server queued behind the flood has every command it sends in the
#: flood's 4 s or more late, 40 of them or more.
LATE_AT_MOST = 0.05
DEADLINE = 3.0  # Discord's, for a first answer


async def _quiet_server(
    fake: FakeDiscord, guild: FakeGuild, stop: asyncio.Event, sent: list[Reply]
) -> None:
    """One /hurt every 100 ms until told to stop, on its characters in turn (a flood of 5 to 10 s
    would take one past death)."""
    while not stop.is_set():
        name = QUIET_NAMES[len(sent) % len(QUIET_NAMES)]
        sent.append(
            await fake.slash(
                guild, guild.owner, "hurt", {"character": name, "amount": "1"}, wait="none"
            )
        )
        await asyncio.sleep(QUIET_EVERY)  # not a wait: the quiet server's pace


async def quiet_answered(fake: FakeDiscord, sent: list[Reply], count: int) -> None:
    """Waits until ``count`` of the quiet server's commands were sent and answered."""
    await fake.wait_until(
        lambda: sum(r.is_complete() for r in sent) >= count,
        10,
        what=f"{count} quiet /hurt answered",
    )


async def _flood(tmp_path: Path, flood: int) -> None:
    # Every commit takes 10 ms: the flood's 250 commits take 4 s or more, so a quiet command
    # served after them would be seconds late, and one served in turn is not.
    async with isolated_bot(tmp_path, name="busy", env=slow_disk(COMMIT_SECONDS)) as (fake, bot):
        loud, quiet = await fake.create_guild(), await fake.create_guild()
        names = [f"Loud {number}" for number in range(FLOOD_CHARACTERS)]
        for name in names:
            await create(fake, loud, loud.owner, name, 99)
        for name in QUIET_NAMES:
            await create(fake, quiet, quiet.owner, name, 99)

        stop = asyncio.Event()
        calm: list[Reply] = []
        sender = asyncio.create_task(_quiet_server(fake, quiet, stop, calm))
        await quiet_answered(fake, calm, 3)  # the quiet server is playing before the flood
        started = asyncio.get_running_loop().time()
        flooded = [
            await fake.slash(
                loud,
                loud.owner,
                "hurt",
                {"character": names[number % FLOOD_CHARACTERS], "amount": "1"},
                wait="none",
            )
            for number in range(flood)
        ]
        sending = asyncio.get_running_loop().time() - started
        assert sending < 1.0, f"the flood took {sending:.2f} s to send"
        # Each is answered, or refused by the fake for coming late, or left unanswered by the
        # bot when even a refusal could no longer arrive in time: the bot is done with all.
        await bot.settled(*flooded, timeout=sending + DEADLINE + 30.0)
        await quiet_answered(fake, calm, len(calm) + 5)  # and the quiet server plays on after it
        stop.set()
        await sender
        await fake.wait_until(lambda: all(r.is_complete() for r in calm), 10, what="quiet replies")

        times = [r.answered_in or 99.0 for r in calm]
        slow = [f"{answered:.2f} s" for answered in times if answered > ANSWERED_WITHIN]
        assert len(slow) <= LATE_AT_MOST * len(calm), (
            f"{len(slow)} of {len(calm)} quiet /hurt answered late: {slow}"
        )
        assert max(times) < DEADLINE, f"a quiet /hurt answered after Discord's 3 s: {slow}"
        assert not any(is_refusal(r) for r in calm), [said(r) for r in calm if is_refusal(r)][:3]

        ids = interaction_ids(bot.database_path)
        assert len(ids) == len(set(ids)), "an interaction was stored twice"
        stored = set(ids)
        assert all(int(r.record.id) in stored for r in calm), "a quiet /hurt was lost"
        answered = [r for r in flooded if r.is_complete() and not is_refusal(r)]
        busy = [r for r in flooded if is_refusal(r)]
        assert all(int(r.record.id) in stored for r in answered), "answered but not stored"
        assert not [r for r in flooded if int(r.record.id) in stored and r not in answered]
        assert all(BUSY in said(r) for r in busy), [said(r) for r in busy if BUSY not in said(r)][
            :3
        ]
        print(
            f"flood of {flood} sent in {sending:.2f} s: {len(answered)} stored and answered,"
            f" {len(busy)} busy, {flood - len(answered) - len(busy)} expired unanswered;"
            f" {len(calm)} quiet /hurt, slowest {max(r.answered_in or 0 for r in calm):.2f} s;"
            f" the flood's last answer {max((r.answered_in or 0 for r in answered), default=0):.2f}"
            " s"
        )


async def test_a_flood_from_one_server_does_not_delay_another(tmp_path: Path) -> None:
    await _flood(tmp_path, flood=1000)  # 4 times the cap of a server's open commands


@pytest.mark.stress
async def test_stress_floods_of_five_thousand(tmp_path: Path) -> None:
    await _flood(tmp_path, flood=5000)


async def test_commands_that_cannot_have_their_turn_in_time_are_deferred_then_served(
    tmp_path: Path,
) -> None:
    """Another process holds SQLite's write lock: the command that took the storage's turn
    waits for it, the others cannot be served within Discord's 3 s. Each is deferred
    (publicly, as its reply will be) and then served: none is "busy", none lost, none stored
    twice (issue 19 point 3; before, 8 or more of the 10 answered "busy")."""
    async with isolated_bot(tmp_path, name="held") as (fake, bot):
        guild = await fake.create_guild()
        await create(fake, guild, guild.owner, "Ana", 99)
        holder = sqlite3.connect(bot.database_path, timeout=10, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            replies = [
                await fake.slash(
                    guild, guild.owner, "hurt", {"character": "Ana", "amount": "1"}, wait="none"
                )
                for _ in range(10)
            ]
            # Held until the commands behind the one whose turn it is have been deferred (2 s
            # after they arrived), before Discord's 3 s.
            await fake.wait_until(
                lambda: sum(r.deferred for r in replies) >= 9,
                DEADLINE,
                what="9 deferrals while the write lock is held",
            )
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        await fake.wait_until(
            lambda: all(r.is_complete() or r.record.errors for r in replies), 10, what="replies"
        )
        ids = interaction_ids(bot.database_path)
        assert len(ids) == len(set(ids)), "an interaction was stored twice"
        for reply in replies:
            assert reply.record.errors == [], reply.record.summary()
            assert reply.deferred and not reply.ephemeral, reply.record.summary()
            assert int(reply.record.id) in set(ids), reply.record.summary()
            assert BUSY not in reply.text
        after = await fake.slash(guild, guild.owner, "hurt", {"character": "Ana", "amount": "1"})
        assert not after.ephemeral, after.text
