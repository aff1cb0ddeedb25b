"""Interactions that reach the bot late (2.3 s after the click, of Discord's 3 s).

The bot acknowledges a late change just before committing it, after the rules have run: so a
refusal still answers privately, and a change still gets its (deferred) public reply.
"""

from __future__ import annotations

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import interactions_created_late, roll_shown


async def test_H5_a_late_refusal_is_still_private(
    fake: FakeDiscord, guild: FakeGuild, monkeypatch: pytest.MonkeyPatch
) -> None:
    gm = guild.owner
    await fake.slash(guild, gm, "character create", {"name": "Zed", "health": 5})
    await fake.slash(guild, gm, "character create", {"name": "Doc", "health": 5, "first_aid": 2})
    await fake.slash(guild, gm, "hurt", {"character": "Zed", "amount": "20"})
    with interactions_created_late(monkeypatch):
        for command, options in [
            ("hurt", {"character": "Zed", "amount": "1"}),
            ("rest", {"character": "Zed", "days": 1}),
            ("firstaid", {"medic": "Doc", "patient": "Zed", "points": 1}),
            ("conscious", {"character": "Zed"}),
        ]:
            reply = await fake.slash(guild, gm, command, options)
            assert reply.ephemeral, command
            assert "**Zed** has died" in reply.text, command


async def test_D1_a_late_change_is_deferred_applied_once_and_answered_publicly(
    fake: FakeDiscord, guild: FakeGuild, monkeypatch: pytest.MonkeyPatch
) -> None:
    gm = guild.owner
    await fake.slash(guild, gm, "character create", {"name": "Ana", "health": 9})
    with interactions_created_late(monkeypatch):
        reply = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "4"})
    assert reply.deferred and not reply.ephemeral
    assert reply.embed["fields"][0]["value"].startswith("9 → 5 / 9")
    shown = await fake.slash(guild, gm, "character show", {"character": "Ana"})
    assert shown.embed["fields"][0]["value"].startswith("5 / 9")


async def test_C1_a_late_press_of_the_roll_button_rolls_once_and_answers(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, monkeypatch: pytest.MonkeyPatch
) -> None:
    gm = guild.owner
    await fake.slash(guild, gm, "character create", {"name": "Bea", "health": 9})
    hurt = await fake.slash(guild, gm, "hurt", {"character": "Bea", "amount": "10"})
    await bot.script_dice(5)  # one die: the refused second press must roll none
    with interactions_created_late(monkeypatch):
        rolled = await fake.click(guild, gm, hurt, hurt.buttons[0]["custom_id"])
        again = await fake.click(guild, gm, hurt, hurt.buttons[0]["custom_id"])
    assert rolled.deferred
    embeds = [e for m in (rolled.message, *rolled.followups) if m for e in m.get("embeds") or []]
    rolls = [e for e in embeds if any(f["name"] == "Consciousness roll" for f in e["fields"])]
    assert len(rolls) == 1, embeds
    roll = roll_shown(rolls[0], die=5)
    assert (roll.total, roll.difficulty, roll.success) == (5, 1, True)
    assert again.ephemeral, "the roll was made: the old button is refused"


async def test_a_late_press_of_delete_still_edits_the_confirmation(
    fake: FakeDiscord, guild: FakeGuild, monkeypatch: pytest.MonkeyPatch
) -> None:
    gm = guild.owner
    await fake.slash(guild, gm, "character create", {"name": "Cid", "health": 9})
    asked = await fake.slash(guild, gm, "character delete", {"character": "Cid"})
    yes = next(b["custom_id"] for b in asked.buttons if b["custom_id"].endswith(":yes"))
    with interactions_created_late(monkeypatch):
        done = await fake.click(guild, gm, asked, yes)
    assert done.message is not None and "Cid" in done.message["content"]
    assert done.components == [], "the buttons are gone"
    listed = await fake.slash(guild, gm, "character list")
    assert "Cid" not in listed.text
