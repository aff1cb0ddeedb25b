"""Roll buttons whose message the bot had no time to keep (issue 24.16a).

The bot keeps a reply's message with roll buttons just after sending it, in a transaction
of its own; a process killed in between (``kill -9`` right after the reply) left those
buttons enabled for good, 5 of 5: nothing told the next process where they were. Now the
change notes its interaction in its own transaction, and the next start finds the reply
(the bot's message after that interaction in its channel) and keeps it: once the rolls are
no longer due, its buttons are disabled like any others.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from devkit.fake_discord import FakeDiscord
from devkit.fake_discord.replies import flatten_components
from tests.e2e.kit.commands import gm_of
from tests.e2e.kit.faults import slow_disk
from tests.reliability.support import isolated_bot, players_with_characters

NAMES = ("Ana", "Bea", "Cid", "Dan", "Eva")


def buttons_of(fake: FakeDiscord, message_id: str) -> list[dict[str, object]]:
    message = fake.message(message_id) or {}
    return [c for c in flatten_components(message.get("components")) if c.get("type") == 2]


async def test_buttons_of_replies_sent_just_before_a_kill_9_are_disabled_after_the_restart(
    tmp_path: Path,
) -> None:
    # Each commit takes 0.4 s: the five replies are out while their messages wait to be kept.
    async with isolated_bot(tmp_path, env=slow_disk(0.4)) as (fake, bot):
        guild = await fake.create_guild()
        gm = gm_of(guild)
        await players_with_characters(fake, guild, NAMES)
        replies = await asyncio.gather(
            *(
                fake.slash(guild, gm, "hurt", {"character": name, "amount": "100"}, timeout=15.0)
                for name in NAMES
            )
        )
        await bot.kill9()  # right after the replies
        messages = [reply.message_id for reply in replies]
        assert all(reply.custom_ids for reply in replies), [r.text for r in replies]
        await bot.start()
        for name in NAMES:  # every roll no longer due: every button to disable
            healed = await fake.slash(
                guild, gm, "character set", {"character": name, "health": 99}, timeout=15.0
            )
            assert not healed.ephemeral, healed.text

        def enabled() -> list[str]:
            return [
                str(m) for m in messages if any(not b.get("disabled") for b in buttons_of(fake, m))
            ]

        try:
            await fake.wait_until(lambda: not enabled(), 15.0, what="every roll button disabled")
        finally:
            print(f"\nkill -9 after 5 roll-button replies: {len(enabled())} of 5 left enabled")
