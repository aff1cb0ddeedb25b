"""The bot's background requests within what Discord allows (issue 24.10), against the
fake's limits: Discord bans a bot's IP for an hour after 10,000 invalid requests (401, 403,
429) in 10 minutes and allows 50 requests a second outside interactions; the contract wants
a live tracker current within 5 s of a change.

Before (red team, issue 24): a storm of per-route 429s on the trackers' edits drew 25
invalid requests a second for as long as it lasted (14,818 in 10 minutes); with
Consciousness buttons pending in half of 120 servers changing every 2 s, every tracker was
stale 8 s after the last change (each sweep read its message before editing it, and the
sweeps went before the trackers); one change in each of 200 servers left 44 trackers stale
after 6 s, and the trackers took 23 s to recover after a global 429 storm; in a channel the
bot may not edit, every new roll-button message cost one more 403.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.discord_rest.invalid_requests import SLOW, SLOW_PACE
from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, message_text
from devkit.fake_discord.replies import flatten_components
from tests.e2e.kit.commands import create, gm_of
from tests.reliability.support import isolated_bot

#: The contract: a tracker shows a change within 5 s.
TRACKER_DELAY = 5.0


async def tracked_server(fake: FakeDiscord, health: int = 99) -> tuple[FakeGuild, FakeMember, str]:
    """A server whose GM created Ana and posted a tracker; the tracker's message id."""
    guild = await fake.create_guild()
    gm = gm_of(guild)
    await create(fake, guild, gm, "Ana", health)
    posted = await fake.slash(guild, gm, "scene tracker", timeout=30.0)
    assert posted.message_id is not None and not posted.ephemeral, posted.text
    return guild, gm, posted.message_id


async def tracked_servers(fake: FakeDiscord, count: int) -> list[tuple[FakeGuild, FakeMember, str]]:
    servers: list[tuple[FakeGuild, FakeMember, str]] = []
    for start in range(0, count, 25):
        batch = min(25, count - start)
        servers += await asyncio.gather(*(tracked_server(fake) for _ in range(batch)))
    return servers


def stale(fake: FakeDiscord, trackers: list[str], shown: str) -> list[str]:
    """The trackers that do not show ``shown`` yet."""
    return [m for m in trackers if shown not in message_text(fake.message(m))]


def invalid_between(fake: FakeDiscord, start: float, end: float) -> int:
    return sum(1 for at, _, _ in fake.invalid_requests if start <= at < end)


async def test_a_storm_of_route_429s_is_waited_out_and_backs_background_work_off(
    tmp_path: Path,
) -> None:
    """Every edit of 40 trackers answered 429 (scope user, retry_after 0.05–1 s): no channel
    is asked again before its retry_after, and once the invalid requests of the last 10
    minutes pass ``SLOW`` the background requests go at one a second, with one warning."""
    async with isolated_bot(tmp_path) as (fake, bot):
        servers = await tracked_servers(fake, 40)
        fake.inject_failure(
            "channel_message", status=429, count=1_000_000, retry_after=0.05, retry_after_max=1.0
        )
        began = time.monotonic()
        for guild, gm, _ in servers:
            hurt = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "1"})
            assert not hurt.ephemeral, hurt.text
        # The storm goes on: the trackers keep asking, each after its retry_after.
        await fake.wait_until(
            lambda: len(fake.invalid_requests) >= SLOW, 25.0, what=f"{SLOW} invalid requests"
        )
        slowed = time.monotonic()
        await asyncio.sleep(6.0)
        late = invalid_between(fake, slowed + 1.0, slowed + 6.0)
        print(
            f"\n40 trackers in a storm of 429s: {SLOW} invalid requests after"
            f" {slowed - began:.1f} s, then {late} in 5 s ({late / 5 * 600:.0f} per 10 minutes at"
            f" that pace; Discord bans at 10,000); {len(fake.early_requests)} requests before"
            " their route's retry_after"
        )
        assert fake.early_requests == []
        assert late <= 5 * SLOW_PACE + 2  # one a second, not 25 or 45
        fake.clear_injections()
        warned = bot.log_text().count("invalid requests (401, 403, 429) to Discord")
        assert warned == 1, bot.log_tail()


def buttons_of(fake: FakeDiscord, message_id: str) -> list[dict[str, object]]:
    message = fake.message(message_id) or {}
    return [c for c in flatten_components(message.get("components")) if c.get("type") == 2]


async def test_sweeps_of_roll_buttons_leave_every_tracker_current_within_5_s(
    tmp_path: Path,
) -> None:
    """120 servers with a tracker change every 2 s; in 60 of them each change makes a new
    Consciousness roll due (new buttons, the old ones to disable): every tracker shows the
    last change within 5 s, each old message is edited once without being read, and the
    sweeps are all done soon after."""
    async with isolated_bot(tmp_path, global_rate_limit=50) as (fake, _bot):
        servers = await tracked_servers(fake, 120)
        trackers = [message_id for _, _, message_id in servers]
        wounded = servers[:60]
        # Set up in batches of 20, as the trackers are: 60 at once once took a loaded 2-core
        # CI past Discord's 3 s before the part this test judges began.
        first = []
        for start in range(0, len(wounded), 20):
            first += await asyncio.gather(
                *(
                    fake.slash(
                        guild, gm, "hurt", {"character": "Ana", "amount": "100"}, timeout=30.0
                    )
                    for guild, gm, _ in wounded[start : start + 20]
                )
            )
        assert all(reply.custom_ids for reply in first), [r.text for r in first]
        rounds = 3
        spacing = 2.0 / len(servers)
        began = time.monotonic()
        sweeps_began = len(fake.requests)
        replies = []
        for round_number in range(rounds):
            for index, (guild, gm, _) in enumerate(servers):
                due = began + 2.0 * round_number + spacing * index
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                replies.append(
                    await fake.slash(
                        guild, gm, "hurt", {"character": "Ana", "amount": "1"}, wait="none"
                    )
                )
        for reply in replies:
            await reply.wait_complete(30.0)
            assert not reply.ephemeral, reply.text
        last_change = time.monotonic()
        healthy = f"Health {99 - rounds} / 99"
        hurt = f"Health -{1 + rounds} / 99"
        tracker_of = {message_id: index for index, (_, _, message_id) in enumerate(servers)}

        def late() -> list[str]:
            return [
                m
                for m in trackers
                if (hurt if tracker_of[m] < 60 else healthy) not in message_text(fake.message(m))
            ]

        try:
            await fake.wait_until(
                lambda: not late(), TRACKER_DELAY, what="every tracker current within 5 s"
            )
        finally:
            print(
                f"\n120 servers x {rounds} rounds, 60 with buttons: {len(late())} trackers"
                f" stale {time.monotonic() - last_change:.1f} s after the last change;"
                f" {fake.global_429s} global 429s; busiest second {fake.busiest_second}"
            )
        # Every message but each server's latest has its buttons disabled, soon after.
        latest: dict[str, str] = {}
        old: list[str] = []
        for record in fake.interactions.values():
            if record.label == "/hurt" and record.original_id is not None:
                guild_id = str(record.payload["guild_id"])
                if guild_id in latest:
                    old.append(latest[guild_id])
                latest[guild_id] = record.original_id
        to_disable = [m for m in old if buttons_of(fake, m)]
        assert len(to_disable) == 60 * rounds
        await fake.wait_until(
            lambda: all(all(b.get("disabled") for b in buttons_of(fake, m)) for m in to_disable),
            15.0,
            what="every old roll button disabled",
        )
        reads = [
            r
            for r in fake.requests[sweeps_began - len(fake.requests) :]
            if r.method == "GET" and "/messages/" in r.path
        ]
        print(f"{len(to_disable)} old roll messages disabled with {len(reads)} GETs")
        assert reads == []
        assert fake.global_429s == 0
        assert fake.violations == []


async def one_change_in_each_server(tmp_path: Path, count: int) -> None:
    """``count`` servers change once, all at the same moment: each tracker shows its
    server's change within 5 s of that change's reply (Discord answering each edit in 0.1 s)."""
    async with isolated_bot(tmp_path, global_rate_limit=50, rest_latency=0.1) as (fake, _bot):
        servers = await tracked_servers(fake, count)
        changed_at: dict[str, float] = {}
        shown_at: dict[str, float] = {}

        async def change(guild: FakeGuild, gm: FakeMember, tracker: str) -> None:
            reply = await fake.slash(
                guild, gm, "hurt", {"character": "Ana", "amount": "1"}, timeout=30.0
            )
            assert not reply.ephemeral, reply.text
            changed_at[tracker] = time.monotonic()

        def look() -> bool:
            for _, _, tracker in servers:
                if tracker not in shown_at and "Health 98 / 99" in message_text(
                    fake.message(tracker)
                ):
                    shown_at[tracker] = time.monotonic()
            return len(shown_at) == len(servers)

        watching = asyncio.create_task(
            fake.wait_until(look, 40.0, what="every tracker showing its change")
        )
        await asyncio.gather(*(change(*server) for server in servers))
        await watching
        delays = sorted(shown_at[t] - changed_at[t] for t in changed_at)
        print(
            f"\n{count} servers, one change each: each tracker current"
            f" {delays[len(delays) // 2]:.1f} s (median), {delays[-1]:.1f} s (the slowest)"
            " after its change;"
            f" {fake.global_429s} global 429s; busiest second {fake.busiest_second}"
        )
        assert delays[-1] <= TRACKER_DELAY
        assert fake.global_429s == 0
        assert fake.violations == []


@pytest.mark.stress
async def test_stress_one_change_in_each_of_150_servers_shows_on_every_tracker_within_5_s(
    tmp_path: Path,
) -> None:
    """150 edits take 3.4 s of the pacer's 44 a second (49 counted from each request's
    sending to a second after its answer, ``bot.discord_rest.admission``, with Discord's 0.1 s
    a request), and the bot serves the 150 commands in the same seconds: the slowest tracker
    shows its change in 3.5 s, beside two CPU burners as on a quiet machine. Too little room
    for ``make test`` on two cores, so it stays here."""
    await one_change_in_each_server(tmp_path, 150)


@pytest.mark.stress
async def test_stress_one_change_in_each_of_200_servers_within_5_s(tmp_path: Path) -> None:
    """The red team's count: 200 edits take 4.5 s of the pacer's 44 a second. The
    trackers' reads take their turns among the servers' commands (``tracker.refresh``), so
    that the edits follow the changes: the slowest took 4.2–4.6 s, with two CPU burners
    too (5.5–5.7 s at 40 a second, each tracker read waiting its turn behind every server's
    command: issue 24.10)."""
    await one_change_in_each_server(tmp_path, 200)


async def test_trackers_are_current_within_5_s_of_the_end_of_a_global_429_storm(
    tmp_path: Path,
) -> None:
    """Every background request answered with a global 429 for 8 s while 60 servers keep
    changing: once the storm ends, every tracker shows the last change within 5 s."""
    async with isolated_bot(tmp_path) as (fake, _bot):
        servers = await tracked_servers(fake, 60)
        trackers = [message_id for _, _, message_id in servers]
        fake.inject_failure(
            "channel_message",
            status=429,
            count=1_000_000,
            retry_after=0.05,
            retry_after_max=0.5,
            is_global=True,
        )
        storm_ends = time.monotonic() + 8.0
        rounds = 0
        while time.monotonic() < storm_ends - 1.0:
            rounds += 1
            await asyncio.gather(
                *(
                    fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "1"}, timeout=30.0)
                    for guild, gm, _ in servers
                )
            )
            await asyncio.sleep(1.0)
        await asyncio.sleep(max(0.0, storm_ends - time.monotonic()))
        fake.clear_injections()
        ended = time.monotonic()
        shown = f"Health {99 - rounds} / 99"
        try:
            await fake.wait_until(
                lambda: not stale(fake, trackers, shown),
                TRACKER_DELAY,
                what="every tracker current within 5 s of the storm's end",
            )
        finally:
            print(
                f"\nA global 429 storm of 8 s over 60 servers ({rounds} changes each):"
                f" {len(stale(fake, trackers, shown))} trackers stale"
                f" {time.monotonic() - ended:.1f} s after it ended;"
                f" {len(fake.invalid_requests)} invalid requests"
            )
        assert fake.violations == []
