"""One malformed gateway event must not stop the bot: what discord.py's parser raises for it
is logged once, with the event's type, and the bot goes on answering."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.kit import create
from tests.reliability.support import isolated_bot


async def test_a_member_without_roles_or_a_broken_role_event_does_not_stop_the_bot(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path, name="odd") as (fake, bot):
        guild = await fake.create_guild()
        gm = guild.owner
        await create(fake, guild, gm, "Ana", 9)

        payload = fake._base_interaction(2, guild, gm, None, None)
        payload["data"] = fake.build_command_data(guild, "character show", {"character": "Ana"})
        del payload["member"]["roles"]
        fake._send_interaction(payload, "/character show (member without roles)")
        fake._dispatch("GUILD_ROLE_UPDATE", {"guild_id": guild.id, "role": {"name": "?"}})
        await bot.wait_for_log("Skipped a malformed INTERACTION_CREATE event", timeout=5)
        await bot.wait_for_log("Skipped a malformed GUILD_ROLE_UPDATE event", timeout=5)
        await bot.settled(payload["id"])  # it started nothing: it was skipped while parsed

        assert bot.running, bot.log_tail()
        shown = await fake.slash(guild, gm, "character show", {"character": "Ana"})
        assert shown.embed["title"] == "Ana"
        hurt = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "2"})
        assert not hurt.ephemeral, hurt.text
        log = bot.log_text()
        assert log.count("Skipped a malformed INTERACTION_CREATE event") == 1
        assert log.count("Skipped a malformed GUILD_ROLE_UPDATE event") == 1
