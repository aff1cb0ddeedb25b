"""Helpers of the tests of the bot's background work (issue 19): tables of players that
keep a server busy, each server's commands one after another and the servers side by side,
and the bot's task counts and memory (``devkit.task_probe``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from devkit.task_probe import TaskCounts, TaskProbe
from tests.e2e.kit.commands import create, gm_of

#: A reply's wait: long enough for a bot that is busy with every other server too.
REPLY_TIMEOUT = 30.0


def probe_of(bot: BotProcess, path: Path) -> TaskProbe:
    """The task probe of ``bot`` (started with ``devkit.task_probe.probe_env(path)``)."""
    assert bot.pid is not None
    return TaskProbe(bot.pid, path)


@dataclass
class Table:
    """One server where a GM plays three characters of 9 Health, with a live tracker."""

    fake: FakeDiscord
    guild: FakeGuild
    gm: FakeMember
    names: tuple[str, ...]
    tracker_id: str | None = None
    commands: int = 0

    @classmethod
    async def open(
        cls, fake: FakeDiscord, names: tuple[str, ...] = ("Ana", "Bea", "Cruz"), *, tracker: bool
    ) -> Table:
        guild = await fake.create_guild()
        gm = gm_of(guild)
        for name in names:
            await create(fake, guild, gm, name, 9)
        table = cls(fake, guild, gm, names)
        if tracker:
            posted = await fake.slash(guild, gm, "scene tracker")
            assert posted.message_id is not None and not posted.ephemeral, posted.text
            table.tracker_id = posted.message_id
        return table

    async def run(self, command: str, options: dict[str, Any] | None = None) -> Reply:
        """One command, waited for."""
        reply = await self.fake.slash(
            self.guild, self.gm, command, options or {}, timeout=REPLY_TIMEOUT
        )
        self.commands += 1
        return reply

    async def press(self, message: Reply, custom_id: str) -> Reply:
        """One button press, waited for (and the reply it posts, if any)."""
        reply = await self.fake.click(
            self.guild, self.gm, message, custom_id, timeout=REPLY_TIMEOUT
        )
        self.commands += 1
        return await reply.answer(REPLY_TIMEOUT)

    async def wound_and_heal(self, name: str) -> None:
        """``/hurt`` to -1 (a Consciousness roll falls due: its buttons are posted), then a
        GM's correction back to 9 (the roll is no longer due: the buttons must be disabled)."""
        hurt = await self.run("hurt", {"character": name, "amount": "10"})
        assert not hurt.ephemeral and hurt.custom_ids, hurt.text
        healed = await self.run("character set", {"character": name, "health": 9})
        assert not healed.ephemeral, healed.text

    async def mixed_round(self, name: str) -> None:
        """Ten commands and a press, as a table in session: a wound whose roll is made with
        its button, a correction, looks (show, status, history), a rest, and two private
        confirmations left unanswered (delete, and undo's private preview)."""
        hurt = await self.run("hurt", {"character": name, "amount": "10"})
        assert not hurt.ephemeral and hurt.custom_ids, hurt.text
        rolled = await self.press(hurt, hurt.custom_ids[0])
        assert not rolled.ephemeral, rolled.text
        await self.run("character set", {"character": name, "health": 9})
        await self.run("character show", {"character": name})
        await self.run("scene status")
        await self.run("history", {"character": name})
        await self.run("rest", {"character": name, "days": 1})
        await self.run("hurt", {"character": name, "amount": "1"})
        asked = await self.run("character delete", {"character": name})
        assert asked.custom_ids, asked.text
        preview = await self.run("undo")
        assert preview.ephemeral, preview.text
        await self.run("character set", {"character": name, "health": 9})


async def side_by_side(tables: list[Table], turns: int, step: Callable[[Table, int], Any]) -> None:
    """``step(table, turn)`` for each turn, each table's turns one after another and the
    tables side by side (as many commands in flight as tables)."""

    async def play(table: Table) -> None:
        for turn in range(turns):
            await step(table, turn)

    await asyncio.gather(*(play(table) for table in tables))


def kinds_above(counts: TaskCounts, bound: int) -> dict[str, int]:
    """The kinds of task (by coroutine) of which more than ``bound`` were alive at once."""
    return {name: most for name, most in counts.max_by_name.items() if most > bound}
