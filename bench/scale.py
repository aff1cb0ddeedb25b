"""``make bench`` at scale: Salud and the floor *joined* to 10, 1,000 and 10,000 servers.

A public bot is in thousands of servers, and each costs it memory (channels, roles, members,
messages cached) and CPU (every event Discord sends for it) whether anyone plays there or not.
For each size both bots log in to fake Discords holding that many servers (each with 20
channels and 10 roles; Salud's database with 5 characters in each) and this module measures:

- the time from the process start to ready (discord.py's ``on_ready``: every shard connected
  and every server received), with the shards Discord recommends (one per 1,000 servers);
- peak (VmHWM) and steady (VmRSS at the end) memory;
- CPU per second under a background stream of 500 events/s spread over the servers (messages,
  typing, reactions, presences, member updates: ``devkit/fake_discord/stream.py``), which the
  fake sends only for the intents each bot asked;
- under that stream, the commands of the main table: latencies and CPU per reply.

The floor keeps discord.py's defaults, as a typical bot does: ``Intents.default()``, the message
cache, one shard unless Discord requires more (then ``AutoShardedClient``). The two bots are
started one after the other (each alone while it gets ready), then measured in alternation,
each on its own fake, with the stream running on both.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.loadgen import BenchFake, CellResult, Request, cpu_seconds, memory_kib
from bench.populate import CHARACTER_NAMES, StoredServer, create_schema, populate
from devkit.fake_discord import FakeGuild, FakeMember
from devkit.fake_discord.sharding import MAX_GUILDS_PER_SHARD, recommended_shards
from devkit.fake_discord.stream import EventStream
from devkit.harness import FLOOR_COMMAND, SALUD_COMMAND, BotProcess

__all__ = [
    "DEFAULT_SIZES",
    "ScaleConfig",
    "ScaleRun",
    "ScaleSize",
    "Subject",
    "Workload",
    "run_scale",
]

DEFAULT_SIZES = (10, 1_000, 10_000)
CHANNELS_PER_SERVER = 20
ROLES_PER_SERVER = 10
STREAM_RATE = 500.0
#: Seconds of stream measured for the CPU per second (after one second of warming up).
STREAM_SECONDS = 5.0
#: Longest wait for a bot to be ready in 10,000 servers on a shared machine.
READY_TIMEOUT = 240.0

# Targets (issue 14), at the largest size.
TARGET_READY = 1.25  # Salud's ready time ÷ the floor's
TARGET_LEAN = 1.00  # Salud's memory and background CPU ÷ the floor's


@dataclass(frozen=True)
class ScaleConfig:
    sizes: tuple[int, ...] = DEFAULT_SIZES
    count: int = 200  # replies per command cell under the stream
    concurrency: tuple[int, ...] = (1, 50)
    commands: tuple[str, ...] = ("hurt", "conscious", "firstaid", "character show")
    stream_rate: float = STREAM_RATE
    warmup: int = 20


@dataclass(frozen=True)
class Workload:
    """What the main benchmark already knows how to do, handed in (``bench.__main__``)."""

    #: ``make_table(fake, servers)``: the active servers with a member per character.
    make_table: Callable[[BenchFake, int], Awaitable[object]]
    #: ``requests_for(command, table, count)``
    requests_for: Callable[[str, object, int], list[Request]]
    #: ``measure(fake, bot, requests, in_flight, reset, budget)``
    measure: Callable[..., Awaitable[CellResult]]
    #: ``reset(database, guild_ids, command)``: the characters put where ``command`` is legal.
    reset: Callable[[Path, Sequence[int], str], None]
    #: ``budget_for(command, characters)``: requests one reset allows.
    budget_for: Callable[[str, int], int | None]
    active_servers: int


@dataclass
class Subject:
    """One bot at one size: how it started, what it used, how it answered."""

    name: str  # "Salud" or "floor"
    servers: int
    shards: int = 1
    ready_seconds: float = 0.0
    peak_kib: int = 0
    steady_kib: int = 0
    stream_cpu_per_second: float = 0.0
    delivered: int = 0  # stream events the fake delivered to it while measured
    cells: dict[tuple[str, int], CellResult] = field(default_factory=dict)
    tracebacks: list[str] = field(default_factory=list)


@dataclass
class ScaleSize:
    servers: int
    salud: Subject
    floor: Subject
    database_bytes: int = 0
    setup_seconds: float = 0.0  # servers made in the fakes and stored in the database


@dataclass
class ScaleRun:
    config: ScaleConfig
    sizes: list[ScaleSize] = field(default_factory=list)
    elapsed: float = 0.0


def log(message: str) -> None:
    import sys

    print(message, file=sys.stderr, flush=True)


# --- the servers ---------------------------------------------------------------------------------
async def join_servers(
    fake: BenchFake, workload: Workload, servers: int
) -> tuple[object, list[FakeGuild]]:
    """``servers`` servers in the fake (before any bot connects): the active ones of the
    main benchmark first, each with 20 channels and 10 roles."""
    table = await workload.make_table(fake, workload.active_servers)
    for _ in range(servers - workload.active_servers):
        await fake.create_guild(locale="en-US")
    guilds = list(fake.guilds.values())
    for guild in guilds:
        for number in range(len(guild.channels), CHANNELS_PER_SERVER):
            guild.text_channel(f"channel-{number}")
        for number in range(len(guild.roles), ROLES_PER_SERVER):
            guild.role(f"Role {number}")
    return table, guilds


def stored_servers(guilds: Sequence[FakeGuild], active: Sequence[FakeGuild]) -> list[StoredServer]:
    """Every joined server with its 5 characters: the active ones owned by their members,
    the others by made-up users."""
    rng = random.Random(14)
    owners: dict[str, tuple[int, ...]] = {}
    for guild in active:
        players: list[FakeMember] = [
            m for m in guild.members.values() if m.name.startswith("Player ")
        ]
        by_name = {m.name.removeprefix("Player "): int(m.id) for m in players}
        owners[guild.id] = tuple(by_name[name] for name in CHARACTER_NAMES)
    return [
        StoredServer(
            int(guild.id),
            owners.get(guild.id) or tuple(rng.randrange(1 << 60) for _ in CHARACTER_NAMES),
        )
        for guild in guilds
    ]


def files_size(folder: Path, pattern: str) -> int:
    """Bytes of the files matching ``pattern`` (a database with its -wal and -shm)."""
    return sum(path.stat().st_size for path in folder.glob(pattern))


# --- one size ------------------------------------------------------------------------------------
async def start_timed(bot: BotProcess, ready_text: str) -> float:
    """Seconds from the process start to ``ready_text`` in its log (its ``on_ready``)."""
    started = time.perf_counter()
    await bot.start(READY_TIMEOUT)
    await bot.wait_for_log(ready_text, READY_TIMEOUT)
    return time.perf_counter() - started


async def stream_cpu(bot: BotProcess, fake: BenchFake) -> tuple[float, int]:
    """CPU seconds per second of the bot while the stream runs, and events delivered."""
    loop = asyncio.get_running_loop()
    before_events = sum(sum(fake.delivered(e).values()) for e in _STREAMED)
    cpu_before, start = cpu_seconds(bot.pid), loop.time()
    await asyncio.sleep(STREAM_SECONDS)
    cpu = cpu_seconds(bot.pid) - cpu_before
    wall = loop.time() - start
    delivered = sum(sum(fake.delivered(e).values()) for e in _STREAMED) - before_events
    return cpu / wall, delivered


_STREAMED = (
    "MESSAGE_CREATE",
    "TYPING_START",
    "MESSAGE_REACTION_ADD",
    "PRESENCE_UPDATE",
    "GUILD_MEMBER_UPDATE",
)


async def one_size(
    config: ScaleConfig, workload: Workload, workdir: Path, servers: int
) -> ScaleSize:
    shards = recommended_shards(servers)
    setup_started = time.perf_counter()
    salud_fake = BenchFake(app_name="Salud", reply_timeout=20.0)
    floor_fake = BenchFake(app_name="Floor", reply_timeout=20.0)
    await salud_fake.start()
    await floor_fake.start()
    salud_table, salud_guilds = await join_servers(salud_fake, workload, servers)
    floor_table, _ = await join_servers(floor_fake, workload, servers)
    active = salud_guilds[: workload.active_servers]
    database = workdir / f"scale-{servers}.sqlite3"
    await create_schema(database)
    populate(database, stored_servers(salud_guilds, active))
    size = ScaleSize(
        servers,
        Subject("Salud", servers, shards),
        # One shard unless Discord requires more (as a typical bot): then AutoShardedClient.
        Subject("floor", servers, 1 if servers <= MAX_GUILDS_PER_SHARD else shards),
        database_bytes=files_size(workdir, f"scale-{servers}.sqlite3*"),
        setup_seconds=time.perf_counter() - setup_started,
    )
    salud = BotProcess(
        salud_fake,
        command=SALUD_COMMAND,
        database_path=database,
        log_path=workdir / f"scale-salud-{servers}.log",
        token=f"scale-salud-{servers}",
        start_timeout=READY_TIMEOUT,
        settle=0.0,
        shards=size.salud.shards,
    )
    floor_command = [*FLOOR_COMMAND, *(["--sharded"] if size.floor.shards > 1 else [])]
    floor = BotProcess(
        floor_fake,
        command=floor_command,
        database_path=workdir / "scale-floor.unused",
        log_path=workdir / f"scale-floor-{servers}.log",
        token=f"scale-floor-{servers}",
        start_timeout=READY_TIMEOUT,
        settle=0.0,
        shards=size.floor.shards,
    )
    guild_ids = [int(g.id) for g in active]
    try:
        size.floor.ready_seconds = await start_timed(floor, "floor bot ready in")
        log(f"scale {servers:,}: floor ready in {size.floor.ready_seconds:.1f} s")
        size.salud.ready_seconds = await start_timed(salud, "Ready as")
        log(f"scale {servers:,}: Salud ready in {size.salud.ready_seconds:.1f} s")
        async with (
            EventStream(salud_fake, config.stream_rate),
            EventStream(floor_fake, config.stream_rate),
        ):
            await asyncio.sleep(1.0)
            for subject, bot, fake in (
                (size.floor, floor, floor_fake),
                (size.salud, salud, salud_fake),
            ):
                subject.stream_cpu_per_second, subject.delivered = await stream_cpu(bot, fake)
            for command in config.commands:
                for subject, bot, fake, table, reset in (
                    (size.floor, floor, floor_fake, floor_table, None),
                    (size.salud, salud, salud_fake, salud_table, command),
                ):
                    if reset is not None:
                        workload.reset(database, guild_ids, command)
                    await workload.measure(
                        fake,
                        bot,
                        workload.requests_for(command, table, config.warmup),
                        10,
                        None,
                        None,
                    )
                    for in_flight in config.concurrency:
                        resetter = (
                            None
                            if reset is None
                            else (lambda c=command: workload.reset(database, guild_ids, c))
                        )
                        subject.cells[(command, in_flight)] = await workload.measure(
                            fake,
                            bot,
                            workload.requests_for(command, table, config.count),
                            in_flight,
                            resetter,
                            workload.budget_for(command, len(guild_ids) * len(CHARACTER_NAMES))
                            if reset is not None
                            else None,
                        )
        for subject, bot in ((size.floor, floor), (size.salud, salud)):
            subject.peak_kib = memory_kib(bot.pid, "VmHWM")
            subject.steady_kib = memory_kib(bot.pid, "VmRSS")
        log(scale_progress(size))
    finally:
        for subject, bot in ((size.floor, floor), (size.salud, salud)):
            with contextlib.suppress(Exception):
                await bot.stop(timeout=30.0)
            subject.tracebacks += bot.new_tracebacks()
        await salud_fake.stop()
        await floor_fake.stop()
    return size


async def run_scale(config: ScaleConfig, workload: Workload, workdir: Path) -> ScaleRun:
    run = ScaleRun(config)
    started = time.perf_counter()
    for servers in config.sizes:
        run.sizes.append(await one_size(config, workload, workdir, servers))
    run.elapsed = time.perf_counter() - started
    return run


# --- reporting -----------------------------------------------------------------------------------
def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def _mib(kib: int) -> str:
    return f"{kib / 1024:.1f}"


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")


def _mark(value: float, target: float) -> str:
    return f"{value:.2f} " + ("✓" if round(value, 2) <= target else "✗")


def scale_progress(size: ScaleSize) -> str:
    s, f = size.salud, size.floor
    return (
        f"scale {size.servers:,}: ready {s.ready_seconds:.1f} s (floor {f.ready_seconds:.1f}),"
        f" peak {_mib(s.peak_kib)} MiB (floor {_mib(f.peak_kib)}),"
        f" stream CPU {s.stream_cpu_per_second:.1%} (floor {f.stream_cpu_per_second:.1%})"
    )


def scale_report(run: ScaleRun) -> list[str]:
    """The scale tables, Markdown, targets marked at the largest size."""
    if not run.sizes:
        return []
    config = run.config
    largest = max(size.servers for size in run.sizes)
    lines = [
        f"Joined servers (each {CHANNELS_PER_SERVER} channels, {ROLES_PER_SERVER} roles;"
        f" Salud's database: 5 characters each), a background stream of"
        f" {config.stream_rate:.0f} events/s over them (messages, typing, reactions, presences,"
        " member updates; Discord sends each only for its intent). Salud: `GUILDS` intent only,"
        " no message or member cache. Floor: discord.py's defaults (`Intents.default()`,"
        " message cache, one shard unless Discord requires more). Ready = process start →"
        f" `on_ready`. Targets at {largest:,} servers: ready ≤ {TARGET_READY}× the floor's,"
        " memory and background CPU ≤ the floor's.",
        "",
        "| servers | shards (floor) | ready s (floor) | ready ÷ floor | peak MiB (floor)"
        " | peak ÷ floor | steady MiB (floor) | steady ÷ floor | CPU % under stream (floor)"
        " | CPU ÷ floor | events received/s (floor) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for size in run.sizes:
        s, f = size.salud, size.floor
        target = size.servers == largest

        def cell(value: float, limit: float, target: bool = target) -> str:
            return _mark(value, limit) if target else f"{value:.2f}"

        lines.append(
            f"| {size.servers:,} | {s.shards} ({f.shards}) |"
            f" {s.ready_seconds:.1f} ({f.ready_seconds:.1f}) |"
            f" {cell(_ratio(s.ready_seconds, f.ready_seconds), TARGET_READY)} |"
            f" {_mib(s.peak_kib)} ({_mib(f.peak_kib)}) |"
            f" {cell(_ratio(s.peak_kib, f.peak_kib), TARGET_LEAN)} |"
            f" {_mib(s.steady_kib)} ({_mib(f.steady_kib)}) |"
            f" {cell(_ratio(s.steady_kib, f.steady_kib), TARGET_LEAN)} |"
            f" {s.stream_cpu_per_second:.1%} ({f.stream_cpu_per_second:.1%}) |"
            f" {cell(_ratio(s.stream_cpu_per_second, f.stream_cpu_per_second), TARGET_LEAN)} |"
            f" {s.delivered / STREAM_SECONDS:.0f} ({f.delivered / STREAM_SECONDS:.0f}) |"
        )
    lines += [
        "",
        f"Commands under the stream ({config.count} per cell, spread over the active servers'"
        " characters): p50 / p99 in ms, CPU ms per reply; the floor's in brackets.",
        "",
        "| command | servers | in flight | p50 (floor) | p99 (floor) | CPU ms/reply (floor)"
        " | CPU ÷ floor |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for command in config.commands:
        for size in run.sizes:
            for in_flight in config.concurrency:
                s_cell = size.salud.cells.get((command, in_flight))
                f_cell = size.floor.cells.get((command, in_flight))
                if s_cell is None or f_cell is None:
                    continue
                lines.append(
                    f"| /{command} | {size.servers:,} | {in_flight} |"
                    f" {_ms(s_cell.p(50))} ({_ms(f_cell.p(50))}) |"
                    f" {_ms(s_cell.p(99))} ({_ms(f_cell.p(99))}) |"
                    f" {_ms(s_cell.cpu_per_reply)} ({_ms(f_cell.cpu_per_reply)}) |"
                    f" {_ratio(s_cell.cpu_per_reply, f_cell.cpu_per_reply):.2f} |"
                )
    problems = []
    for size in run.sizes:
        for subject in (size.salud, size.floor):
            for (command, in_flight), result in subject.cells.items():
                if result.refused or result.timeouts:
                    problems.append(
                        f"{subject.name} at {size.servers:,} servers, /{command} {in_flight} in"
                        f" flight: {len(result.refused)} refused, {result.timeouts} unanswered"
                    )
            problems += [
                f"traceback in {subject.name}'s log at {size.servers:,} servers:"
                f" {t.splitlines()[-1]!r:.200}"
                for t in subject.tracebacks
            ]
    if problems:
        lines += ["", "Problems at scale:", "", *[f"- {p}" for p in problems]]
    setup = ", ".join(
        f"{size.servers:,}: {size.setup_seconds:.1f} s, {size.database_bytes / 1e6:.0f} MB"
        for size in run.sizes
    )
    lines += ["", f"Scale part: {run.elapsed:.0f} s (servers made and stored: {setup})."]
    return lines


def scale_failed(run: ScaleRun) -> bool:
    """Whether a command went unanswered or was refused, or a bot logged a traceback."""
    subjects = [subject for size in run.sizes for subject in (size.salud, size.floor)]
    return any(subject.tracebacks for subject in subjects) or any(
        result.refused or result.timeouts
        for subject in subjects
        for result in subject.cells.values()
    )
