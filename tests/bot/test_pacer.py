# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""The pacer of the bot's background requests (``bot.discord_rest.pacer``), in this process
against the fake Discord: one budget for every request, one waiting piece of work per key,
a 429 tried again after its ``retry_after`` (a global one pausing everything), and a fixed
number of tasks whatever the work."""

from __future__ import annotations

import asyncio
import itertools
import time
from types import SimpleNamespace
from typing import Any, cast

import aiohttp
import discord
import pytest

from bot.discord_rest.invalid_requests import SLOW, SLOW_PACE, STOP, Backoff, InvalidRequests
from bot.discord_rest.pacer import BURST, RATE, WORKERS, RateLimited, RestPacer
from devkit.fake_discord import FakeDiscord, FakeGuild


def pacer_for(fake: FakeDiscord, **options: Any) -> RestPacer:
    http = SimpleNamespace(token="pacer-token", user_agent="test", proxy=None, proxy_auth=None)
    pacer = RestPacer(cast(discord.http.HTTPClient, http), base_url=fake.api_url, **options)
    pacer.start()
    return pacer


def posts(fake: FakeDiscord, channel_id: str) -> list[Any]:
    return [
        r
        for r in fake.requests
        if r.method == "POST" and r.path.endswith(f"/{channel_id}/messages")
    ]


def post_job(pacer: RestPacer, guild: FakeGuild, text: str, done: list[str]) -> Any:
    channel_id = int(guild.channel.id)

    async def job() -> None:
        await pacer.request(
            "POST",
            f"/channels/{channel_id}/messages",
            channel_id=channel_id,
            body={"content": text},
        )
        done.append(text)

    return job


async def until(condition: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def post_times(fake: FakeDiscord, pacer: RestPacer, count: int) -> list[float]:
    """``count`` posts submitted at once through ``pacer``: when the fake received each."""
    guild = await fake.create_guild()
    done: list[str] = []
    try:
        for number in range(count):
            pacer.submit(("post", number), post_job(pacer, guild, f"m{number}", done))
        await until(lambda: len(done) == count, 10.0)
    finally:
        await pacer.close()
    return sorted(r.at for r in posts(fake, guild.channel.id))


async def test_every_request_shares_one_budget_well_under_discords_limit(
    fake: FakeDiscord,
) -> None:
    times = await post_times(fake, pacer_for(fake), 40)
    assert len(times) == 40
    busiest = max(sum(1 for at in times if start <= at < start + 1.0) for start in times)
    assert busiest <= RATE + 1, busiest
    assert times[-1] - times[0] >= (40 - BURST) / RATE - 0.2


async def test_no_second_holds_more_requests_than_the_rate_whatever_the_burst(
    fake: FakeDiscord,
) -> None:
    """A full bucket allows its burst and then the rate: a second's rate plus the burst
    in the first second. The requests are counted when they go as well, so that no second
    (a sliding one, as Discord counts) holds more than the rate's worth (issue 24)."""
    times = await post_times(fake, pacer_for(fake, rate=10.0, burst=6.0), 25)
    busiest = max(sum(1 for at in times if start <= at < start + 1.0) for start in times)
    assert busiest <= 10 + 1, busiest  # one of the fake's own jitter; the bucket alone: 16


async def test_work_submitted_again_while_it_waits_runs_once_with_the_newest(
    fake: FakeDiscord,
) -> None:
    guild = await fake.create_guild()
    pacer = pacer_for(fake)
    done: list[str] = []
    try:
        for number in range(100):
            pacer.submit(
                "tracker",
                post_job(pacer, guild, f"state {number}", done),
                not_before=1e12 if number == 0 else 0.0,
            )
        await until(lambda: done != [], 5.0)
        assert pacer.waiting == 0  # nothing else is left to run
    finally:
        await pacer.close()
    assert done == ["state 99"]


async def test_a_429_is_tried_again_after_retry_after_until_it_goes_through(
    fake: FakeDiscord,
) -> None:
    guild = await fake.create_guild()
    pacer = pacer_for(fake)
    done: list[str] = []
    fake.inject_failure("channel_message", status=429, count=3, retry_after=0.2)
    try:
        pacer.submit("tracker", post_job(pacer, guild, "latest", done))
        await until(lambda: done == ["latest"], 5.0)
    finally:
        await pacer.close()
    tries = posts(fake, guild.channel.id)
    assert [r.status for r in tries] == [429, 429, 429, 200]
    gaps = [b.at - a.at for a, b in itertools.pairwise(tries)]
    assert all(gap >= 0.19 for gap in gaps), gaps


async def test_a_newer_state_replaces_work_refused_with_a_429(fake: FakeDiscord) -> None:
    guild = await fake.create_guild()
    pacer = pacer_for(fake)
    done: list[str] = []
    fake.inject_failure("channel_message", status=429, count=1, retry_after=0.3)
    try:
        pacer.submit("tracker", post_job(pacer, guild, "old", done))
        await until(lambda: len(posts(fake, guild.channel.id)) == 1, 5.0)
        pacer.submit("tracker", post_job(pacer, guild, "new", done))
        await until(lambda: done != [], 5.0)
        assert pacer.waiting == 0
    finally:
        await pacer.close()
    assert done == ["new"]


async def test_a_global_429_pauses_every_background_request(fake: FakeDiscord) -> None:
    fake.global_rate_limit = 10  # lower than the pacer's budget: it must be told
    guild = await fake.create_guild()
    pacer = pacer_for(fake)
    done: list[str] = []
    try:
        for number in range(25):
            pacer.submit(("post", number), post_job(pacer, guild, f"m{number}", done))
        await until(lambda: len(done) == 25, 15.0)
    finally:
        await pacer.close()
    # Each global 429 stops every worker until the window frees and halves the pace: a few,
    # each with at most the requests already on their way when it came back (one a worker).
    assert 1 <= fake.global_429s <= WORKERS, fake.global_429s
    assert pacer.limited == fake.global_429s


async def test_the_workers_are_all_its_tasks(fake: FakeDiscord) -> None:
    guild = await fake.create_guild()
    before = len(asyncio.all_tasks())
    pacer = pacer_for(fake, workers=3)
    done: list[str] = []
    try:
        for number in range(200):
            pacer.submit(("post", number % 50), post_job(pacer, guild, f"m{number}", done))
        assert len(asyncio.all_tasks()) - before == 3
        assert pacer.waiting == 50
    finally:
        await pacer.close()
    assert len(asyncio.all_tasks()) == before


def test_rate_limited_says_how_long() -> None:
    limited = RateLimited(0.25, is_global=True)
    assert limited.retry_after == 0.25 and limited.is_global
    assert "global" in str(limited)


@pytest.mark.parametrize("status", [403, 404])
async def test_gone_answers_reach_the_work(fake: FakeDiscord, status: int) -> None:
    guild = await fake.create_guild()
    pacer = pacer_for(fake)
    errors: list[discord.HTTPException] = []
    if status == 403:
        fake.forbidden_channels.add(guild.channel.id)
    channel_id = int(guild.channel.id) if status == 403 else 1

    async def job() -> None:
        try:
            await pacer.request(
                "POST",
                f"/channels/{channel_id}/messages",
                channel_id=channel_id,
                body={"content": "x"},
            )
        except discord.HTTPException as error:
            errors.append(error)

    try:
        pacer.submit("k", job)
        await until(lambda: errors != [], 5.0)
    finally:
        await pacer.close()
    assert errors[0].status == status


async def test_a_refused_token_pauses_every_background_request(fake: FakeDiscord) -> None:
    guild = await fake.create_guild()
    pacer = pacer_for(fake)
    errors: list[discord.HTTPException] = []
    fake.refuse_token = True
    channel_id = int(guild.channel.id)

    def job() -> Any:
        async def post() -> None:
            try:
                await pacer.request(
                    "POST", f"/channels/{channel_id}/messages", channel_id=channel_id, body={}
                )
            except discord.HTTPException as error:
                errors.append(error)

        return post

    try:
        for number in range(20):
            pacer.submit(number, job())
        await until(lambda: errors != [], 5.0)
        assert errors[0].status == 401
        assert pacer.paused_for > 50  # each request would be one more invalid request
        assert len(fake.invalid_requests) <= WORKERS  # those already on their way, at most
    finally:
        await pacer.close()


# --- issue 24.10 ---------------------------------------------------------------------------


def refused_job(pacer: RestPacer, channel_id: int, errors: list[discord.HTTPException]) -> Any:
    async def job() -> None:
        try:
            await pacer.request(
                "POST", f"/channels/{channel_id}/messages", channel_id=channel_id, body={}
            )
        except discord.HTTPException as error:
            errors.append(error)

    return job


async def test_a_channel_that_answered_403_is_not_asked_again(fake: FakeDiscord) -> None:
    guild = await fake.create_guild()
    fake.forbidden_channels.add(guild.channel.id)
    channel_id = int(guild.channel.id)
    pacer = pacer_for(fake)
    errors: list[discord.HTTPException] = []
    try:
        pacer.submit("first", refused_job(pacer, channel_id, errors))
        await until(lambda: len(errors) == 1, 5.0)
        for number in range(5):
            pacer.submit(number, refused_job(pacer, channel_id, errors))
        await until(lambda: len(errors) == 6, 5.0)
    finally:
        await pacer.close()
    assert pacer.refused(channel_id)
    assert all(error.status == 403 for error in errors)
    assert len(fake.invalid_requests) == 1  # the others were refused from memory


async def test_a_route_that_answered_429_waits_its_retry_after(fake: FakeDiscord) -> None:
    """A 429 holds its channel (the route's bucket): other work for that channel waits the
    retry_after instead of drawing another 429."""
    guild = await fake.create_guild()
    channel_id = int(guild.channel.id)
    fake.inject_failure("channel_message", status=429, count=1, retry_after=0.5)
    pacer = pacer_for(fake)
    done: list[str] = []
    try:
        pacer.submit("a", post_job(pacer, guild, "a", done))
        await until(lambda: fake.injected_left == 0, 5.0)
        refused_at = time.monotonic()
        pacer.submit("b", post_job(pacer, guild, "b", done))
        await until(lambda: len(done) == 2, 5.0)
    finally:
        await pacer.close()
    later = [r.at for r in posts(fake, str(channel_id)) if r.at > refused_at]
    assert later and min(later) >= refused_at + 0.4, later
    assert fake.early_requests == []


async def test_urgent_work_goes_first_but_never_starves_the_rest(fake: FakeDiscord) -> None:
    guild = await fake.create_guild()
    pacer = pacer_for(fake, rate=20.0, burst=1.0, workers=1)
    done: list[str] = []
    try:
        for number in range(8):
            pacer.submit(("sweep", number), post_job(pacer, guild, f"s{number}", done))
        for number in range(16):
            pacer.submit(
                ("tracker", number), post_job(pacer, guild, f"t{number}", done), urgent=True
            )
        await until(lambda: len(done) == 24, 10.0)
    finally:
        await pacer.close()
    # After the one already taken, seven trackers for each sweep while both wait.
    first_sixteen = done[1:17]
    assert sum(1 for name in first_sixteen if name.startswith("t")) == 14, done


async def test_the_pace_is_whole_again_two_seconds_after_a_global_429(fake: FakeDiscord) -> None:
    guild = await fake.create_guild()
    fake.inject_failure("channel_message", status=429, count=3, retry_after=0.1, is_global=True)
    pacer = pacer_for(fake)
    done: list[str] = []
    try:
        for number in range(3):
            pacer.submit(("storm", number), post_job(pacer, guild, f"s{number}", done))
        await until(lambda: len(done) == 3, 10.0)
        await asyncio.sleep(2.1)
        began = time.monotonic()
        for number in range(40):
            pacer.submit(("after", number), post_job(pacer, guild, f"a{number}", done))
        await until(lambda: len(done) == 43, 10.0)
        took = time.monotonic() - began
    finally:
        await pacer.close()
    assert took < 40 / RATE + 0.5, took  # at the full rate, not 1 a second growing by 1


async def test_past_the_slow_mark_background_requests_go_one_a_second(
    fake: FakeDiscord,
) -> None:
    guild = await fake.create_guild()
    invalid = InvalidRequests()
    for _ in range(SLOW):
        invalid.add(403)
    pacer = pacer_for(fake, invalid=invalid)
    done: list[str] = []
    try:
        began = time.monotonic()
        for number in range(3):
            pacer.submit(number, post_job(pacer, guild, f"m{number}", done))
        await until(lambda: len(done) == 3, 10.0)
        took = time.monotonic() - began
    finally:
        await pacer.close()
    assert took >= 2.0 / SLOW_PACE - 0.1, took


def test_invalid_requests_are_counted_over_ten_minutes_as_discord_counts_them(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [1000.0]
    invalid = InvalidRequests(clock=lambda: now[0])
    invalid.add(200)
    invalid.add(404)
    invalid.add(429, "shared")  # a resource's limit: Discord does not count it
    assert invalid.count == 0 and invalid.level is Backoff.NONE
    for _ in range(SLOW - 1):
        invalid.add(429, "user")
    assert invalid.level is Backoff.NONE
    invalid.add(401)
    assert invalid.count == SLOW and invalid.level is Backoff.SLOW
    for _ in range(STOP - SLOW):
        invalid.add(403)
    assert invalid.level is Backoff.STOP
    now[0] += 599.0
    assert invalid.count == STOP
    now[0] += 1.0  # ten minutes after: forgotten
    assert invalid.count == 0 and invalid.level is Backoff.NONE
    for _ in range(SLOW):
        invalid.add(403)
    warnings = [r for r in caplog.records if "invalid requests" in r.getMessage()]
    assert len(warnings) == 1  # once per process


async def test_discord_py_s_invalid_requests_are_counted_too(fake: FakeDiscord) -> None:
    """discord.py's session carries the count's trace (``SaludBot``'s ``http_trace``): its
    refused posts (an announcement channel) count as the pacer's do."""
    guild = await fake.create_guild()
    fake.forbidden_channels.add(guild.channel.id)
    invalid = InvalidRequests()
    async with aiohttp.ClientSession(trace_configs=[invalid.trace_config()]) as session:
        url = f"{fake.api_url}/channels/{guild.channel.id}/messages"
        async with session.post(url, json={"content": "x"}) as response:
            assert response.status == 403
        async with session.get(f"{fake.api_url}/users/@me") as response:
            assert response.status in (200, 401)
    assert invalid.count == 1 + (response.status == 401)


async def test_a_long_sweep_under_way_does_not_hold_the_trackers_back(fake: FakeDiscord) -> None:
    """Four sweeps of ten messages each are under way when fourteen trackers come: the
    trackers' requests take the tokens first, seven to one."""
    guild = await fake.create_guild()
    pacer = pacer_for(fake, rate=20.0, burst=1.0)
    done: list[str] = []

    def sweep(number: int) -> Any:
        async def job() -> None:
            for message in range(10):
                await post_job(pacer, guild, f"s{number}.{message}", done)()

        return job

    try:
        for number in range(4):
            pacer.submit(("sweep", number), sweep(number))
        await until(lambda: len(done) >= 2, 5.0)
        arrived = len(done)
        for number in range(14):
            pacer.submit(
                ("tracker", number), post_job(pacer, guild, f"t{number}", done), urgent=True
            )
        await until(lambda: len(done) == 54, 15.0)
    finally:
        await pacer.close()
    following = done[arrived : arrived + 16]
    assert sum(1 for name in following if name.startswith("t")) == 14, done
