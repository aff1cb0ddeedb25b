"""A process frozen in the middle of a burst (``kill -STOP``: a VM's stolen time, swap, a long
GC pause look the same) must store nothing it cannot answer (issue 24 point 13).

While the bot is stopped, Discord's clock runs on and the interactions wait in its socket;
when it resumes it reads them all at once. Counted from when the bot read them they looked
fresh, and 60 of 80 changes were stored whose replies Discord then refused (10062). Counted
from Discord's own timestamp (the snowflake), corrected by the clock offset learnt from
recent interactions, a change is stored only when its reply (or a deferral) can still arrive.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from devkit.fake_discord import Reply
from tests.e2e.kit import shifted_clock
from tests.reliability.support import (
    burst,
    hurts_in_turn,
    integrity,
    interaction_ids,
    isolated_bot,
    players_with_characters,
)

NAMES = ("Ana", "Bea", "Cid")
BURST = 80
#: Answered before the freeze; the other 70 come while the process is stopped.
BEFORE = 10
FREEZE_SECONDS = 5.0


def _answered(reply: Reply) -> bool:
    """The player read the change: a public reply with its embed (at once or after a
    deferral)."""
    return reply.is_complete() and not reply.ephemeral and bool(reply.embeds)


async def _freeze_mid_burst(tmp_path: Path, env: dict[str, str] | None = None) -> None:
    async with isolated_bot(tmp_path, name="frozen", env=env) as (fake, bot):
        guild = await fake.create_guild()
        owners = await players_with_characters(fake, guild, NAMES)
        calls = hurts_in_turn(owners, NAMES, BURST)
        replies = await burst(fake, guild, calls[:BEFORE])
        await fake.wait_until(
            lambda: all(r.is_complete() for r in replies), 20, what="the replies before"
        )
        assert bot.process is not None
        bot.process.send_signal(signal.SIGSTOP)
        try:
            # The rest of the burst comes during the freeze and waits in the bot's socket.
            rest = calls[BEFORE:]
            pause = FREEZE_SECONDS / len(rest)
            for call in rest:
                replies += await burst(fake, guild, [call])
                await asyncio.sleep(pause)
        finally:
            bot.process.send_signal(signal.SIGCONT)
        # Every interaction is settled once Discord would no longer take its first answer.
        await asyncio.sleep(4.0)
        await fake.wait_until(
            lambda: all(r.is_complete() or r.record.callback_type is None for r in replies),
            20,
            what="the deferred replies",
        )
        await asyncio.sleep(0.5)

        assert integrity(bot.database_path) == ["ok"]
        ids = interaction_ids(bot.database_path)
        assert len(ids) == len(set(ids)), "an interaction was stored twice"
        stored = set(ids) & {int(r.record.id) for r in replies}
        unanswered = [
            r.record.summary() for r in replies if int(r.record.id) in stored and not _answered(r)
        ]
        assert not unanswered, (
            f"{len(unanswered)} of {len(stored)} stored changes were never answered:\n"
            + "\n".join(unanswered[:5])
        )
        assert len(stored) >= 10, "the changes answered before the freeze are stored"
        answered = [r for r in replies if _answered(r)]
        assert all(int(r.record.id) in stored for r in answered), "a change answered, not stored"
        # The bot still serves: a command after the freeze is answered and stored.
        after = await fake.slash(guild, owners["Ana"], "hurt", {"character": "Ana", "amount": "1"})
        assert _answered(after), after.record.summary()
        assert int(after.record.id) in set(interaction_ids(bot.database_path))
        assert bot.new_tracebacks() == [], bot.log_tail()


async def test_a_frozen_process_stores_nothing_it_cannot_answer(tmp_path: Path) -> None:
    """SIGSTOP for 5 s while 70 /hurt come: 0 stored without their reply."""
    await _freeze_mid_burst(tmp_path)


async def test_a_frozen_process_with_a_clock_ahead_stores_nothing_unanswered(
    tmp_path: Path,
) -> None:
    """The same with the bot's wall clock 10 s ahead of Discord's: the offset is learnt, so
    the snowflakes still tell the freeze apart from the skew."""
    await _freeze_mid_burst(tmp_path, shifted_clock(10.0))
