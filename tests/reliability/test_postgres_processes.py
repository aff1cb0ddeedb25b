"""Two real bot processes on one PostgreSQL database (issue 26 point 4; COMMANDS.md, *Several
machines*): ``SHARD_COUNT=2``, each process its own ``SHARD_IDS``, against one fake Discord.

- Started together on an empty database: the schema is migrated once and the commands are
  synced once (one PUT), and commands on both shards' servers are served.
- An interaction delivered to both processes (two sessions of one shard: a takeover started
  before the old process died) is applied once and answered once.
- ``kill -9`` of a process with a Consciousness roll due, its buttons pending (some replies'
  messages not kept yet) and a live tracker; then that process restarted, or the other one
  restarted with both shards (``SHARD_IDS=0,1``): the due roll's buttons still work, a change
  updates the tracker, and the buttons of rolls no longer due are disabled.
- A rolling upgrade: a process of an older Salud stops at its next change (exit 2, storing
  nothing) once a newer one, starting on the other shard, migrated the schema.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from bot.discord_rest.pacer import RATE
from bot.storage.postgres.schema import latest_version
from devkit.fake_discord import FakeDiscord, FakeGuild, Reply, message_text
from devkit.fake_discord.replies import flatten_components
from devkit.harness import BotProcess
from devkit.postgres import PostgresServer
from devkit.slow_proxy import SlowProxy
from tests.e2e.kit.commands import create, gm_of
from tests.e2e.kit.shards import guild_on
from tests.reliability.support import (
    NEWER,
    RESTARTING,
    new_postgres_database,
    newer_salud,
    on_postgres,
    said,
    salud_command,
)

#: The buttons of a reply whose Consciousness roll falls due (a Spanish server).
ROLL_BUTTONS = ["Tirar Consciencia", "Gastar 1 de Salud", "Gastar 2 de Salud", "Gastar 3 de Salud"]


def shard_process(
    fake: FakeDiscord,
    tmp: Path,
    name: str,
    url: str,
    shard_ids: str,
    code: Path | None = None,
) -> BotProcess:
    """A Salud process running ``shard_ids`` of 2 on ``url`` (``code``: where its ``bot/``
    package is, when not this tree's)."""
    return BotProcess(
        fake,
        command=salud_command(code),
        database_path=tmp / "unused.sqlite3",
        log_path=tmp / f"{name}.log",
        extra_env={**on_postgres(url), "SHARD_COUNT": "2", "SHARD_IDS": shard_ids},
        shards=len(shard_ids.split(",")),
        probe=True,
    )


async def ready(process: BotProcess, shard_ids: str) -> None:
    await process.wait_for_log(f"shards {shard_ids} of 2", 30)


@asynccontextmanager
async def own_fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(app_name="Salud")
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def stopped(*processes: BotProcess) -> None:
    for process in processes:
        await process.stop()
        assert process.new_tracebacks() == [], process.log_tail()


async def history_of(url: str) -> list[tuple[int, int, str]]:
    """(server, number, command) of every history entry, in order."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute("SELECT guild_id, number, command FROM history ORDER BY id")
        return [(int(row[0]), int(row[1]), str(row[2])) for row in await cursor.fetchall()]


async def unkept_replies(url: str) -> int:
    """Replies with roll buttons whose message the bot has not kept yet."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute("SELECT count(*) FROM unkept_roll_replies")
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


def public(reply: Reply, *shown: str) -> None:
    assert reply.record.errors == [], reply.record.summary()
    assert not reply.ephemeral and reply.embeds, reply.record.summary()
    for text in shown:
        assert text in reply.text, (text, reply.text)


def enabled_buttons(fake: FakeDiscord, message_id: str) -> list[str]:
    message = fake.message(message_id) or {}
    return [
        str(c.get("label"))
        for c in flatten_components(message.get("components"))
        if c.get("type") == 2 and not c.get("disabled")
    ]


async def test_started_together_the_schema_is_migrated_and_the_commands_synced_once(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url = await new_postgres_database(postgres_server)
    async with own_fake() as fake:
        zero, one = await guild_on(fake, 0, 2), await guild_on(fake, 1, 2)
        first = shard_process(fake, tmp_path, "shard0", url, "0")
        second = shard_process(fake, tmp_path, "shard1", url, "1")
        try:
            await asyncio.gather(first.start(), second.start())
            await asyncio.gather(ready(first, "0"), ready(second, "1"))
            logs = first.log_text() + second.log_text()
            assert len(fake.command_puts) == 1, logs
            assert logs.count("Synced 17 commands") == 1, logs
            assert logs.count("Commands unchanged since the last sync") == 1, logs
            assert logs.count(f"schema from version 0 to {latest_version()}") == 1, logs
            for guild, name in ((zero, "Ana"), (one, "Bea")):
                await create(fake, guild, gm_of(guild), name, 9)
                hurt = await fake.slash(
                    guild, gm_of(guild), "hurt", {"character": name, "amount": "2"}
                )
                public(hurt, "9 → 7 / 9")
            assert await history_of(url) == [
                (int(zero.id), 1, "character create"),
                (int(zero.id), 2, "hurt"),
                (int(one.id), 1, "character create"),
                (int(one.id), 2, "hurt"),
            ]
        finally:
            await stopped(first, second)


async def test_an_interaction_delivered_to_two_processes_is_applied_and_answered_once(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url = await new_postgres_database(postgres_server)
    async with own_fake() as fake:
        fake.twin_sessions = True  # a second IDENTIFY of shard 0 keeps the first connected
        zero = await guild_on(fake, 0, 2)
        old = shard_process(fake, tmp_path, "old", url, "0")
        new = shard_process(fake, tmp_path, "new", url, "0,1")
        try:
            await old.start()
            await create(fake, zero, gm_of(zero), "Ana", 99)
            await new.start()  # the takeover, started while the old process still runs
            await ready(new, "0,1")
            hurts = [
                await fake.slash(
                    zero, gm_of(zero), "hurt", {"character": "Ana", "amount": "1"}, wait="none"
                )
                for _ in range(10)
            ]
            for hurt in hurts:
                await hurt.wait_complete(15.0)
            await asyncio.sleep(1.0)  # the slower process's answer, if it sent one
            for hurt in hurts:  # one answer each: the one of the process that applied it
                public(hurt)
                assert hurt.followups == [], hurt.record.summary()
            stored = await history_of(url)
            assert [number for _, number, _ in stored] == list(range(1, 12)), stored
            shown = await fake.slash(zero, gm_of(zero), "character show", {"character": "Ana"})
            assert "89 / 99" in shown.text, shown.text
            # Both processes were sent every one of them (the old one the creation too).
            assert fake.delivered_to_twins("INTERACTION_CREATE") == [12], "no twin delivery"
            assert fake.delivered("INTERACTION_CREATE")[0] == 11

            # Both wait 3 s for the server's row: both try to defer, one of them does, and
            # the reply of the one that applies the change fills that "thinking…".
            holder = await psycopg.AsyncConnection.connect(url)
            async with holder, holder.transaction():
                await holder.execute(
                    "SELECT guild_id FROM servers WHERE guild_id = %s FOR UPDATE", (int(zero.id),)
                )
                waited = await fake.slash(
                    zero, gm_of(zero), "hurt", {"character": "Ana", "amount": "1"}, wait="none"
                )
                await asyncio.sleep(3.0)
            await waited.wait_complete(15.0)
            assert waited.deferred and "89 → 88 / 99" in waited.text, waited.record.summary()
            assert not waited.ephemeral and waited.followups == [], waited.record.summary()
            assert [number for _, number, _ in await history_of(url)] == list(range(1, 13))
        finally:
            await stopped(old, new)


NAMES = ("Ana", "Bea", "Cruz")


@pytest.mark.parametrize("after", ["restarted", "taken over"])
async def test_a_process_killed_with_a_roll_due_buttons_and_a_tracker_is_carried_on(
    tmp_path: Path, postgres_server: PostgresServer, after: str
) -> None:
    """Shard 0's process is killed right after three Consciousness rolls fell due (their
    messages still being kept: its link to the database is slowed); then it is started again
    (``restarted``), or the other process is restarted with both shards (``taken over``)."""
    url = await new_postgres_database(postgres_server)
    async with own_fake() as fake, SlowProxy(postgres_server.port) as proxy:
        zero, one = await guild_on(fake, 0, 2, locale="es-ES"), await guild_on(fake, 1, 2)
        killed = shard_process(fake, tmp_path, "shard0", proxy.url(url), "0")
        other = shard_process(fake, tmp_path, "shard1", url, "1")
        try:
            await asyncio.gather(killed.start(), other.start())
            await asyncio.gather(ready(killed, "0"), ready(other, "1"))
            gm = gm_of(zero, locale="es-ES")
            for name in NAMES:
                await create(fake, zero, gm, name, 3)
            tracker = await fake.slash(zero, gm, "scene tracker")
            assert tracker.message_id is not None and not tracker.ephemeral, tracker.text
            await create(fake, one, gm_of(one), "Dan", 9)
            proxy.delay = 0.1  # keeping each reply's message takes a while
            wounds = await asyncio.gather(
                *(
                    fake.slash(zero, gm, "hurt", {"character": name, "amount": "5"}, timeout=15)
                    for name in NAMES
                )
            )
            await killed.kill9()
            proxy.delay = 0.0
            for wound in wounds:
                assert enabled_buttons(fake, str(wound.message_id)) == ROLL_BUTTONS, wound.text
            unkept = await unkept_replies(url)
            print(f"\nkill -9 ({after}): {unkept} of 3 roll-button replies not kept yet")
            # Meanwhile the other shard's servers are served as before.
            dan = await fake.slash(one, gm_of(one), "hurt", {"character": "Dan", "amount": "1"})
            public(dan, "9 → 8 / 9")

            if after == "restarted":
                serving = killed
                await killed.start()
                await ready(killed, "0")
            else:
                serving = other
                assert await other.stop() == 0, other.log_tail()
                other.extra_env["SHARD_IDS"], other.shards = "0,1", 2
                await other.start()
                await ready(other, "0,1")

            # The due roll's buttons still work.
            await serving.script_dice(4)
            ana = wounds[0]
            pressed = await fake.click(zero, gm, ana, ana.buttons[0]["custom_id"])
            rolled = await pressed.answer()
            assert pressed.record.errors == [] and not rolled.ephemeral, rolled.text
            assert "4 vs" in rolled.text, rolled.text
            # A change (Bea's roll no longer due) updates the tracker and disables the buttons
            # of Bea's reply, which the killed process may not have kept.
            healed = await fake.slash(zero, gm, "character set", {"character": "Bea", "health": 3})
            public(healed)
            await fake.wait_until(
                lambda: "**Bea** — Salud 3 / 3" in message_text(fake.message(tracker.message_id)),
                10.0,
                what="the tracker showing Bea healed",
            )
            await fake.wait_until(
                lambda: not enabled_buttons(fake, str(wounds[1].message_id)),
                10.0,
                what="Bea's roll buttons disabled",
            )
            assert enabled_buttons(fake, str(ana.message_id)) == []
            assert enabled_buttons(fake, str(wounds[2].message_id)) == ROLL_BUTTONS  # still due
            await serving.end_dice()
        finally:
            await stopped(killed, other)


async def test_a_rolling_upgrade_stops_the_older_process_at_its_next_change(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    """Shard 0 runs this version; shard 1's process is started as a newer one, whose start
    migrates the database: shard 0's next change is answered "restarting", stores nothing,
    and the process exits 2; the newer one serves on."""
    url = await new_postgres_database(postgres_server)
    newer_code = await asyncio.to_thread(newer_salud, tmp_path)
    async with own_fake() as fake:
        zero, one = await guild_on(fake, 0, 2), await guild_on(fake, 1, 2)
        older = shard_process(fake, tmp_path, "older", url, "0")
        newer = shard_process(fake, tmp_path, "newer", url, "1", newer_code)
        try:
            await older.start()
            await create(fake, zero, gm_of(zero), "Ana", 9)
            await newer.start()
            await ready(newer, "1")
            assert f"to {NEWER}" in newer.log_text(), newer.log_tail()
            stored = await history_of(url)
            refused = await fake.slash(
                zero, gm_of(zero), "hurt", {"character": "Ana", "amount": "1"}
            )
            assert RESTARTING in said(refused) and not refused.embeds, said(refused)
            assert older.process is not None
            assert await asyncio.wait_for(older.process.wait(), 10.0) == 2, older.log_tail()
            assert "salud: a newer Salud upgraded the database" in older.log_text()
            assert await history_of(url) == stored, "the older process stored a change"
            await create(fake, one, gm_of(one), "Bea", 9)
            again = await fake.slash(one, gm_of(one), "hurt", {"character": "Bea", "amount": "2"})
            public(again, "9 → 7 / 9")
        finally:
            await stopped(older, newer)


#: Servers with a live tracker on each shard, and the changes each makes in a row.
TRACKED_PER_SHARD = 60
ROUNDS = 1


async def tracked_on(fake: FakeDiscord, shard: int) -> tuple[FakeGuild, str]:
    """A server of ``shard`` of 2 where a GM created Ana and posted a tracker."""
    guild = await guild_on(fake, shard, 2)
    await create(fake, guild, gm_of(guild), "Ana", 99)
    posted = await fake.slash(guild, gm_of(guild), "scene tracker", timeout=30.0)
    assert posted.message_id is not None and not posted.ephemeral, posted.text
    return guild, posted.message_id


@dataclass(frozen=True)
class Load:
    """What the fake saw of a burst of tracker edits: its global 429s, its busiest second
    (every process's requests), each shard's busiest second, and how long until every tracker
    showed the change."""

    refused: int
    busiest: int
    busiest_by_shard: tuple[int, int]
    current: float


async def trackers_under_load(tmp: Path, server: PostgresServer, shard_ids: list[str]) -> Load:
    """``TRACKED_PER_SHARD`` tracked servers on each of 2 shards, run by a process for each of
    ``shard_ids``; Discord answers slowly while every server changes ``ROUNDS`` times, then
    at once again: the trackers' edits all wait, then go together (a burst)."""
    url = await new_postgres_database(server)
    fake = FakeDiscord(app_name="Salud", global_rate_limit=50)
    await fake.start()
    processes = [shard_process(fake, tmp, f"shards{ids}", url, ids) for ids in shard_ids]
    try:
        await asyncio.gather(*(process.start() for process in processes))
        await asyncio.gather(*(ready(p, ids) for p, ids in zip(processes, shard_ids, strict=True)))
        on_shard: tuple[list[tuple[FakeGuild, str]], ...] = ([], [])
        for _ in range(TRACKED_PER_SHARD // 10):
            for shard in (0, 1):
                on_shard[shard].extend(
                    await asyncio.gather(*(tracked_on(fake, shard) for _ in range(10)))
                )
        servers = [*on_shard[0], *on_shard[1]]
        await asyncio.sleep(2.0)  # the trackers' first edits are done
        fake.rest_latency = 1.0
        for _ in range(ROUNDS):
            hurts = await asyncio.gather(
                *(
                    fake.slash(guild, gm_of(guild), "hurt", {"character": "Ana", "amount": "1"})
                    for guild, _ in servers
                )
            )
            assert all(not hurt.ephemeral for hurt in hurts), [h.text for h in hurts]
        fake.rest_latency = 0.0
        began = time.monotonic()
        shown = f"**Ana** — Health {99 - ROUNDS} / 99"
        await fake.wait_until(
            lambda: all(shown in message_text(fake.message(m)) for _, m in servers),
            30.0,
            what="every tracker showing the last change",
        )
        current = time.monotonic() - began

        def busiest_of(shard: int) -> int:
            messages = {message for _, message in on_shard[shard]}
            return fake.busiest_second_since(began, lambda r: r.path.rsplit("/", 1)[-1] in messages)

        return Load(
            fake.global_429s,
            fake.busiest_second_since(began),
            (busiest_of(0), busiest_of(1)),
            current,
        )
    finally:
        await stopped(*processes)
        await fake.stop()


async def test_each_process_paces_at_its_share_of_the_global_limit(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    """Each process runs 1 of the 2 shards: its background requests go at half the bot's
    pace (``RATE``, 49 a second), and both together stay under Discord's 50 (``make stress``:
    one process at the whole pace sends about 45 a second under the same burst, so two
    unshared ones would send about 90)."""
    load = await trackers_under_load(tmp_path, postgres_server, ["0", "1"])
    print(f"\n2 processes of 1 shard each, {2 * TRACKED_PER_SHARD} trackers at once: {load}")
    assert load.refused == 0 and load.busiest <= 50, load
    # Its share and the burst, with room for requests bunched by a busy machine (6 more
    # seen beside the suite), far from the whole pace.
    assert max(load.busiest_by_shard) <= RATE / 2 + 8, load


@pytest.mark.stress
async def test_stress_one_process_at_the_whole_pace_sends_twice_a_shares_requests(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    """The measure behind "two unshared pacers would draw 429s": under the same burst, one
    process running both shards (its share is the whole) sends about twice what a process of
    one shard does, so two processes pacing at the whole rate would go past 50."""
    load = await trackers_under_load(tmp_path, postgres_server, ["0,1"])
    print(f"\n1 process of both shards, {2 * TRACKED_PER_SHARD} trackers at once: {load}")
    assert load.refused == 0 and load.busiest > RATE / 2 + 8, load  # past a share's bound
