"""The gateway connection lost mid-session: the bot comes back by itself and answers again.

"resume": Discord closes the socket; the bot RESUMEs and receives what it missed, so a
command sent while it was away is answered too. "invalidate": the RESUME is refused and the
bot IDENTIFYs again (a new session; what was sent meanwhile is lost, as on Discord).
"reconnect": Discord asks the bot to reconnect (op 7).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from tests.e2e.kit import create
from tests.e2e.kit.db import stored as character_row
from tests.reliability.support import (
    burst,
    entries_of,
    interaction_ids,
    is_refusal,
    isolated_bot,
    said,
    wait_all,
)


@pytest.mark.parametrize("mode", ["resume", "invalidate", "reconnect"])
async def test_after_a_dropped_gateway_the_bot_reconnects_and_answers(
    tmp_path: Path, mode: Literal["resume", "invalidate", "reconnect"]
) -> None:
    async with isolated_bot(tmp_path) as (fake, bot):
        guild = await fake.create_guild()
        ana = guild.member("Ana")
        await create(fake, guild, ana, "Ana", 9)
        handshakes, identifies = fake.handshakes, fake.identifies
        await fake.drop_gateway(mode)
        await fake.wait_for_handshake(handshakes, timeout=15)
        if mode == "invalidate":
            assert fake.identifies == identifies + 1
            assert "INVALID_SESSION" in fake.gateway_log
        else:
            assert fake.identifies == identifies and "RESUMED" in fake.gateway_log
        reply = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "2"})
        assert reply.type == 4 and not reply.ephemeral, reply.text
        shown = await fake.slash(guild, ana, "character show", {"character": "Ana"})
        assert shown.embed["title"] == "Ana"
        assert character_row(bot.database_path, guild, "Ana")["health"] == 7
        # A second drop of the same kind is survived as well.
        handshakes = fake.handshakes
        await fake.drop_gateway(mode)
        await fake.wait_for_handshake(handshakes, timeout=15)
        again = await fake.slash(guild, ana, "character show", {"character": "Ana"})
        assert again.embed["title"] == "Ana"


async def test_commands_in_flight_when_the_gateway_drops_are_answered_once_after_resume(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path, interaction_deadline=20.0) as (fake, bot):
        guild = await fake.create_guild()
        ana = guild.member("Ana")
        await create(fake, guild, ana, "Ana", 99)
        calls = [(ana, "hurt", {"character": "Ana", "amount": "1"})] * 30
        first = await burst(fake, guild, calls)
        await fake.drop_gateway("resume")
        second = await burst(fake, guild, calls)  # sent while the bot is away: buffered
        replies = first + second
        await wait_all(fake, replies, timeout=30)
        assert not [said(r) for r in replies if is_refusal(r)]
        row = character_row(bot.database_path, guild, "Ana")
        assert row["health"] == 99 - len(replies)
        hurts = [e for e in entries_of(bot.database_path, row["id"]) if e.command == "hurt"]
        assert len(hurts) == len(replies)
        ids = interaction_ids(bot.database_path)
        assert len(ids) == len(set(ids))
