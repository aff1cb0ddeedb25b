"""A server with a GM, a GM by role and two players, for the ability tests and others that
need a small table: slash commands that must succeed, or be refused without changing anything."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit.db import guild_state


@dataclass
class Table:
    """A server with a GM (Manage Server), a GM by role, Ana's player and another player."""

    fake: FakeDiscord
    bot: BotProcess
    guild: FakeGuild
    gm: FakeMember
    keeper: FakeMember  # GM through the configured GM role
    ana: FakeMember  # owns the character "Ana"
    bob: FakeMember  # another player

    async def slash(
        self, member: FakeMember, command: str, options: Mapping[str, Any] | None = None, **kw: Any
    ) -> Reply:
        return await self.fake.slash(self.guild, member, command, options, **kw)

    async def ok(
        self, member: FakeMember, command: str, options: Mapping[str, Any] | None = None, **kw: Any
    ) -> Reply:
        """A command that must succeed with a public reply."""
        reply = await self.slash(member, command, options, **kw)
        assert not reply.ephemeral, f"/{command} {options} refused: {reply.content}"
        return reply

    async def refused(
        self,
        member: FakeMember,
        command: str,
        options: Mapping[str, Any] | None = None,
        *words: str,
        **kw: Any,
    ) -> Reply:
        """A command that must be refused: ephemeral, saying ``words``, changing nothing."""
        before = guild_state(self.bot, self.guild)
        reply = await self.slash(member, command, options, **kw)
        assert reply.ephemeral, f"/{command} {options} was not refused: {reply.text}"
        assert not reply.embeds
        for word in words:
            assert word in reply.content, (word, reply.content)
        assert "Traceback" not in reply.content and "went wrong" not in reply.content
        assert guild_state(self.bot, self.guild) == before, f"/{command} {options} changed state"
        return reply

    async def set_abilities(self, character: str, *specs: tuple[str, int]) -> None:
        """Give ``character`` abilities (name, rating) at once (the GM types them)."""
        replies = await asyncio.gather(
            *(
                self.slash(
                    self.gm,
                    "ability set",
                    {"character": character, "ability": name, "rating": rating},
                )
                for name, rating in specs
            )
        )
        for reply in replies:
            assert not reply.ephemeral, reply.content


async def make_table(
    fake: FakeDiscord,
    bot: BotProcess,
    guild: FakeGuild,
    *,
    locale: str = "en-US",
    first_aid: int = 3,
) -> Table:
    gm = guild.member("Gm", permissions=["manage_guild"], locale=locale)
    role = guild.role("Keepers")
    keeper = guild.member("Keeper", roles=[role], locale=locale)
    ana = guild.member("AnaPlayer", locale=locale)
    bob = guild.member("BobPlayer", locale=locale)
    table = Table(fake, bot, guild, gm, keeper, ana, bob)
    await table.ok(ana, "character create", {"name": "Ana", "health": 9, "first_aid": first_aid})
    config = await table.slash(gm, "config gm-role", {"role": role})
    assert config.ephemeral, config.content
    return table
