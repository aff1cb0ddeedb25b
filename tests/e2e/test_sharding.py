"""Shards end to end: the real bot on Discord's recommended shards, two processes sharing the
shards of one bot on one database file, Discord's refusal of an overfull shard, and the
GUILDS-only intents seen from the fake's side (no message, typing or reaction events).

Each test has its own fake Discord and bot processes (the session's shared bot runs one shard).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Literal

import pytest
import pytest_asyncio

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from devkit.fake_discord.sharding import INTENTS, shard_of
from devkit.fake_discord.stream import STREAM_EVENTS, EventStream
from devkit.harness import BotProcess
from tests.e2e.kit.processes import watched
from tests.e2e.kit.shards import guild_on

GUILDS_ONLY = INTENTS["GUILDS"]


@pytest_asyncio.fixture
async def own_fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(app_name="Salud")
    await server.start()
    yield server
    await server.stop()


def salud(
    fake: FakeDiscord,
    tmp: Path,
    name: str,
    *,
    shards: int = 1,
    extra_env: dict[str, str] | None = None,
) -> BotProcess:
    """A Salud process on ``tmp``'s one database file, logging to ``name``.log (read by the
    screen's scan)."""
    return watched(
        BotProcess(
            fake,
            database_path=tmp / "bot.sqlite3",
            log_path=tmp / f"{name}.log",
            shards=shards,
            extra_env=extra_env,
        )
    )


async def stopped_cleanly(*bots: BotProcess) -> None:
    for bot in bots:
        assert await bot.stop() == 0, bot.log_tail()
        assert not bot.new_tracebacks(), bot.log_tail()


def public(reply: Reply, *fragments: str) -> None:
    assert reply.type == 4 and not reply.ephemeral, reply
    for fragment in fragments:
        assert fragment in reply.text, f"{fragment!r} not in {reply.text!r}"


async def test_recommended_shards_in_one_process_with_commands_buttons_and_announcements(
    own_fake: FakeDiscord, tmp_path: Path
) -> None:
    fake = own_fake
    for _ in range(1_000):
        await fake.create_guild()
    zero, one = await guild_on(fake, 0, 2), await guild_on(fake, 1, 2)  # 1,002: 2 shards
    bot = salud(fake, tmp_path, "bot", shards=2)
    await bot.start()
    try:
        assert fake.shards == {0: 2, 1: 2}  # Discord's recommendation, no SHARD_COUNT set
        assert fake.session_intents() == {0: GUILDS_ONLY, 1: GUILDS_ONLY}
        await bot.wait_for_log("in 1002 servers, shards 0,1 of 2", 20)
        joined = await guild_on(fake, 1, 2)  # joins while connected: GUILD_CREATE on shard 1
        for guild in (zero, one, joined):
            gm = guild.member("Gm", permissions=["manage_guild"])
            public(
                await fake.slash(guild, gm, "character create", {"name": "Ana", "health": 9}),
                "Ana",
            )
            reply = await fake.slash(guild, gm, "config channel", {"channel": guild.announcements})
            assert reply.ephemeral and guild.announcements.mention in reply.text
            knocked = await fake.slash(
                guild, gm, "character set", {"character": "Ana", "health": -2}
            )
            public(knocked, "Difficulty 2")
            pressed = await fake.click(guild, gm, knocked, knocked.buttons[0]["custom_id"])
            assert pressed.type == 7  # the pressed message's buttons disabled
            rolled = await pressed.answer()  # the roll follows up
            assert not rolled.ephemeral and " vs 2" in rolled.text, rolled.text
            posts = await fake.wait_channel_messages(guild.announcements.id, 1)
            assert "Ana" in str(posts[0]["embeds"])
    finally:
        await stopped_cleanly(bot)


async def test_two_processes_each_run_one_shard_on_one_database_file(
    own_fake: FakeDiscord, tmp_path: Path
) -> None:
    fake = own_fake
    zeros = [await guild_on(fake, 0, 2) for _ in range(2)]
    ones = [await guild_on(fake, 1, 2) for _ in range(3)]
    first = salud(fake, tmp_path, "shard0", extra_env={"SHARD_COUNT": "2", "SHARD_IDS": "0"})
    second = salud(fake, tmp_path, "shard1", extra_env={"SHARD_COUNT": "2", "SHARD_IDS": "1"})
    await first.start()
    await second.start()
    try:
        assert fake.shards == {0: 2, 1: 2}
        await first.wait_for_log("in 2 servers, shards 0 of 2", 10)
        await second.wait_for_log("in 3 servers, shards 1 of 2", 10)
        assert "Synced" in first.log_text() and "Synced" not in second.log_text()
        for number, guild in enumerate([*zeros, *ones]):
            name = f"Pj{number}"
            public(
                await fake.slash(
                    guild, guild.owner, "character create", {"name": name, "health": 9}
                ),
                name,
            )
            public(await fake.slash(guild, guild.owner, "hurt", {"character": name, "amount": "2"}))
        with sqlite3.connect(tmp_path / "bot.sqlite3") as conn:
            stored = dict(conn.execute("SELECT guild_id, health FROM characters").fetchall())
        assert stored == {int(g.id): 7 for g in [*zeros, *ones]}

        # With the second process gone, its servers go unanswered; the first answers its own.
        assert await second.stop() == 0
        reply = await fake.slash(zeros[0], zeros[0].owner, "character show", {"character": "Pj0"})
        public(reply, "7 / 9")
        with pytest.raises(AssertionError, match="callback"):
            await fake.slash(
                ones[0],
                ones[0].owner,
                "character show",
                {"character": "Pj2"},
                wait="callback",
                timeout=1.5,
            )
    finally:
        await stopped_cleanly(first, second)


async def test_an_overfull_shard_is_refused_with_4011_and_the_bot_says_what_to_change(
    own_fake: FakeDiscord, tmp_path: Path
) -> None:
    fake = own_fake
    for _ in range(2_501):
        await fake.create_guild()
    bot = salud(fake, tmp_path, "bot", extra_env={"SHARD_COUNT": "1"})
    await bot.start()  # returns at the IDENTIFY, which Discord refuses
    assert bot.process is not None
    assert await asyncio.wait_for(bot.process.wait(), 15) == 2
    assert "closed 4011 (Sharding required.)" in fake.gateway_log
    log = bot.log_text()
    assert "a shard would carry more than 2,500 servers" in log
    assert "Remove SHARD_COUNT and SHARD_IDS from .env" in log
    assert "Traceback" not in log


async def test_an_invalid_shard_id_is_refused_with_4010(own_fake: FakeDiscord) -> None:
    """The fake itself: a shard id not below the count is closed at IDENTIFY."""
    import aiohttp

    async with aiohttp.ClientSession() as http, http.ws_connect(own_fake.gateway_url) as ws:
        hello = await ws.receive_json(timeout=5)
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": "t", "intents": 1, "shard": [2, 2]}})
        closed = await ws.receive(timeout=5)
        assert ws.close_code == 4010, closed
    assert own_fake.shards == {}


async def test_guilds_intent_only_no_background_event_reaches_salud(
    own_fake: FakeDiscord, floor_fake: FakeDiscord, floor_guild: FakeGuild, tmp_path: Path
) -> None:
    fake = own_fake
    guilds = [await fake.create_guild() for _ in range(3)]
    bot = salud(fake, tmp_path, "bot")
    await bot.start()
    try:
        async with (
            EventStream(fake, 300) as salud_stream,
            EventStream(floor_fake, 300, [floor_guild]) as floor_stream,
        ):
            # A second of the stream, 300 events each: the bot is asked for none of them.
            await asyncio.gather(salud_stream.wait_sent(300), floor_stream.wait_sent(300))
            # Still answering while the stream runs.
            public(
                await fake.slash(
                    guilds[0], guilds[0].owner, "character create", {"name": "Ana", "health": 9}
                ),
                "Ana",
            )
        assert salud_stream.sent >= 200 and floor_stream.sent >= 200
        for event in STREAM_EVENTS:
            assert fake.delivered(event) == {0: 0}, event
        # The floor keeps Intents.default(): messages, typing and reactions, no privileged ones.
        floor_shard = next(iter(floor_fake.shards))
        for event in ("MESSAGE_CREATE", "TYPING_START", "MESSAGE_REACTION_ADD"):
            assert floor_fake.delivered(event)[floor_shard] >= 30, event
        for event in ("PRESENCE_UPDATE", "GUILD_MEMBER_UPDATE"):
            assert floor_fake.delivered(event)[floor_shard] == 0, event
    finally:
        await stopped_cleanly(bot)


async def test_gateway_bot_recommends_one_shard_per_thousand_servers(
    own_fake: FakeDiscord,
) -> None:
    import aiohttp

    async def recommended() -> int:
        async with (
            aiohttp.ClientSession() as http,
            http.get(
                f"{own_fake.api_url}/gateway/bot", headers={"Authorization": "Bot t"}
            ) as response,
        ):
            assert response.status == 200
            return int((await response.json())["shards"])

    assert await recommended() == 1  # no server yet
    for target, shards in ((1_000, 1), (1_001, 2), (2_600, 3)):
        while len(own_fake.guilds) < target:
            await own_fake.create_guild()
        assert await recommended() == shards, target
    # The ids spread over the shards as real ones do: none is near Discord's 2,500 limit.
    # Not exactly even: on a busy machine the ids' milliseconds skip (867 each when they
    # do not, 868/866/866 seen under a parallel suite).
    counts = [len(own_fake.guilds_of_shard(shard, 3)) for shard in range(3)]
    assert sum(counts) == 2_600 and max(counts) <= 1_000, counts


def test_servers_split_by_the_timestamp_bits_of_their_id() -> None:
    base = 1_000_000 << 22
    assert [shard_of(base + (n << 22) + 12345, 4) for n in range(5)] == [0, 1, 2, 3, 0]
    assert shard_of(str(base), 1) == 0


@pytest.mark.parametrize("mode", ["resume", "invalidate"])
async def test_one_shard_dropped_comes_back_and_the_other_never_left(
    own_fake: FakeDiscord, tmp_path: Path, mode: Literal["resume", "invalidate"]
) -> None:
    fake = own_fake
    zero, one = await guild_on(fake, 0, 2), await guild_on(fake, 1, 2)
    bot = salud(fake, tmp_path, "bot", shards=2, extra_env={"SHARD_COUNT": "2"})
    await bot.start()
    try:
        await bot.wait_for_log("in 2 servers, shards 0,1 of 2", 10)
        for guild in (zero, one):
            public(
                await fake.slash(
                    guild, guild.owner, "character create", {"name": "Ana", "health": 9}
                ),
                "Ana",
            )
        handshakes, identifies = fake.handshakes, fake.identifies
        await fake.drop_gateway(mode, shard=1)
        public(await fake.slash(zero, zero.owner, "hurt", {"character": "Ana", "amount": "1"}))
        await fake.wait_for_handshake(handshakes, timeout=15)
        assert fake.identifies == identifies + (1 if mode == "invalidate" else 0)
        assert fake.connected
        reply = await fake.slash(one, one.owner, "hurt", {"character": "Ana", "amount": "2"})
        public(reply, "7 / 9")
    finally:
        await stopped_cleanly(bot)
