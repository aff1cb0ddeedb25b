"""Interactions from a server whose GUILD_CREATE the bot never saw (an outage, a cache
miss): everything the bot needs is in the interaction itself, so it still answers."""

from __future__ import annotations

from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess


async def guild_without_create(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> FakeGuild:
    """A server known to the fake but never announced to the bot."""
    dispatch = fake._dispatch

    def skip_guild_create(event: str, payload: Any) -> Any:
        if event == "GUILD_CREATE":
            return None
        return dispatch(event, payload)

    with monkeypatch.context() as patch:
        patch.setattr(fake, "_dispatch", skip_guild_create)
        return await fake.create_guild(locale="es-ES")


async def test_commands_work_in_a_server_the_bot_has_not_cached(
    fake: FakeDiscord, bot: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = await guild_without_create(fake, monkeypatch)
    gm = guild.member("Gm", permissions=["manage_guild"])
    player = guild.member("Pepa")
    created = await fake.slash(guild, player, "character create", {"name": "Ana", "health": 9})
    assert not created.ephemeral, created.text
    hurt = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "11"})
    assert not hurt.ephemeral, hurt.text
    assert hurt.embed["fields"][0]["value"].startswith("9 → -2 / 9")
    refused = await fake.slash(guild, player, "time", {"minutes": 30})
    assert refused.ephemeral
    role = guild.role("Guardián")
    await fake.slash(guild, gm, "config gm-role", {"role": role})
    keeper = guild.member("Keeper", roles=[role])
    passed = await fake.slash(guild, keeper, "time", {"minutes": 30})
    assert not passed.ephemeral, passed.text
    assert fake.violations == []
