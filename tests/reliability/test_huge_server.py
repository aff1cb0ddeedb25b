"""A huge server does not starve the others (issue 19 point 8; before, with 50,000
characters in one server, 5 of 10 ``/scene status`` were never answered and another
server's ``/hurt`` took 2.4–2.96 s meanwhile).

The 50,000 characters are written straight into the file (the bot refuses a 1,001st
character: only an older database can hold so many). Then, all at once, 10 ``/scene
status``, 10 ``/character list``, 10 ``/history`` and a ``/time`` in that server, while
another server's player sends a ``/hurt`` every 100 ms: everything is answered, and the
other server's ``/hurt`` takes less than half a second at the median and 1.5 s at the
99th percentile. Pages read
only their rows from an index; ``/time`` reads only those who bleed."""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
from pathlib import Path

from bot.storage.sqlite.rows import NAME_KEY_COLUMNS, name_keys
from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from tests.e2e.kit import create
from tests.reliability.support import isolated_bot

CHARACTERS = 50_000
#: Of them, bleeding (Seriously wounded, neither stabilized nor in hospital).
BLEEDING = 40
CALLS = 10
QUIET_EVERY = 0.1
#: Seconds for the other server's /hurt: alone on the machine p50 0.06 s and p99 0.15 s; a
#: clean-clone CI beside two other builds saw a p99 of 0.94 s. Starved, as before issue 19,
#: they took 2.4-2.96 s and half the huge server's reads were never answered.
MEDIAN_WITHIN = 0.5
P99_WITHIN = 1.5


def fill(database: Path, guild: FakeGuild, owner_id: int) -> None:
    """The server's characters, written as the storage writes them (every key of the name)."""
    keys = ", ".join(NAME_KEY_COLUMNS)
    marks = ", ".join("?" * len(NAME_KEY_COLUMNS))
    rows = []
    for number in range(CHARACTERS):
        name = f"Investigador {number:05d}"
        bleeding = number < BLEEDING
        rows.append((int(guild.id), name, *name_keys(name), owner_id, -8 if bleeding else 9))
    connection = sqlite3.connect(database, timeout=10)
    with connection:
        connection.executemany(
            f"INSERT INTO characters (guild_id, name, {keys}, owner_id, created_at, health,"
            " max_health, first_aid_pool, first_aid_rating, scene_start_health, conscious,"
            " roll_pending, stabilized, lowest_health, first_aid_received, bleed_minutes,"
            f" full_recovery_due) VALUES (?, ?, {marks}, ?, '2024-01-01T00:00:00+00:00', ?,"
            " 9, 0, 0, 9, 1, 0, 0, NULL, 0, 0, 0)",
            rows,
        )
    connection.close()


async def quiet(fake: FakeDiscord, guild: FakeGuild, stop: asyncio.Event) -> list[Reply]:
    sent: list[Reply] = []
    while not stop.is_set():
        sent.append(
            await fake.slash(
                guild, guild.owner, "hurt", {"character": "Quiet", "amount": "1"}, wait="none"
            )
        )
        await asyncio.sleep(QUIET_EVERY)  # the pace of a table in play, not a wait
    return sent


async def test_a_server_of_50000_characters_starves_nobody(tmp_path: Path) -> None:
    async with isolated_bot(tmp_path, name="huge") as (fake, bot):
        huge, other = await fake.create_guild(), await fake.create_guild()
        gm = huge.owner
        await create(fake, other, other.owner, "Quiet", 99)
        fill(bot.database_path, huge, int(gm.id))

        stop = asyncio.Event()
        sender = asyncio.create_task(quiet(fake, other, stop))
        calls = [
            await fake.slash(huge, gm, command, wait="none")
            for _ in range(CALLS)
            for command in ("scene status", "character list", "history")
        ]
        calls.append(await fake.slash(huge, gm, "time", {"minutes": 30}, wait="none"))
        await fake.wait_until(
            lambda: all(reply.is_complete() for reply in calls), 60, what="the huge server"
        )
        stop.set()
        calm = await sender
        await fake.wait_until(
            lambda: all(reply.is_complete() for reply in calm), 10, what="the other server"
        )

        latencies = sorted(reply.latency or 99.0 for reply in calm)
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        assert all(not reply.ephemeral for reply in calm)
        print(
            f"other server: {len(calm)} /hurt, p50 {statistics.median(latencies):.3f} s,"
            f" p99 {p99:.3f} s, slowest {latencies[-1]:.3f} s"
        )
        assert statistics.median(latencies) < MEDIAN_WITHIN, latencies
        assert p99 < P99_WITHIN, latencies[-5:]
        for reply in calls:
            assert reply.record.errors == [] and not reply.ephemeral, reply.record.summary()
        status = next(r for r in calls if r.interaction["data"]["name"] == "scene")
        assert "page 1/2500" in status.embed["title"], status.embed["title"]
        time = calls[-1]
        lines = [line for line in (time.embed.get("description") or "").splitlines() if line]
        assert len([line for line in lines if line.startswith("**")]) == BLEEDING
