"""Discord failing the bot's reply (500, 429, an announcement refused): the bot survives, and
the change it made is in the history exactly once, applied once.

discord.py retries a 5xx after 1 s, 3 s … and a 429 after its ``retry_after``; a reply that
Discord still refuses after its 3-second window is lost (the player sees "did not respond"),
but the change stays stored and recorded once, and the next command works.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember
from tests.e2e.kit import create
from tests.e2e.kit.db import stored as character_row
from tests.reliability.support import entries_of, interaction_ids, isolated_bot


async def ana_on_a_new_server(fake: FakeDiscord) -> tuple[FakeGuild, FakeMember]:
    """A new server where Ana's player has created Ana (9 Health)."""
    guild = await fake.create_guild()
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    return guild, ana


@pytest.mark.parametrize(
    ("status", "count"),
    [(500, 1), (502, 1), (429, 3)],
    ids=["500-once", "502-once", "429-three-times"],
)
async def test_a_retried_reply_arrives_and_the_change_is_applied_once(
    tmp_path: Path, status: int, count: int
) -> None:
    async with isolated_bot(tmp_path) as (fake, bot):
        guild, ana = await ana_on_a_new_server(fake)
        fake.inject_failure("callback", status=status, count=count, retry_after=0.05)
        reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "3"})
        assert reply.type == 4 and not reply.ephemeral, reply.text
        assert "6 / 9" in reply.text
        row = character_row(bot.database_path, guild, "Ana")
        assert row["health"] == 6
        hurts = [e for e in entries_of(bot.database_path, row["id"]) if e.command == "hurt"]
        assert [e.interaction_id for e in hurts] == [int(reply.record.id)]
        posts = [
            r
            for r in fake.requests
            if r.path.endswith(f"/{reply.record.id}/{reply.record.token}/callback")
        ]
        assert [r.status for r in posts] == [status] * count + [200]


async def test_a_reply_discord_keeps_refusing_is_lost_but_the_change_is_kept_once(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path) as (fake, bot):
        guild, ana = await ana_on_a_new_server(fake)
        # 500, then 500 after 1 s; the third try (after 3 s more) is past Discord's window.
        fake.inject_failure("callback", status=500, count=2)
        lost = await fake.slash(
            guild, ana, "hurt", {"character": "Ana", "amount": "2"}, wait="none"
        )
        await fake.wait_until(
            lambda: "10062 first response after" in " ".join(lost.record.errors),
            timeout=15,
            what="the bot's retry after the 3-second window",
        )
        await bot.wait_for_log("expired before it could be answered", timeout=10)
        row = character_row(bot.database_path, guild, "Ana")
        assert row["health"] == 7
        hurts = [e for e in entries_of(bot.database_path, row["id"]) if e.command == "hurt"]
        assert [e.interaction_id for e in hurts] == [int(lost.record.id)]
        # The bot is alive and well: the next command is answered and applied once.
        reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "1"})
        assert reply.type == 4 and "6 / 9" in reply.text
        ids = interaction_ids(bot.database_path)
        assert len(ids) == len(set(ids))


async def test_an_announcement_discord_refuses_does_not_spoil_the_reply(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path) as (fake, bot):
        guild, ana = await ana_on_a_new_server(fake)
        config = await fake.slash(
            guild, guild.owner, "config channel", {"channel": guild.announcements}
        )
        assert config.ephemeral and "<#" in config.text
        fake.inject_failure("channel_message", status=400, count=1)
        # 9 → 0 is a change of state (Hurt): announced, and the announcement is refused for
        # a reason that says nothing of the channel (a 403 or 404 would: test_announcement_
        # channel.py in tests/e2e).
        reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "9"})
        assert reply.type == 4 and not reply.ephemeral, reply.text
        await bot.wait_for_log("could not announce", timeout=5)
        assert character_row(bot.database_path, guild, "Ana")["health"] == 0
        # The next announcement goes through.
        again = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "6"})
        assert not again.ephemeral
        posted = await fake.wait_channel_messages(guild.announcements.id, 1)
        assert posted[-1]["embeds"][0]["title"] == "Ana"
