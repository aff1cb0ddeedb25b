"""Servers on a given shard: the fake's ids spread over the shards as Discord's do."""

from __future__ import annotations

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.fake_discord.sharding import shard_of


async def guild_on(fake: FakeDiscord, shard: int, count: int, locale: str = "en-US") -> FakeGuild:
    """A new server whose id puts it on ``shard`` of ``count``."""
    for _ in range(50):
        guild = await fake.create_guild(locale=locale)
        if shard_of(guild.id, count) == shard:
            return guild
        await fake.remove_guild(guild)
    raise AssertionError(f"no server id landed on shard {shard} of {count}")
