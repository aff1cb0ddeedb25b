"""Many commands at once on the same characters: every one is applied exactly once, in some
order, each starting from the state the previous one left (no lost update), and the rules
still hold at the end (a dead character takes no more damage, H5).

The fake's 3-second limit for a first answer is lifted to 20 s here: on a 2-core machine
shared with other test runs, 200 commands queued behind one database may take longer than
Discord allows, and what these tests judge is the stored result, not the speed (that is
``make bench``'s job).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from devkit.fake_discord import Reply
from tests.e2e.kit import create
from tests.e2e.kit.db import stored as character_row
from tests.reliability.support import (
    BUSY,
    UNEXPECTED,
    assert_chain,
    burst,
    entries_of,
    interaction_ids,
    is_refusal,
    isolated_bot,
    said,
    wait_all,
)

DEATH_AT = -12


async def test_200_concurrent_hurts_on_one_character_stop_exactly_at_death(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path, interaction_deadline=20.0) as (fake, bot):
        guild = await fake.create_guild()
        ana = guild.member("Ana")
        await create(fake, guild, ana, "Ana", 99)
        replies: list[Reply] = []
        pending = 200
        for _ in range(10):  # as players would, try again what was refused as busy
            sent = await burst(
                fake, guild, [(ana, "hurt", {"character": "Ana", "amount": "1"})] * pending
            )
            await wait_all(fake, sent, timeout=60)
            busy = [r for r in sent if is_refusal(r) and BUSY in said(r)]
            assert not [r for r in busy if int(r.record.id) in interaction_ids(bot.database_path)]
            replies += [r for r in sent if r not in busy]
            pending = len(busy)
            if not pending:
                break
        assert len(replies) == 200

        applied = [r for r in replies if not is_refusal(r)]
        refused = [r for r in replies if is_refusal(r)]
        # 99 → -12 is 111 points of 1: the 111th hit kills, every later one is refused (H5).
        assert len(applied) == 99 - DEATH_AT, [said(r) for r in refused[:3]]
        assert len(refused) == 200 - len(applied)
        assert all("**Ana** has died" in said(r) for r in refused), said(refused[0])
        assert not [r.text for r in replies if UNEXPECTED in r.text]
        row = character_row(bot.database_path, guild, "Ana")
        assert row["health"] == DEATH_AT
        hurts = [e for e in entries_of(bot.database_path, row["id"]) if e.command == "hurt"]
        assert len(hurts) == len(applied)
        assert {e.interaction_id for e in hurts} == {int(r.record.id) for r in applied}
        assert_chain(entries_of(bot.database_path, row["id"]), row)
        ids = interaction_ids(bot.database_path)
        assert len(ids) == len(set(ids)), "an interaction was recorded twice"


async def _dice_on_two(tmp_path: Path, count: int) -> None:
    """``count`` /hurt with dice, interleaved with /conscious and /character set on two
    characters: the damage recorded for each adds up to its Health drop."""
    async with isolated_bot(tmp_path, interaction_deadline=20.0) as (fake, bot):
        guild = await fake.create_guild()
        ana, bea = guild.member("Ana"), guild.member("Bea")
        gm = guild.owner
        await create(fake, guild, ana, "Ana", 99)
        await create(fake, guild, bea, "Bea", 99)
        # Real dice: what this judges holds whatever they roll (no update lost, each drop the
        # damage recorded), and how many the bot rolls depends on the order it serves the
        # burst in (a /hurt of a character already dead still rolls), so none is scripted.
        await bot.allow_random_dice()
        rng = random.Random(count)
        calls = []
        for number in range(count):
            name, owner = rng.choice([("Ana", ana), ("Bea", bea)])
            if number % 25 == 24:  # a GM's correction in the middle of the storm
                calls.append((gm, "character set", {"character": name, "health": 40}))
            elif number % 10 == 9:
                calls.append((owner, "conscious", {"character": name}))
            else:
                amount = rng.choice(["1d6", "2d6-1", "3", "1d4+1"])
                calls.append((owner, "hurt", {"character": name, "amount": amount}))
        replies = await burst(fake, guild, calls)
        await wait_all(fake, replies, timeout=90)

        assert not [r.text for r in replies if UNEXPECTED in r.text]
        by_id = {int(r.record.id): r for r in replies}
        for name in ("Ana", "Bea"):
            row = character_row(bot.database_path, guild, name)
            entries = entries_of(bot.database_path, row["id"])
            assert_chain(entries, row)
            for entry in entries:
                if entry.command == "character create":
                    continue
                reply = by_id[entry.interaction_id]
                assert not is_refusal(reply), f"recorded but refused: {said(reply)!r}"
                if entry.command == "hurt":
                    assert entry.before is not None and entry.after is not None
                    drop = entry.before["health"]["health"] - entry.after["health"]["health"]
                    assert drop == entry.details["dealt"], entry
        recorded = set(interaction_ids(bot.database_path))
        for reply in replies:
            if reply.interaction["data"]["name"] == "hurt" and not is_refusal(reply):
                assert int(reply.record.id) in recorded, f"answered but not recorded: {reply}"


async def test_concurrent_dice_conscious_and_corrections_on_two_characters_lose_nothing(
    tmp_path: Path,
) -> None:
    await _dice_on_two(tmp_path, 150)


@pytest.mark.stress
async def test_stress_800_mixed_commands_on_two_characters_lose_nothing(tmp_path: Path) -> None:
    await _dice_on_two(tmp_path, 800)


async def _overload(tmp_path: Path, count: int) -> None:
    """More commands at once than the bot can answer within Discord's 3 seconds."""
    async with isolated_bot(tmp_path) as (fake, bot):  # Discord's real 3-second limit
        guild = await fake.create_guild()
        owners = [guild.member(f"Player {number}") for number in range(10)]
        for number, owner in enumerate(owners):
            await create(fake, guild, owner, f"C{number}", 99)
        calls = [
            (owners[n % 10], "hurt", {"character": f"C{n % 10}", "amount": "1"})
            for n in range(count)
        ]
        replies = await burst(fake, guild, calls)
        loop = asyncio.get_running_loop()
        expired = fake.interaction_deadline + 1.0

        def over(reply: Reply) -> bool:
            """Answered; or refused by the fake for coming after 3 s; or never acknowledged
            when even a refusal could no longer arrive (the bot drops those unanswered)."""
            record = reply.record
            if reply.is_complete() or record.errors:
                return True
            return record.callback_type is None and loop.time() - record.created > expired

        # Expiry comes with time, not with a request the fake would be woken by: looked at
        # every 0.2 s.
        give_up = loop.time() + 90
        while not all(over(r) for r in replies):
            left = [r.record.summary() for r in replies if not over(r)]
            assert loop.time() < give_up, f"{len(left)} commands not over after 90 s: {left[:3]}"
            await asyncio.sleep(0.2)
        await bot.settled(*replies, timeout=30.0)  # and whatever the bot still did for them
        assert bot.running
        ours = {int(r.record.id) for r in replies}
        stored = set(interaction_ids(bot.database_path)) & ours
        answered = {int(r.record.id) for r in replies if r.is_complete() and not is_refusal(r)}
        assert stored == answered, (
            f"{len(stored - answered)} changes stored without their reply reaching Discord;"
            f" {len(answered - stored)} answered but not stored"
        )
        # What cannot be answered in time is refused, privately, as "busy" (COMMANDS.md).
        assert not [said(r) for r in replies if is_refusal(r) and BUSY not in said(r)]
        for number in range(10):
            row = character_row(bot.database_path, guild, f"C{number}")
            assert_chain(entries_of(bot.database_path, row["id"]), row)


async def test_overloaded_no_change_is_stored_without_its_reply(tmp_path: Path) -> None:
    """A player whose command goes unanswered retries it: it must not have been applied."""
    await _overload(tmp_path, 600)


@pytest.mark.stress
async def test_stress_heavily_overloaded_no_change_is_stored_without_its_reply(
    tmp_path: Path,
) -> None:
    await _overload(tmp_path, 2000)
