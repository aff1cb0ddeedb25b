"""Interactions answered late: a bot whose every commit takes 2.1 s (a slow disk, from the
devkit), past the 2 s after its receipt by which the bot acknowledges an interaction it has
not answered yet.

The bot acknowledges a change before committing it when the commit may end too late (the
latest commits took that long), and while a commit runs past the deadline; after the rules
have run, so that a refusal still answers privately and a change gets its (deferred) public
reply, applied once. The interaction's age is counted from its receipt (COMMANDS.md Busy
servers; issue 19 point 3).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devkit.fake_discord import FakeDiscord
from devkit.harness import BotProcess
from tests.e2e.kit import create, roll_shown, slow_disk
from tests.e2e.kit.db import stored
from tests.e2e.kit.processes import fake_with_bot

Pair = tuple[FakeDiscord, BotProcess]


@pytest_asyncio.fixture(scope="module")
async def slow(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pair]:
    tmp = tmp_path_factory.mktemp("slow-disk")
    async with fake_with_bot(tmp, name="slow", token="slow-token", env=slow_disk()) as pair:
        yield pair


async def test_H5_a_late_refusal_is_still_private(slow: Pair) -> None:
    fake, _ = slow
    guild = await fake.create_guild(locale="en-US")
    gm = guild.owner
    await create(fake, guild, gm, "Zed", 5)
    await fake.slash(guild, gm, "character create", {"name": "Doc", "health": 5, "first_aid": 2})
    await fake.slash(guild, gm, "hurt", {"character": "Zed", "amount": "20"})
    for command, options in [
        ("hurt", {"character": "Zed", "amount": "1"}),
        ("rest", {"character": "Zed", "days": 1}),
        ("firstaid", {"medic": "Doc", "patient": "Zed", "points": 1}),
        ("conscious", {"character": "Zed"}),
    ]:
        reply = await fake.slash(guild, gm, command, options)
        assert reply.ephemeral and not reply.deferred, command
        assert "**Zed** has died" in reply.text, command


async def test_D1_a_late_change_is_deferred_applied_once_and_answered_publicly(
    slow: Pair,
) -> None:
    fake, bot = slow
    guild = await fake.create_guild(locale="en-US")
    gm = guild.owner
    created = await fake.slash(guild, gm, "character create", {"name": "Ana", "health": 9})
    # The first commit ran past the deadline: acknowledged while it ran.
    assert created.deferred and not created.ephemeral and "Ana" in created.text
    reply = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "4"})
    assert reply.deferred and not reply.ephemeral
    assert reply.record.errors == []
    assert reply.embed["fields"][0]["value"].startswith("9 → 5 / 9")
    assert stored(bot.database_path, guild, "Ana")["health"] == 5
    shown = await fake.slash(guild, gm, "character show", {"character": "Ana"})
    assert shown.embed["fields"][0]["value"].startswith("5 / 9")


async def test_C1_a_late_press_of_the_roll_button_rolls_once_and_answers(slow: Pair) -> None:
    fake, bot = slow
    guild = await fake.create_guild(locale="en-US")
    gm = guild.owner
    await create(fake, guild, gm, "Bea", 9)
    hurt = await fake.slash(guild, gm, "hurt", {"character": "Bea", "amount": "10"})
    await bot.script_dice(5)  # one die: the refused second press must roll none
    rolled = await fake.click(guild, gm, hurt, hurt.buttons[0]["custom_id"])
    again = await fake.click(guild, gm, hurt, hurt.buttons[0]["custom_id"])
    assert rolled.deferred and rolled.record.errors == []
    embeds = [e for m in (rolled.message, *rolled.followups) if m for e in m.get("embeds") or []]
    rolls = [e for e in embeds if any(f["name"] == "Consciousness roll" for f in e["fields"])]
    assert len(rolls) == 1, embeds
    roll = roll_shown(rolls[0], die=5)
    assert (roll.total, roll.difficulty, roll.success) == (5, 1, True)
    assert again.ephemeral, "the roll was made: the old button is refused"
    assert not stored(bot.database_path, guild, "Bea")["roll_pending"]


async def test_a_late_press_of_delete_still_edits_the_confirmation(slow: Pair) -> None:
    fake, _ = slow
    guild = await fake.create_guild(locale="en-US")
    gm = guild.owner
    await create(fake, guild, gm, "Cid", 9)
    asked = await fake.slash(guild, gm, "character delete", {"character": "Cid"})
    yes = next(b["custom_id"] for b in asked.buttons if b["custom_id"].endswith(":yes"))
    done = await fake.click(guild, gm, asked, yes)
    await done.wait_edit(1)
    assert done.deferred and done.record.errors == []
    assert "deleted **Cid**" in done.followups[0]["content"], "said publicly"
    assert done.message is not None and "Cid" in done.message["content"]
    assert done.components == [], "the buttons are gone"
    listed = await fake.slash(guild, gm, "character list")
    assert "Cid" not in listed.text


async def test_a_late_setting_is_deferred_privately_and_stays_private(slow: Pair) -> None:
    """A command whose reply is private (the GM's settings, a new table, /undo's question)
    is acknowledged as privately as it will answer: its commit ran past the deadline, and
    the channel never sees a "thinking…" nor the reply that fills it."""
    fake, _ = slow
    guild = await fake.create_guild(locale="en-US")
    gm = guild.owner
    await create(fake, guild, gm, "Dan", 9)
    await fake.slash(guild, gm, "hurt", {"character": "Dan", "amount": "1"})
    deferred: bool | None
    for command, options, said, deferred in [
        ("config channel", {"channel": guild.announcements}, "Announcement channel set", True),
        ("config language", {"language": "es"}, "Spanish", True),
        ("table create", {"name": "Misk", "place": guild.category("Spare")}, "Misk", None),
        ("undo", {}, "Dan", False),  # a read: answered at once, privately
    ]:
        reply = await fake.slash(guild, gm, command, options)
        assert reply.record.errors == [], command
        if deferred is not None:  # a new table's commit may end in time: either way
            assert reply.deferred is deferred, reply.record.summary()
        assert reply.ephemeral, f"/{command} answered in the channel: {reply.record.summary()}"
        assert said in reply.text, (command, reply.text)
        assert reply.followups == [], f"/{command}: one private answer, nothing after it"


def test_the_slow_disk_is_the_devkits_not_a_setting() -> None:
    """The fault comes from devkit/sitecustomize, which production never loads."""
    root = Path(__file__).resolve().parents[2]
    for path in (root / "bot").rglob("*.py"):
        assert "SALUD_DEVKIT" not in path.read_text(encoding="utf-8"), path
