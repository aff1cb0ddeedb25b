"""Background work bounded under load (issue 19.4): the tasks the bot keeps alive do not grow
with the commands it answers, and neither does its memory.

What grew before: a task per change for the roll buttons' sweep, all waiting on one lock
(1,304 alive at once over 12,000 commands), and a 15-minute timeout task per private
confirmation (``/character delete``, ``/undo``), each with its view. Now a server has at most
one sweep waiting, run by the pacer's few workers, and persistent buttons are sent in views
that discord.py keeps nowhere (an ephemeral message's view got a 15-minute timeout task).

The bot counts its own tasks (``devkit.task_probe``, through sitecustomize); the heavy
variant (20,000 commands, ``make stress``) also reads its resident memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from devkit.fake_discord import FakeDiscord, Reply
from devkit.fake_discord.replies import flatten_components
from devkit.task_probe import probe_env
from tests.reliability.background import Table, kinds_above, probe_of, side_by_side
from tests.reliability.support import isolated_bot

#: discord.py's timeout task of a view (``BaseView.__timeout_task_impl``).
VIEW_TIMEOUT = "BaseView.__timeout_task_impl"


async def test_private_confirmations_keep_no_view_or_timeout_task(tmp_path: Path) -> None:
    probe_file = tmp_path / "tasks.json"
    async with isolated_bot(tmp_path, env=probe_env(probe_file)) as (fake, bot):
        probe = probe_of(bot, probe_file)
        table = await Table.open(fake, tracker=False)
        asked: list[Reply] = []
        for turn in range(40):
            name = table.names[turn % len(table.names)]
            asked.append(await table.run("character delete", {"character": name}))
            assert len(asked[-1].custom_ids) == 2, asked[-1].text
            preview = await table.run("undo")
            assert preview.ephemeral and preview.custom_ids, preview.text
        counts = await probe.report()
        assert counts.live_by_name.get(VIEW_TIMEOUT, 0) == 0, counts.live_by_name
        assert counts.max_by_name.get(VIEW_TIMEOUT, 0) == 0, counts.max_by_name
        # The buttons still answer: the confirmation asked first is cancelled last.
        cancelled = await fake.click(table.guild, table.gm, asked[0], asked[0].custom_ids[1])
        assert cancelled.type == 7 and cancelled.buttons == [], cancelled


async def test_a_servers_sweeps_wait_as_one_and_no_kind_of_task_outgrows_the_commands(
    tmp_path: Path,
) -> None:
    """Eight servers, each wounding and healing its characters as fast as the bot answers
    (eight commands in flight), while Discord takes 50 ms to answer each background
    request: the sweeps that disable old buttons cannot keep up one change at a time."""
    probe_file = tmp_path / "tasks.json"
    async with isolated_bot(tmp_path, env=probe_env(probe_file), rest_latency=0.05) as (
        fake,
        bot,
    ):
        probe = probe_of(bot, probe_file)
        tables = [await Table.open(fake, tracker=True) for _ in range(8)]
        await probe.report()  # what starting and the set-up took is not counted

        async def step(table: Table, turn: int) -> None:
            await table.wound_and_heal(table.names[turn % len(table.names)])

        await side_by_side(tables, 7, step)
        counts = await probe.report()
        in_flight = len(tables)
        # A command's task outlives its reply a little (it keeps the message whose buttons
        # it posted): about three per server at most; a background kind bounded by the
        # servers shows at most one per server.
        assert kinds_above(counts, 5 * in_flight) == {}, counts.max_by_name
        assert counts.max_since_report <= 12 * in_flight, counts
        # Every change was swept: each hurt message shows its buttons disabled.
        await fake.wait_until(
            lambda: all(
                all(b.get("disabled") for b in reply_buttons(fake, message_id))
                for message_id in hurt_messages(fake, tables)
            ),
            15.0,
            what="every roll button disabled",
        )


def hurt_messages(fake: FakeDiscord, tables: list[Table]) -> list[str]:
    """The messages of every ``/hurt`` the tables made."""
    guild_ids = {table.guild.id for table in tables}
    return [
        record.original_id
        for record in fake.interactions.values()
        if record.label == "/hurt"
        and record.original_id is not None
        and record.payload.get("guild_id") in guild_ids
    ]


def reply_buttons(fake: FakeDiscord, message_id: str) -> list[dict[str, object]]:
    """The buttons a message shows now."""
    message = fake.message(message_id) or {}
    return [c for c in flatten_components(message.get("components")) if c.get("type") == 2]


@pytest.mark.stress
async def test_stress_twenty_thousand_mixed_commands_bounded_tasks_and_memory(
    tmp_path: Path,
) -> None:
    """20,000 commands and presses in 20 servers (20 in flight), each with a live tracker:
    the most tasks alive at once stays the same in the second 10,000 as in the first, and
    the resident memory grows by at most 2 MB from 10,000 to 20,000."""
    probe_file = tmp_path / "tasks.json"
    async with isolated_bot(tmp_path, env=probe_env(probe_file)) as (fake, bot):
        await bot.allow_random_dice()  # 20,000 presses: no script of them all
        probe = probe_of(bot, probe_file)
        tables = [await Table.open(fake, tracker=True) for _ in range(20)]
        await probe.report()
        rounds = 10_000 // (11 * len(tables)) + 1

        async def step(table: Table, turn: int) -> None:
            await table.mixed_round(table.names[turn % len(table.names)])

        await side_by_side(tables, rounds, step)
        first = await probe.report()
        rss_at_10k = probe.rss_kib()
        await side_by_side(tables, rounds, step)
        second = await probe.report()
        rss_at_20k = probe.rss_kib()
        commands = sum(table.commands for table in tables)
        print(
            f"\n{commands} commands: most tasks alive {first.max_since_report} (first half),"
            f" {second.max_since_report} (second half); RSS {rss_at_10k} KiB at the middle,"
            f" {rss_at_20k} KiB at the end (+{rss_at_20k - rss_at_10k} KiB)"
        )
        assert commands >= 20_000
        assert kinds_above(second, 5 * len(tables)) == {}, second.max_by_name
        assert second.max_since_report <= max(first.max_since_report, 12 * len(tables))
        assert rss_at_20k - rss_at_10k <= 2048, (rss_at_10k, rss_at_20k)
