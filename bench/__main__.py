"""``make bench`` (``python -m bench``): Salud against the floor, a bare discord.py bot.

Both real bot processes log in to fake Discords on 127.0.0.1 in this process, which sends them
the same slash commands (``/hurt``, ``/conscious``, ``/firstaid``, ``/character show``) with 1,
50 and 200 in flight, and measures every reply from dispatch to the complete reply: p50, p99,
replies per second, each as a ratio to the floor's measured just before, side by side. Salud
runs twice: on a database of 10 servers and of 10,000 servers × 5 characters (pre-populated
with SQL before it starts). Peak memory (VmHWM) of each process is read from /proc.

A third subject, "floor + SQLite", is the floor bot started with ``--sqlite PATH``: before its
fixed answer every command runs one 4-statement durable transaction, in one trip to aiosqlite's
thread, the least
a changing command must do. It gets the ``/hurt`` cells, each right after the floor's, to show
how much of the gap to the floor is the mere cost of storing a change (``--no-floor-sqlite``
skips it).

Salud runs a third time, on a PostgreSQL server the run starts (``bench/engines.py``,
``--engines sqlite`` skips it), on the 10 servers, each cell right after the same cell on
SQLite, its round trips to the server counted on the wire (``bench/trip_proxy.py``).

Every command sent must succeed: characters are put in a state where it is legal before each
cell (Health 99 for ``/hurt``, −1 with a roll pending for ``/conscious``, 50 with a full First
Aid pool for ``/firstaid``), and the requests are spread over the 50 characters of 10 servers.
A refused or unanswered command is reported.

Options: ``python -m bench --help``; counts also from ``SALUD_BENCH_COUNT`` etc.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import platform
import re
import signal
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import discord

from bench.breakdown import PARTS, Breakdown, parse_samples, sample, spy_available
from bench.engines import EngineCell, PgSide, engine_lines, start_pg_side
from bench.goal import GOAL_CELLS, GoalCell, goal_lines
from bench.loadgen import (
    BenchFake,
    CellResult,
    Request,
    lightweight_validation,
    memory_kib,
    run_cell,
)
from bench.populate import (
    CHARACTER_NAMES,
    StoredServer,
    create_pg_schema,
    create_schema,
    pg_connection,
    populate,
    populate_pg,
    reset_characters,
    reset_pg,
    stored_interactions,
)
from bench.scale import (
    DEFAULT_SIZES,
    ScaleConfig,
    ScaleRun,
    Workload,
    run_scale,
    scale_failed,
    scale_report,
)
from devkit.fake_discord import FakeGuild, FakeMember
from devkit.harness import FLOOR_COMMAND, SALUD_COMMAND, BotProcess
from devkit.postgres import PostgresServer, running_postgres
from rules.character import CharacterHealth
from rules.correction import correct

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results"
README = ROOT / "README.md"
BENCHMARK = ROOT / "docs" / "BENCHMARK.md"
COMMANDS = ("hurt", "conscious", "firstaid", "character show")
ENGINES = ("sqlite", "postgres")
ACTIVE_SERVERS = 10

# Targets (issue 6).
TARGET_FLOOR = 1.25
TARGET_SCALE = 1.10

#: Health hits that leave a character at 99 alive (dies at -12: 110 points) with 1d6 each.
HURT_BUDGET = 110 // 6
#: First Aid calls of 1 point a patient at 50 / 99 takes in one scene (cap 33: 16 × 2 + 1).
FIRSTAID_BUDGET = 17


# --- what each cell sends -------------------------------------------------------------------------
@dataclass(frozen=True)
class Table:
    """One fake's active servers: (guild, [(character name, its owner)])."""

    servers: list[tuple[FakeGuild, list[FakeMember]]]

    @property
    def characters(self) -> list[tuple[FakeGuild, int, FakeMember]]:
        """(guild, index of the name, owner), interleaved across servers."""
        return [
            (guild, index, owners[index])
            for index in range(len(CHARACTER_NAMES))
            for guild, owners in self.servers
        ]


async def make_table(fake: BenchFake, servers: int) -> Table:
    """Servers with one member per character (created before the bot connects)."""
    made = []
    for _ in range(servers):
        guild = await fake.create_guild(locale="en-US")
        made.append((guild, [guild.member(f"Player {name}") for name in CHARACTER_NAMES]))
    return Table(made)


def requests_for(command: str, table: Table, count: int) -> list[Request]:
    """``count`` requests of ``command``, round-robin over the characters, each by its owner."""
    characters = table.characters
    out: list[Request] = []
    for number in range(count):
        guild, index, owner = characters[number % len(characters)]
        name = CHARACTER_NAMES[index]
        if command == "hurt":
            out.append(Request(guild, owner, "hurt", {"character": name, "amount": "1d6"}))
        elif command == "conscious":
            out.append(Request(guild, owner, "conscious", {"character": name}))
        elif command == "firstaid":
            medic_index = (index + 1) % len(CHARACTER_NAMES)
            medic_owner = next(o for g, o in table.servers if g.id == guild.id)[medic_index]
            options = {"medic": CHARACTER_NAMES[medic_index], "patient": name, "points": 1}
            out.append(Request(guild, medic_owner, "firstaid", options))
        else:
            out.append(Request(guild, owner, "character show", {"character": name}))
    return out


def state_for(command: str) -> CharacterHealth:
    """The Health values before a cell, in which every request of the cell is legal."""
    fresh = CharacterHealth.new(99, 99)
    if command == "conscious":
        return correct(fresh, health=-1).after  # roll pending, Difficulty 1: always a success
    if command == "firstaid":
        return correct(fresh, health=50).after  # 49 lost this scene, First Aid pool 99
    return fresh


def budget_for(command: str, characters: int) -> int | None:
    """Requests a reset allows before the rules would refuse some (None: no limit)."""
    if command == "hurt":
        return HURT_BUDGET * characters
    if command == "firstaid":
        return FIRSTAID_BUDGET * characters
    return None


# --- running ------------------------------------------------------------------------------------
@dataclass
class Config:
    count: int
    concurrency: tuple[int, ...]
    servers: tuple[int, ...]
    commands: tuple[str, ...]
    warmup: int
    validate: bool
    update_readme: bool
    profile: Path | None
    py_spy: Path | None
    inline_sqlite: bool
    floor_sqlite: bool
    keep: bool
    scale: tuple[int, ...] = DEFAULT_SIZES  # joined servers of the scale part (empty: skipped)
    breakdown: bool = True  # py-spy's parts of the CPU per reply (bench/breakdown.py)
    scale_count: int = 200
    engines: tuple[str, ...] = ENGINES  # Salud on SQLite, and on PostgreSQL (issue 26)
    quick: bool = False  # a few interactions a cell, no verdict on the ratios (a test's run)


@dataclass
class Cell:
    command: str
    servers: int
    in_flight: int
    salud: CellResult
    floor: CellResult


@dataclass
class SqliteCell:
    """A ``/hurt`` cell of the floor + SQLite, with the floor's cell measured just before."""

    in_flight: int
    result: CellResult
    floor: CellResult


@dataclass
class Run:
    config: Config
    cells: list[Cell] = field(default_factory=list)
    floor_sqlite: list[SqliteCell] = field(default_factory=list)
    floor_sqlite_memory: int = 0
    floor_sqlite_stored: int = 0  # history rows written by the floor + SQLite
    floor_sqlite_seconds: float = 0.0  # what it added to the run (start, warm-up, cells)
    salud_memory: dict[int, int] = field(default_factory=dict)  # servers -> VmHWM KiB
    floor_memory: int = 0
    salud_db_size: dict[int, int] = field(default_factory=dict)
    populate_seconds: dict[int, float] = field(default_factory=dict)
    tracebacks: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.time)
    elapsed: float = 0.0
    load_before: str = ""
    scale: ScaleRun | None = None
    breakdowns: list[Breakdown] = field(default_factory=list)
    engine_cells: list[EngineCell] = field(default_factory=list)  # PostgreSQL beside SQLite

    def cell(self, command: str, servers: int, in_flight: int) -> Cell | None:
        for cell in self.cells:
            if (cell.command, cell.servers, cell.in_flight) == (command, servers, in_flight):
                return cell
        return None


async def measure(
    fake: BenchFake,
    bot: BotProcess,
    requests: Sequence[Request],
    concurrency: int,
    reset: Callable[[], None] | None,
    budget: int | None,
) -> CellResult:
    """One cell, in chunks of at most ``budget`` requests each preceded by ``reset``."""
    total = CellResult()
    size = budget or len(requests)
    for start in range(0, len(requests), size):
        if reset is not None:
            reset()
        total.merge(
            await run_cell(fake, requests[start : start + size], concurrency, bot_pid=bot.pid)
        )
    return total


def load_average() -> str:
    """The 1, 5 and 15-minute load averages (the machine may be shared)."""
    try:
        with open("/proc/loadavg", encoding="ascii") as loadavg:
            return " ".join(loadavg.read().split()[:3])
    except OSError:
        return "?"


def files_size(folder: Path, pattern: str) -> int:
    """Bytes of the files matching ``pattern`` (a database with its -wal and -shm)."""
    return sum(path.stat().st_size for path in folder.glob(pattern))


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Subject:
    """One Salud bot on its own fake Discord, with its database of ``servers`` servers."""

    servers: int
    fake: BenchFake
    table: Table
    database: Path
    bot: BotProcess
    guild_ids: list[int]
    spy: asyncio.subprocess.Process | None = None
    pg: PgSide | None = None  # on PostgreSQL (reached through its counting proxy)

    def reset(self, command: str) -> None:
        if self.pg is not None:
            reset_pg(self.pg.direct_url, self.guild_ids, state_for(command))
        else:
            reset_characters(self.database, self.guild_ids, state_for(command))

    def stored(self, interaction_ids: Sequence[str]) -> int:
        """How many of these interactions are in the history (changes made, reply never seen)."""
        if self.pg is None:
            return stored(self.database, interaction_ids)
        with pg_connection(self.pg.direct_url) as conn:
            return stored_interactions(conn, interaction_ids)


async def salud_fake() -> tuple[BenchFake, Table, list[StoredServer]]:
    """A fake Discord for a Salud, with the active servers, and those servers to store."""
    fake = BenchFake(app_name="Salud", reply_timeout=20.0)
    await fake.start()
    table = await make_table(fake, ACTIVE_SERVERS)
    active = [
        StoredServer(int(guild.id), tuple(int(member.id) for member in owners))
        for guild, owners in table.servers
    ]
    return fake, table, active


async def make_pg_subject(config: Config, workdir: Path, pg: PgSide) -> Subject:
    """Salud on PostgreSQL: its fake with the active servers, its database made and filled
    before it starts (the bot loads its name index at start-up), the bot (stopped)."""
    fake, table, active = await salud_fake()
    await create_pg_schema(pg.direct_url)
    populate_pg(pg.direct_url, active)
    bot = BotProcess(
        fake,
        command=salud_command(config, ACTIVE_SERVERS, "postgres"),
        database_path=workdir / "salud-postgres.unused",
        log_path=workdir / "salud-postgres.log",
        token="salud-postgres-token",
        extra_env={"DATABASE_PATH": "", "DATABASE_URL": pg.url},
    )
    guild_ids = [server.guild_id for server in active]
    return Subject(ACTIVE_SERVERS, fake, table, bot.database_path, bot, guild_ids, pg=pg)


def salud_command(config: Config, servers: int, engine: str = "sqlite") -> list[str]:
    """How to start Salud: plainly, with the inline-SQLite experiment, under cProfile."""
    command = list(SALUD_COMMAND)
    if config.inline_sqlite and engine == "sqlite":
        command = [sys.executable, "-m", "bench.inline_sqlite"]
    if config.profile is not None:
        name = f"salud-{servers}" if engine == "sqlite" else "salud-postgres"
        command = profiled(config.profile / name, command)
    return command


def profiled(out: Path, command: Sequence[str]) -> list[str]:
    """``python -m MODULE`` run under ``bench.profiled``: cProfile switched on for each cell."""
    assert command[1] == "-m", command
    return [sys.executable, "-m", "bench.profiled", str(out), *command[2:]]


def floor_command(config: Config) -> list[str]:
    """The floor, plainly or under the same profiler as Salud (``--profile``)."""
    if config.profile is None:
        return list(FLOOR_COMMAND)
    return profiled(config.profile / "floor", FLOOR_COMMAND)


@contextlib.asynccontextmanager
async def profiling(config: Config, bot: BotProcess, name: str) -> AsyncIterator[None]:
    """With ``--profile``: the bot's profiler records the block (one cell), written as
    ``DIR/NAME.prof`` (``bench/profiled.py``)."""
    if config.profile is None or bot.pid is None:
        yield
        return
    written = PROFILES_WRITTEN.get(bot.pid, 0) + 1
    PROFILES_WRITTEN[bot.pid] = written
    os.kill(bot.pid, signal.SIGUSR1)
    try:
        yield
    finally:
        os.kill(bot.pid, signal.SIGUSR2)
        out = Path(f"{bot.command[3]}-{written}.prof")  # python -m bench.profiled OUT …
        await asyncio.to_thread(_take_profile, out, config.profile / f"{name}.prof")


def _take_profile(written: Path, target: Path) -> None:
    """Rename the bot's profile once it is written (within 10 s)."""
    for _ in range(200):
        if written.exists():
            break
        time.sleep(0.05)
    with contextlib.suppress(OSError):
        written.rename(target)


#: Profiles each bot process wrote so far (``bench/profiled.py`` numbers them 1, 2, …).
PROFILES_WRITTEN: dict[int, int] = {}


async def make_subject(config: Config, run: Run, workdir: Path, servers: int) -> Subject:
    """A fake with the active servers, a database with them and the fillers, a bot (stopped)."""
    fake, table, active = await salud_fake()
    path = workdir / f"salud-{servers}.sqlite3"
    await create_schema(path)
    started = time.perf_counter()
    populate(path, active, fillers=max(0, servers - ACTIVE_SERVERS))
    run.populate_seconds[servers] = time.perf_counter() - started
    run.salud_db_size[servers] = files_size(workdir, f"salud-{servers}.sqlite3*")
    log(f"database of {servers:,} servers written in {run.populate_seconds[servers]:.1f} s")
    bot = BotProcess(
        fake,
        command=salud_command(config, servers),
        database_path=path,
        log_path=workdir / f"salud-{servers}.log",
        token=f"salud-{servers}-token",
    )
    return Subject(servers, fake, table, path, bot, [server.guild_id for server in active])


#: The only command the floor + SQLite is measured with (the floor answers all alike).
FLOOR_SQLITE_COMMAND = "hurt"


@dataclass
class FloorSqlite:
    """The floor bot storing every command (``--sqlite``), on its own fake Discord."""

    fake: BenchFake
    table: Table
    database: Path
    bot: BotProcess


async def make_floor_sqlite(workdir: Path) -> FloorSqlite:
    """Its fake with the active servers, and the bot (stopped); it creates its database."""
    fake = BenchFake(app_name="Floor", reply_timeout=20.0)
    await fake.start()
    table = await make_table(fake, ACTIVE_SERVERS)
    database = workdir / "floor-sqlite.sqlite3"
    bot = BotProcess(
        fake,
        command=[*FLOOR_COMMAND, "--sqlite", str(database)],
        database_path=workdir / "floor-sqlite.unused",
        log_path=workdir / "floor-sqlite.log",
        token="floor-sqlite-token",
    )
    return FloorSqlite(fake, table, database, bot)


def history_rows(database: Path) -> int:
    """Rows of the floor + SQLite's history (one per command it answered)."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        row = conn.execute("SELECT count(*) FROM history").fetchone()
    finally:
        conn.close()
    return int(row[0])


async def bench(config: Config, workdir: Path, pg_server: PostgresServer | None = None) -> Run:
    """Every cell, the floor and each Salud one after the other, so that a change in the
    machine's load (it is shared) affects them alike; with ``pg_server``, Salud on PostgreSQL
    too, each of its cells right after the same cell on SQLite."""
    run = Run(config)
    pg = await start_pg_side(pg_server) if pg_server is not None else None
    try:
        return await _bench(run, workdir, pg)
    finally:
        if pg is not None:
            await pg.stop()


async def _bench(run: Run, workdir: Path, pg: PgSide | None) -> Run:
    config = run.config
    run.load_before = load_average()
    floor_fake = BenchFake(app_name="Floor", reply_timeout=20.0)
    await floor_fake.start()
    floor_table = await make_table(floor_fake, ACTIVE_SERVERS)
    with_sqlite = config.floor_sqlite and FLOOR_SQLITE_COMMAND in config.commands
    floor_sqlite = await make_floor_sqlite(workdir) if with_sqlite else None
    subjects = [await make_subject(config, run, workdir, servers) for servers in config.servers]
    on_pg = await make_pg_subject(config, workdir, pg) if pg is not None else None
    floor = BotProcess(
        floor_fake,
        command=floor_command(config),
        database_path=workdir / "floor.unused",
        log_path=workdir / "floor.log",
        token="floor-token",
    )
    try:
        await floor.start()
        await warm_up(floor_fake, floor_table, config, None)
        if floor_sqlite is not None:
            started = time.perf_counter()
            await floor_sqlite.bot.start()
            await warm_up(
                floor_sqlite.fake, floor_sqlite.table, config, None, (FLOOR_SQLITE_COMMAND,)
            )
            run.floor_sqlite_seconds += time.perf_counter() - started
        for subject in subjects:
            await subject.bot.start()
            await warm_up(subject.fake, subject.table, config, subject)
            if config.py_spy is not None:
                output = config.py_spy / f"salud-{subject.servers}.txt"
                subject.spy = await start_py_spy(subject.bot, output)
        if on_pg is not None:
            await on_pg.bot.start()
            await warm_up(on_pg.fake, on_pg.table, config, on_pg)
        for name in config.commands:
            for in_flight in config.concurrency:
                requests = requests_for(name, floor_table, config.count)
                cell_name = f"{name.replace(' ', '-')}-{in_flight}"
                async with profiling(config, floor, f"floor-{cell_name}"):
                    floor_result = await measure(floor_fake, floor, requests, in_flight, None, None)
                if floor_sqlite is not None and name == FLOOR_SQLITE_COMMAND:
                    started = time.perf_counter()
                    sqlite_result = await measure(
                        floor_sqlite.fake,
                        floor_sqlite.bot,
                        requests_for(name, floor_sqlite.table, config.count),
                        in_flight,
                        None,
                        None,
                    )
                    sqlite_cell = SqliteCell(in_flight, sqlite_result, floor_result)
                    run.floor_sqlite.append(sqlite_cell)
                    run.floor_sqlite_seconds += time.perf_counter() - started
                    log(sqlite_progress_line(sqlite_cell))
                for subject in subjects:
                    result = await measure_subject(
                        config, subject, name, in_flight, f"salud-{subject.servers}-{cell_name}"
                    )
                    cell = Cell(name, subject.servers, in_flight, result, floor_result)
                    run.cells.append(cell)
                    log(progress_line(cell))
                if on_pg is not None:
                    on_sqlite = run.cell(name, min(config.servers), in_flight)
                    assert on_sqlite is not None
                    engine_cell = await measure_pg(config, on_pg, name, in_flight, on_sqlite)
                    run.engine_cells.append(engine_cell)
                    log(engine_progress_line(engine_cell))
        if config.breakdown and config.py_spy is None and spy_available() and subjects:
            await break_down(run, min(subjects, key=lambda s: s.servers), workdir)
        for subject in subjects:
            run.salud_memory[subject.servers] = memory_kib(subject.bot.pid)
        run.floor_memory = memory_kib(floor.pid)
        if floor_sqlite is not None:
            run.floor_sqlite_memory = memory_kib(floor_sqlite.bot.pid)
    finally:
        await floor.stop()
        run.tracebacks += floor.new_tracebacks()
        if on_pg is not None:
            await on_pg.bot.stop(timeout=30.0)
            run.tracebacks += on_pg.bot.new_tracebacks()
            await on_pg.fake.stop()
        if floor_sqlite is not None:
            await floor_sqlite.bot.stop()
            run.tracebacks += floor_sqlite.bot.new_tracebacks()
            await floor_sqlite.fake.stop()
            with contextlib.suppress(sqlite3.Error):
                run.floor_sqlite_stored = history_rows(floor_sqlite.database)
        for subject in subjects:
            if subject.spy is not None:
                await stop_py_spy(subject.spy)
            await subject.bot.stop(timeout=30.0)
            run.tracebacks += subject.bot.new_tracebacks()
            await subject.fake.stop()
        await floor_fake.stop()
    run.elapsed = time.time() - run.started
    return run


async def measure_subject(
    config: Config, subject: Subject, name: str, in_flight: int, profile_name: str
) -> CellResult:
    """One cell of a Salud (profiled as ``profile_name`` with ``--profile``), its characters
    reset as its budget needs; the unanswered interactions that were stored all the same."""
    async with profiling(config, subject.bot, profile_name):
        result = await measure(
            subject.fake,
            subject.bot,
            requests_for(name, subject.table, config.count),
            in_flight,
            functools.partial(subject.reset, name),
            budget_for(name, len(subject.table.characters)),
        )
    result.stored_unanswered = subject.stored(result.unanswered)
    return result


async def measure_pg(
    config: Config, subject: Subject, name: str, in_flight: int, on_sqlite: Cell
) -> EngineCell:
    """One cell of Salud on PostgreSQL, with the trips it made and the server's CPU."""
    assert subject.pg is not None
    trips, server_cpu = await subject.pg.trips(), subject.pg.cpu()
    cell_name = f"{name.replace(' ', '-')}-{in_flight}"
    result = await measure_subject(config, subject, name, in_flight, f"salud-postgres-{cell_name}")
    # The resets between chunks go to the server directly: neither trips nor the bot's CPU.
    trips = await subject.pg.trips() - trips
    server_cpu = subject.pg.cpu() - server_cpu
    return EngineCell(name, in_flight, result, on_sqlite.salud, trips, server_cpu)


def engine_progress_line(cell: EngineCell) -> str:
    p = cell.postgres
    problems = ""
    if p.refused or p.timeouts:
        problems = f"  !! refused {len(p.refused)}, unanswered {p.timeouts}"
        if p.refused:
            problems += f" (first: {p.refused[0]!r:.160})"
    return (
        f"/{cell.command:<15} PostgreSQL {cell.in_flight:>4} in flight:"
        f" p50 {ms(p.p(50))} p99 {ms(p.p(99))} ms {p.throughput:.0f}/s"
        f" (bot {ms(p.cpu_per_reply)} ms cpu/reply, {cell.cpu_ratio:.2f}× SQLite's;"
        f" {cell.trips_per_reply:.2f} trips/reply; server {cell.server_ms:.2f} ms cpu/reply)"
        f"{problems}"
    )


#: Replies of each breakdown cell (at 1 in flight: a couple of seconds of samples).
BREAKDOWN_COUNT = 3000


async def break_down(run: Run, subject: Subject, workdir: Path) -> None:
    """One more cell of each command at 1 in flight, sampled by py-spy (bench/breakdown.py)."""
    config = run.config
    for name in config.commands:
        output = workdir / f"spy-{name.replace(' ', '-')}.txt"
        assert subject.bot.pid is not None
        async with sample(subject.bot.pid, output):
            result = await measure(
                subject.fake,
                subject.bot,
                requests_for(name, subject.table, max(config.count, BREAKDOWN_COUNT)),
                1,
                functools.partial(subject.reset, name),
                budget_for(name, len(subject.table.characters)),
            )
        if not output.exists():
            log(f"/{name}: py-spy wrote no samples (may it attach to a process?)")
            continue
        samples = parse_samples(output.read_text(encoding="utf-8"))
        run.breakdowns.append(Breakdown(name, result.cpu_per_reply, samples))
        log(f"/{name}: CPU per reply broken down ({sum(samples.values())} samples)")


def breakdown_table(run: Run) -> list[str]:
    """The parts of each command's CPU per reply, with its limit (empty without samples)."""
    measured = [b for b in run.breakdowns if b.total]
    if not measured:
        return []
    limit = next((c.result for c in run.floor_sqlite if c.in_flight == 1), None)
    floor = next((c.floor for c in run.cells if c.in_flight == 1), None)
    lines = [
        "",
        "Where the CPU per reply goes (one more cell of each command at 1 in flight, sampled by"
        " py-spy on every thread of the bot; each part's share of the samples × that cell's CPU"
        " per reply), in ms:",
        "",
        "| part | " + " | ".join(f"/{b.command}" for b in measured) + " |",
        "| --- |" + " ---: |" * len(measured),
    ]
    for part, _marks in PARTS:
        lines.append(f"| {part} | " + " | ".join(f"{b.ms(part):.2f}" for b in measured) + " |")
    lines.append(
        "| **CPU per reply** | "
        + " | ".join(f"**{b.cpu_per_reply * 1000:.2f}**" for b in measured)
        + " |"
    )
    limits = []
    for b in measured:
        value = limit if b.command in CHANGING else floor
        limits.append(f"{value.cpu_per_reply * 1000:.2f}" if value is not None else "—")
    lines.append(
        "| its limit (a change: floor + SQLite; a display: floor) | " + " | ".join(limits) + " |"
    )
    return lines


def stored(database: Path, interaction_ids: Sequence[str]) -> int:
    """How many of these interactions are in the history (changes made, reply never seen)."""
    if not interaction_ids:
        return 0
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        marks = ", ".join("?" * len(interaction_ids))
        row = conn.execute(
            f"SELECT count(*) FROM history WHERE interaction_id IN ({marks})",
            [int(i) for i in interaction_ids],
        ).fetchone()
    finally:
        conn.close()
    return int(row[0])


async def start_py_spy(bot: BotProcess, output: Path) -> asyncio.subprocess.Process:
    """py-spy sampling every thread of the bot (collapsed stacks, idle included)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    spy = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("py-spy")),
        *("record", "--pid", str(bot.pid), "--rate", "250", "--format", "raw", "--threads"),
        *("--idle", "--nonblocking", "--output", str(output)),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    await asyncio.sleep(1.0)  # attached before the first cell
    return spy


async def stop_py_spy(spy: asyncio.subprocess.Process) -> None:
    """SIGINT makes py-spy write its file."""
    if spy.returncode is None:
        spy.send_signal(2)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(spy.wait(), 20)


async def warm_up(
    fake: BenchFake,
    table: Table,
    config: Config,
    subject: Subject | None,
    commands: Sequence[str] | None = None,
) -> None:
    """A few of each command first (imports, caches, connections), not measured."""
    if config.warmup <= 0:
        return
    for name in config.commands if commands is None else commands:
        if subject is not None:
            subject.reset(name)
        result = await run_cell(fake, requests_for(name, table, config.warmup), 10, bot_pid=None)
        if result.refused or result.timeouts:
            log(f"warm-up of /{name}: {len(result.refused)} refused, {result.timeouts} timeouts")
            for text in result.refused[:3]:
                log(f"  refused: {text!r:.200}")


# --- reporting ----------------------------------------------------------------------------------
def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def progress_line(cell: Cell) -> str:
    s, f = cell.salud, cell.floor
    problems = ""
    if s.refused or s.timeouts or f.refused or f.timeouts:
        problems = (
            f"  !! salud refused {len(s.refused)}, unanswered {s.timeouts}"
            f" (of which stored anyway {s.stored_unanswered});"
            f" floor refused {len(f.refused)}, unanswered {f.timeouts}"
        )
        if s.refused:
            problems += f" (first: {s.refused[0]!r:.160})"
    return (
        f"/{cell.command:<15} {cell.servers:>6} servers {cell.in_flight:>4} in flight:"
        f" salud p50 {ms(s.p(50))} p99 {ms(s.p(99))} ms {s.throughput:.0f}/s"
        f" (bot {ms(s.cpu_per_reply)} ms cpu/reply, {s.bot_cpu / s.wall:.0%};"
        f" fake {s.fake_cpu / s.wall:.0%}; {s.deferred} deferred)"
        f" | floor p50 {ms(f.p(50))} p99 {ms(f.p(99))} ms {f.throughput:.0f}/s"
        f" (bot {ms(f.cpu_per_reply)} ms cpu/reply, {f.bot_cpu / f.wall:.0%};"
        f" fake {f.fake_cpu / f.wall:.0%}){problems}"
    )


def sqlite_progress_line(cell: SqliteCell) -> str:
    r = cell.result
    problems = ""
    if r.refused or r.timeouts:
        problems = f"  !! refused {len(r.refused)}, unanswered {r.timeouts}"
    return (
        f"/{FLOOR_SQLITE_COMMAND:<15} floor + SQLite {cell.in_flight:>4} in flight:"
        f" p50 {ms(r.p(50))} p99 {ms(r.p(99))} ms {r.throughput:.0f}/s"
        f" (bot {ms(r.cpu_per_reply)} ms cpu/reply, {r.bot_cpu / r.wall:.0%};"
        f" fake {r.fake_cpu / r.wall:.0%}){problems}"
    )


def ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")


def mark(value: float, target: float) -> str:
    """The ratio, with ✗ when it misses the target (compared as shown, to 2 decimals)."""
    return f"{value:.2f}" + ("" if round(value, 2) <= target else " ✗")


def machine() -> str:
    model = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{os.cpu_count()} CPU ({model}), Python {platform.python_version()},"
        f" discord.py {discord.__version__}, {platform.system()} {platform.release()}"
    )


def against_floor(result: CellResult, floor: CellResult) -> str:
    """The last cells of a row: p99 ÷ floor, floor ÷ throughput (marked against the target),
    CPU per reply with the floor's."""
    return (
        f"{mark(ratio(result.p(99), floor.p(99)), TARGET_FLOOR)} |"
        f" {mark(ratio(floor.throughput, result.throughput), TARGET_FLOOR)} |"
        f" {ms(result.cpu_per_reply)} ({ms(floor.cpu_per_reply)}) |"
    )


def goal_cells(run: Run) -> list[GoalCell]:
    """Issue 29's four cells from this run (``bench/goal.py``), at the smallest database."""
    if not run.cells:
        return []
    smallest = min(c.servers for c in run.cells)
    limits = {c.in_flight: c.result.cpu_per_reply for c in run.floor_sqlite if c.result.count}
    cells = []
    for command, in_flight, limit in GOAL_CELLS:
        cell = run.cell(command, smallest, in_flight)
        salud = cell.salud.cpu_per_reply if cell is not None and cell.salud.count else None
        if limit == "floor":
            against = cell.floor.cpu_per_reply if cell is not None else None
        else:
            against = limits.get(in_flight)
        cells.append(
            GoalCell(
                command,
                in_flight,
                limit,
                None if salud is None else salud * 1000,
                None if against is None else against * 1000,
            )
        )
    return cells


def report(run: Run, *, detailed: bool = True) -> str:
    """The report, Markdown (``detailed``: with the CPU share of every cell); issue 29's
    four cells and their verdict first."""
    config = run.config
    goal = goal_lines(goal_cells(run))
    if config.quick:  # (its CPU figures may round to 0 at 10 ms a tick: no goal table)
        goal = ["Quick run (a few interactions a cell): the ratios are not judged.", *goal[1:]]
    engines = engine_verdict(run)
    lines = [
        *goal,
        *([""] if goal else []),
        *([engines, ""] if engines else []),
        f"Command: `{command_line(config)}` — {time.strftime('%Y-%m-%d %H:%M', time.localtime())}"
        f", {run.elapsed:.0f} s.",
        f"Machine: {machine()}; load average before the run {run.load_before}"
        " (shared with other work).",
        f"{config.count} interactions per cell, spread over {ACTIVE_SERVERS} servers ×"
        f" {len(CHARACTER_NAMES)} characters; latency = interaction dispatched → complete reply"
        f" received, in ms; throughput = replies/s."
        + ("" if config.validate else " Schema validation in the fake off (the e2e tests do it)."),
        "",
        "| command | servers stored | in flight | p50 | p99 | replies/s | floor p50 | floor p99"
        " | floor replies/s | p99 ÷ floor | floor ÷ throughput | CPU ms/reply (floor) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for cell in run.cells:
        s, f = cell.salud, cell.floor
        lines.append(
            f"| /{cell.command} | {cell.servers:,} | {cell.in_flight} | {ms(s.p(50))} |"
            f" {ms(s.p(99))} | {s.throughput:.0f} | {ms(f.p(50))} | {ms(f.p(99))} |"
            f" {f.throughput:.0f} | {against_floor(s, f)}"
        )
    lines.append("")
    lines.append(
        f"Targets: both ratios ≤ {TARGET_FLOOR} (✗ marks a miss). CPU ms/reply: the bot"
        " process's CPU time per reply, all threads — steadier than latency on a shared machine."
    )
    if run.cells:
        fake_share = max(c.floor.fake_cpu / c.floor.wall for c in run.cells if c.floor.wall)
        floor_share = max(c.floor.bot_cpu / c.floor.wall for c in run.cells if c.floor.wall)
        lines.append(
            f"During the floor's cells the fake and load generator used at most"
            f" {fake_share:.0%} of a core and the floor bot at most {floor_share:.0%}."
        )
    lines += engine_lines(run.engine_cells, CHANGING)
    lines += sqlite_table(run)
    lines += storage_limit_table(run)
    lines += breakdown_table(run)
    if run.scale is not None:
        lines += ["", *scale_report(run.scale)]
    if len(config.servers) >= 2:
        small, large = min(config.servers), max(config.servers)
        lines += [
            "",
            f"{large:,} servers stored against {small:,} (target ≤ {TARGET_SCALE}):",
            "",
            "| command | in flight | p99 × | throughput ÷ | CPU per reply × |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for name in config.commands:
            for in_flight in config.concurrency:
                a, b = run.cell(name, small, in_flight), run.cell(name, large, in_flight)
                if a is None or b is None:
                    continue
                lines.append(
                    f"| /{name} | {in_flight} |"
                    f" {mark(ratio(b.salud.p(99), a.salud.p(99)), TARGET_SCALE)} |"
                    f" {mark(ratio(a.salud.throughput, b.salud.throughput), TARGET_SCALE)} |"
                    f" {mark(ratio(b.salud.cpu_per_reply, a.salud.cpu_per_reply), TARGET_SCALE)} |"
                )
    lines += ["", "Peak memory (VmHWM):", ""]
    for servers, kib in sorted(run.salud_memory.items()):
        size = run.salud_db_size.get(servers, 0) / 1e6
        written = run.populate_seconds.get(servers, 0.0)
        lines.append(
            f"- Salud, {servers:,} servers stored ({size:.0f} MB file, written in"
            f" {written:.1f} s): {kib / 1024:.1f} MiB"
        )
    lines.append(f"- floor: {run.floor_memory / 1024:.1f} MiB")
    if run.floor_sqlite:
        lines.append(f"- floor + SQLite: {run.floor_sqlite_memory / 1024:.1f} MiB")
    problems = [
        f"/{c.command} {c.servers:,} servers {c.in_flight} in flight: Salud"
        f" {len(c.salud.refused)} refused, {c.salud.timeouts} unanswered within Discord's 3 s"
        f" ({c.salud.stored_unanswered} of them stored all the same); floor"
        f" {len(c.floor.refused)} refused, {c.floor.timeouts} unanswered"
        for c in run.cells
        if c.salud.refused or c.salud.timeouts or c.floor.refused or c.floor.timeouts
    ]
    problems += [
        f"/{c.command} {c.in_flight} in flight on PostgreSQL: {len(c.postgres.refused)} refused,"
        f" {c.postgres.timeouts} unanswered ({c.postgres.stored_unanswered} of them stored)"
        for c in run.engine_cells
        if c.postgres.refused or c.postgres.timeouts
    ]
    problems += [
        f"/{FLOOR_SQLITE_COMMAND} {c.in_flight} in flight: floor + SQLite {len(c.result.refused)}"
        f" refused (not stored), {c.result.timeouts} unanswered"
        for c in run.floor_sqlite
        if c.result.refused or c.result.timeouts
    ]
    if problems or run.tracebacks:
        lines += ["", "Problems:", ""]
        lines += [f"- {p}" for p in problems]
        lines += [f"- traceback in a bot log: {t.splitlines()[-1]!r:.200}" for t in run.tracebacks]
    lines += ["", *summary(run)]
    if not detailed:
        return "\n".join(lines) + "\n"
    lines += [
        "",
        "Share of one core used during each cell by each bot and by its fake + load generator:",
        "",
        "| command | servers stored | in flight | Salud | its fake | floor | its fake |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for c in run.cells:
        s, f = c.salud, c.floor
        lines.append(
            f"| /{c.command} | {c.servers:,} | {c.in_flight} | {s.bot_cpu / s.wall:.0%} |"
            f" {s.fake_cpu / s.wall:.0%} | {f.bot_cpu / f.wall:.0%} | {f.fake_cpu / f.wall:.0%} |"
        )
    shares = [(c.in_flight, c.result) for c in run.floor_sqlite if c.result.wall]
    if shares:
        lines += [
            "",
            "Floor + SQLite (/hurt), in flight: its bot, its fake — "
            + "; ".join(
                f"{n}: {r.bot_cpu / r.wall:.0%}, {r.fake_cpu / r.wall:.0%}" for n, r in shares
            )
            + ".",
        ]
    return "\n".join(lines) + "\n"


def engine_misses(run: Run) -> list[str]:
    """The PostgreSQL cells that miss issue 26's aims (trips only in a quick run)."""
    misses = []
    for cell in run.engine_cells:
        missed = cell.missed(cell.command in CHANGING)
        if run.config.quick:
            missed = [miss for miss in missed if "trips" in miss]
        if missed:
            misses.append(f"/{cell.command} at {cell.in_flight} in flight ({', '.join(missed)})")
    return misses


def engine_verdict(run: Run) -> str:
    """One line on PostgreSQL against SQLite (empty when it did not run)."""
    if not run.engine_cells:
        return ""
    misses = engine_misses(run)
    if misses:
        return f"**FAILED on PostgreSQL: {len(misses)} cells miss an aim: {'; '.join(misses)}.**"
    judged = "round trips" if run.config.quick else "CPU per reply and round trips"
    return f"**PostgreSQL: the {len(run.engine_cells)} cells within issue 26's aims ({judged}).**"


def sqlite_table(run: Run) -> list[str]:
    """The floor + SQLite's cells against the floor's (empty when it did not run)."""
    if not run.floor_sqlite:
        return []
    lines = [
        "",
        f"Floor + SQLite (`bench/floor_bot.py --sqlite`): the floor, but every command first runs"
        " one durable transaction through aiosqlite with Salud's pragmas (`BEGIN IMMEDIATE`, one"
        " counter row updated, one history row with a ~600-byte JSON snapshot inserted,"
        " `COMMIT`: one trip to aiosqlite's thread, where a changing command of Salud needs at"
        " least two, as it reads before it writes);"
        f" /{FLOOR_SQLITE_COMMAND} only, each cell"
        " right after the floor's:",
        "",
        "| in flight | p50 | p99 | replies/s | p99 ÷ floor | floor ÷ throughput"
        " | CPU ms/reply (floor) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for cell in run.floor_sqlite:
        r = cell.result
        lines.append(
            f"| {cell.in_flight} | {ms(r.p(50))} | {ms(r.p(99))} | {r.throughput:.0f} |"
            f" {against_floor(r, cell.floor)}"
        )
    sent = sum(c.result.count + c.result.timeouts for c in run.floor_sqlite)
    sent += run.config.warmup if run.config.warmup > 0 else 0
    lines += [
        "",
        f"Its history holds {run.floor_sqlite_stored:,} rows for {sent:,} commands sent"
        f" (warm-up included); it added {run.floor_sqlite_seconds:.0f} s to the run.",
    ]
    return lines


#: Issue 14: a change's CPU per reply against the floor + SQLite (what storing it costs at
#: least), a display's against the floor.
TARGET_LIMIT = 1.25
CHANGING = ("hurt", "conscious", "firstaid")


def storage_limit_table(run: Run) -> list[str]:
    """CPU per reply of each command against its limit: the floor + SQLite's for a change
    (its /hurt cells stand for any change: it answers every command alike), the floor's for
    /character show; at the smallest database (empty when the floor + SQLite did not run)."""
    limits = {c.in_flight: c for c in run.floor_sqlite if c.result.count}
    if not limits or not run.cells:
        return []
    smallest = min(c.servers for c in run.cells)
    lines = [
        "",
        f"Against the storage limit (CPU per reply; target ≤ {TARGET_LIMIT}): a change against"
        " the floor + SQLite, /character show against the floor;"
        f" {smallest:,} servers stored:",
        "",
        "| command | in flight | Salud CPU ms/reply | limit | limit CPU ms/reply | ratio |",
        "| --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for cell in run.cells:
        if cell.servers != smallest or not cell.salud.count:
            continue
        if cell.command in CHANGING:
            limit = limits.get(cell.in_flight)
            if limit is None:
                continue
            name, value = "floor + SQLite", limit.result.cpu_per_reply
        else:
            name, value = "floor", cell.floor.cpu_per_reply
        lines.append(
            f"| /{cell.command} | {cell.in_flight} | {cell.salud.cpu_per_reply * 1000:.2f} |"
            f" {name} | {value * 1000:.2f} |"
            f" {mark(ratio(cell.salud.cpu_per_reply, value), TARGET_LIMIT)} |"
        )
    return lines


def span(values: Sequence[float]) -> str:
    """``1.52–2.10×`` (or ``1.52×`` when they round alike)."""
    low, high = f"{min(values):.2f}", f"{max(values):.2f}"
    return f"{low}×" if low == high else f"{low}–{high}×"


def sqlite_summary(run: Run) -> list[str]:
    """What the floor + SQLite shows, computed from its cells (empty when it did not run)."""
    cells = [c for c in run.floor_sqlite if c.result.count and c.floor.count]
    if not cells:
        return []
    p99 = [ratio(c.result.p(99), c.floor.p(99)) for c in cells]
    throughput = [ratio(c.floor.throughput, c.result.throughput) for c in cells]
    cpu = [ratio(c.result.cpu_per_reply, c.floor.cpu_per_reply) for c in cells]
    worst = [max(a, b) for a, b in zip(p99, throughput, strict=True)]
    missed = sum(1 for value in worst if round(value, 2) > TARGET_FLOOR)
    if missed == len(cells):
        verdict = f"the {TARGET_FLOOR}× target is below the cost of storing a change"
    elif missed:
        verdict = (
            f"storing a change alone misses the {TARGET_FLOOR}× target at {missed} of the"
            f" {len(cells)} concurrencies measured"
        )
    else:
        verdict = f"storing a change alone fits within the {TARGET_FLOOR}× target here"
    if missed < len(cells) and all(round(value, 2) > TARGET_FLOOR for value in cpu):
        verdict += (
            f", and its CPU per reply (steadier) is above {TARGET_FLOOR}× the floor's at"
            " every concurrency: where latency and throughput keep up, aiosqlite's thread"
            " runs on the second core"
        )
    levels = "; ".join(
        f"{c.in_flight} in flight: p99 {a:.2f}×, throughput ÷ {b:.2f}"
        for c, a, b in zip(cells, p99, throughput, strict=True)
    )
    already = "already " if missed == len(cells) else ""
    text = (
        "- A floor that only adds one 4-statement SQLite transaction per command (in one trip"
        f" to aiosqlite's thread, as the rules require) is {already}{span(worst)} the floor (the"
        f" worse of its two ratios; {levels}; CPU per reply {span(cpu)}): {verdict}."
    )
    salud = [
        (cell.salud, sqlite_cell.result)
        for sqlite_cell in cells
        for cell in run.cells
        if cell.command == FLOOR_SQLITE_COMMAND
        and cell.in_flight == sqlite_cell.in_flight
        and cell.salud.count
    ]
    if salud:
        salud_p99 = span([ratio(s.p(99), r.p(99)) for s, r in salud])
        salud_cpu = span([ratio(s.cpu_per_reply, r.cpu_per_reply) for s, r in salud])
        text += (
            f" Salud's /{FLOOR_SQLITE_COMMAND} is {salud_p99} the floor + SQLite's p99 and"
            f" {salud_cpu} its CPU per reply."
        )
    return [text]


def summary(run: Run) -> list[str]:
    """What the figures say, computed from them."""
    if not run.cells:
        return []
    salud = [c.salud.cpu_per_reply for c in run.cells if c.salud.count]
    floor = [c.floor.cpu_per_reply for c in run.cells if c.floor.count]
    lines = [
        "In short:",
        "",
        f"- Salud used {ms(min(salud))}–{ms(max(salud))} ms of CPU per reply, the floor"
        f" {ms(min(floor))}–{ms(max(floor))} ms. Profiled (`python -m bench --py-spy DIR`,"
        " `--profile DIR`), Salud's extra is its round trips to aiosqlite's worker thread (a"
        " queue put, a thread switch and a wake-up of the event loop each: 3 for a /hurt (the"
        " character option, then BEGIN with the read and the writes with COMMIT), 4 for a"
        " /firstaid (two options), 1 for a /character show, down from 16, 24 and 6 when first"
        " measured; `tests/e2e/test_round_trips.py` pins them), discord.py building,"
        " sending and parsing back a richer reply (status embeds with fields, buttons), and"
        " the history's JSON snapshots and their parsing; the rules themselves are under 0.1"
        " ms. `python -m bench --inline-sqlite` runs the same bot with SQLite called on the"
        " loop's own thread (an experiment, not the shipped code) to measure the first part.",
    ]
    if len(run.salud_memory) >= 2:
        small, large = min(run.salud_memory), max(run.salud_memory)
        pairs = [
            (run.cell(c.command, small, c.in_flight), c)
            for c in run.cells
            if c.servers == large and run.cell(c.command, small, c.in_flight) is not None
        ]
        cpu = [ratio(b.salud.cpu_per_reply, a.salud.cpu_per_reply) for a, b in pairs if a]
        lines.append(
            f"- {large:,} servers stored instead of {small:,}: CPU per reply ×"
            f" {min(cpu):.2f}–{max(cpu):.2f}, peak memory {run.salud_memory[large] / 1024:.1f}"
            f" against {run.salud_memory[small] / 1024:.1f} MiB (every query goes through an"
            " index on the server; SQLite's page cache is bounded). The p99 ratios between the"
            f" two swing both ways: p99 rests on the {max(1, run.config.count // 100)} slowest of"
            f" {run.config.count} replies, at the mercy of a machine shared with others."
        )
    busiest = max(c.floor.fake_cpu / c.floor.wall for c in run.cells if c.floor.wall)
    if busiest > 0.8:
        lines.append(
            f"- At the floor's fastest the fake and load generator used up to {busiest:.0%} of a"
            " core: there the floor's throughput is partly the fake's limit, which flatters"
            " Salud's ratios rather than the reverse."
        )
    lines += sqlite_summary(run)
    unanswered = sum(c.salud.timeouts for c in run.cells)
    stored_anyway = sum(c.salud.stored_unanswered for c in run.cells)
    lines.append(
        f"- Unanswered within Discord's 3 s: {unanswered}; of those, changes stored all the"
        f" same: {stored_anyway}."
    )
    return lines


def command_line(config: Config) -> str:
    parts = ["python -m bench"]
    if config.count != DEFAULT_COUNT:
        parts.append(f"--count {config.count}")
    if config.concurrency != DEFAULT_CONCURRENCY:
        parts.append("--concurrency " + ",".join(map(str, config.concurrency)))
    if config.servers != DEFAULT_SERVERS:
        parts.append("--servers " + ",".join(map(str, config.servers)))
    if config.commands != COMMANDS:
        parts.append("--commands " + ",".join(c.replace(" ", "-") for c in config.commands))
    if config.scale != DEFAULT_SIZES:
        parts.append("--scale " + (",".join(map(str, config.scale)) or "''"))
    if config.scale_count != DEFAULT_SCALE_COUNT:
        parts.append(f"--scale-count {config.scale_count}")
    if config.validate:
        parts.append("--validate")
    if config.inline_sqlite:
        parts.append("--inline-sqlite")
    if not config.floor_sqlite:
        parts.append("--no-floor-sqlite")
    if not config.breakdown:
        parts.append("--no-breakdown")
    if config.engines != ENGINES:
        parts.append("--engines " + ",".join(config.engines))
    return " ".join(parts) if len(parts) > 1 else "make bench"


#: docs/BENCHMARK.md from this heading on is written by hand (the profile against the floor,
#: part by part): ``--update-readme`` keeps it.
BENCHMARK_KEPT = "## Against the floor, part by part"

BENCHMARK_INTRO = (
    "# Benchmark\n\n"
    "`make bench` drives the real bot and a bare discord.py bot (the floor:"
    " `bench/floor_bot.py`, which answers the same commands at once with a fixed embed)"
    " through the fake Discord of the tests, and measures every reply from the interaction"
    " sent to the complete reply received. The ratios to the floor are what count: the fake"
    " and the machine cost both bots the same. In the first table Salud runs on a database of"
    " 10 servers and one of 10,000 servers × 5 characters, joined to the 10 servers the"
    " commands go to, and on a PostgreSQL server the run starts (the table *Both engines*:"
    " the same cells on each engine, with the round trips to the server per reply). A third"
    " subject, the floor + SQLite (`bench/floor_bot.py --sqlite`), is"
    " the floor storing every command in one minimal SQLite transaction through aiosqlite:"
    " what a change costs before any of Salud's own work, the limit a changing command is"
    " held to. The scale part (`bench/scale.py`) joins both bots to 10, 1,000 and 10,000"
    " servers under a background stream of events. Every command sent is legal (the"
    " characters are reset between cells), so every figure is a successful change or"
    " display. Written by `python -m bench --update-readme`; the run's full report, with the"
    " CPU use of each process, is also in `bench/results/latest.md`.\n\n"
)


def readme_summary(run: Run) -> list[str]:
    """The few lines the README gives: the scale targets and the storage limit."""
    lines = [
        f"`{command_line(run.config)}` ({run.elapsed / 60:.0f} min, load average before"
        f" {run.load_before}; full tables in [`docs/BENCHMARK.md`](docs/BENCHMARK.md)):",
        "",
    ]
    scale = run.scale
    if scale is not None and scale.sizes:
        top = max(scale.sizes, key=lambda size: size.servers)
        s, f = top.salud, top.floor
        lines.append(
            f"- In {top.servers:,} servers ({s.shards} shards): ready in {s.ready_seconds:.1f} s"
            f" (floor {f.ready_seconds:.1f} s, {mark_ok(s.ready_seconds, f.ready_seconds, 1.25)}),"
            f" peak memory {s.peak_kib / 1024:.0f} MiB (floor {f.peak_kib / 1024:.0f},"
            f" {mark_ok(s.peak_kib, f.peak_kib, 1.0)}), CPU under 500 events/s"
            f" {s.stream_cpu_per_second:.1%} of a core (floor {f.stream_cpu_per_second:.1%},"
            f" {mark_ok(s.stream_cpu_per_second, f.stream_cpu_per_second, 1.0)})."
        )
    limits = {c.in_flight: c.result.cpu_per_reply for c in run.floor_sqlite if c.result.count}
    parts = []
    smallest = min((c.servers for c in run.cells), default=0)
    for name in run.config.commands:
        cells = [c for c in run.cells if c.command == name and c.servers == smallest]
        shown = []
        for cell in cells:
            if cell.in_flight not in (1, 50) or not cell.salud.count:
                continue
            limit = limits.get(cell.in_flight) if name in CHANGING else cell.floor.cpu_per_reply
            if not limit:
                continue
            value = ratio(cell.salud.cpu_per_reply, limit)
            shown.append(f"{value:.2f}{'' if round(value, 2) <= TARGET_LIMIT else ' ✗'}")
        if shown:
            parts.append(f"/{name} {' / '.join(shown)}")
    engines = run.engine_cells
    if engines:
        changes = [c for c in engines if c.command in CHANGING]
        trips = max((c.trips_per_reply for c in changes), default=0.0)
        lines.append(
            f"- On PostgreSQL (the same cells, a server started for the run): at most"
            f" {trips:.2f} round trips to the server a change (aim ≤ 3), CPU per reply"
            f" {span([c.cpu_ratio for c in engines])} SQLite's (aim ≤ 1.25)."
        )
    if parts:
        lines.append(
            f"- CPU per reply against the storage limit (a change: the floor + SQLite; /character"
            f" show: the floor; at 1 / 50 in flight; target ≤ {TARGET_LIMIT}): "
            + "; ".join(parts)
            + "."
        )
    return lines


def mark_ok(value: float, reference: float, target: float) -> str:
    """``0.62× ✓`` against a target ratio."""
    share = ratio(value, reference)
    return f"{share:.2f}× " + ("✓" if round(share, 2) <= target else "✗")


def update_readme(run: Run) -> None:
    """Writes docs/BENCHMARK.md (the full tables) and the short summary of README.md's
    "## Benchmark" section."""
    kept = ""
    if BENCHMARK.exists():
        written = BENCHMARK.read_text(encoding="utf-8")
        at = written.find(BENCHMARK_KEPT)
        kept = "" if at < 0 else "\n" + written[at:]
    BENCHMARK.write_text(BENCHMARK_INTRO + report(run, detailed=False) + kept, encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    match = re.search(r"^## Benchmark\n(.*?)(?=^## |\Z)", readme, flags=re.S | re.M)
    if match is None:
        raise SystemExit("README.md has no '## Benchmark' section")
    intro = (
        "\n`make bench` (a few minutes; `python -m bench --help` for smaller runs) measures Salud"
        " against a bare discord.py bot (the floor) on the fake Discord of the tests: command"
        " latency and CPU per reply, and, joined to up to 10,000 servers, start-up time, memory"
        " and CPU under a stream of events. Latest figures:\n\n"
    )
    body = intro + "\n".join(readme_summary(run)) + "\n\n"
    README.write_text(readme[: match.start(1)] + body + readme[match.end(1) :], encoding="utf-8")


# --- command line -------------------------------------------------------------------------------
DEFAULT_COUNT = 600
DEFAULT_CONCURRENCY = (1, 50, 200)
DEFAULT_SERVERS = (10, 10_000)
DEFAULT_SCALE_COUNT = 200
QUICK_COUNT = 12


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(",") if part.strip())


def parse(argv: Sequence[str]) -> Config:
    env = os.environ
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--count",
        type=int,
        default=int(env.get("SALUD_BENCH_COUNT", DEFAULT_COUNT)),
        help="interactions per cell (SALUD_BENCH_COUNT; default %(default)s)",
    )
    parser.add_argument(
        "--concurrency",
        type=_ints,
        default=_ints(env.get("SALUD_BENCH_CONCURRENCY", "1,50,200")),
        help="interactions in flight, comma-separated (SALUD_BENCH_CONCURRENCY)",
    )
    parser.add_argument(
        "--servers",
        type=_ints,
        default=_ints(env.get("SALUD_BENCH_SERVERS", "10,10000")),
        help="servers × 5 characters stored, comma-separated (SALUD_BENCH_SERVERS)",
    )
    parser.add_argument(
        "--commands",
        default=env.get("SALUD_BENCH_COMMANDS", ",".join(c.replace(" ", "-") for c in COMMANDS)),
        help="comma-separated among hurt,conscious,firstaid,character-show",
    )
    parser.add_argument("--warmup", type=int, default=60, help="unmeasured requests per command")
    parser.add_argument(
        "--validate", action="store_true", help="keep the fake's schema validation of replies"
    )
    parser.add_argument(
        "--update-readme", action="store_true", help="write the figures into README.md"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="profile every cell of Salud and the floor alike (cProfile, bench/profiled.py),"
        " writing DIR/<bot>-<command>-<in flight>.prof; the parts: bench/profile_parts.py",
    )
    parser.add_argument(
        "--py-spy",
        type=Path,
        help="sample Salud with py-spy during the cells, writing DIR/salud-<servers>.txt",
    )
    parser.add_argument(
        "--inline-sqlite",
        action="store_true",
        help="experiment: Salud with aiosqlite's calls on the loop thread (bench/inline_sqlite.py)",
    )
    parser.add_argument(
        "--no-floor-sqlite",
        dest="floor_sqlite",
        action="store_false",
        help="skip the floor + SQLite's /hurt cells (the floor storing each command)",
    )
    parser.add_argument(
        "--scale",
        type=_ints,
        default=_ints(env.get("SALUD_BENCH_SCALE", ",".join(map(str, DEFAULT_SIZES)))),
        help="servers joined in the scale part, comma-separated ('' skips it; SALUD_BENCH_SCALE)",
    )
    parser.add_argument(
        "--scale-count",
        type=int,
        default=DEFAULT_SCALE_COUNT,
        help="interactions per command cell of the scale part (default %(default)s)",
    )
    parser.add_argument(
        "--no-breakdown",
        dest="breakdown",
        action="store_false",
        help="skip the py-spy breakdown of the CPU per reply (bench/breakdown.py)",
    )
    parser.add_argument(
        "--engines",
        default=env.get("SALUD_BENCH_ENGINES", ",".join(ENGINES)),
        help="Salud's storage engines, comma-separated among sqlite,postgres (PostgreSQL:"
        " a server started for the run, devkit/postgres.py)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few interactions a cell of /hurt and /character show at 1 and 4 in flight, on"
        " 10 servers, no scale part or breakdown, no file written; only the round trips judged"
        " (a test's run: tests/bench/test_quick.py)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the databases and logs")
    args = parser.parse_args(argv)
    engines = tuple(e.strip() for e in args.engines.split(",") if e.strip())
    if "sqlite" not in engines or set(engines) - set(ENGINES):
        parser.error("--engines: sqlite, and optionally postgres")
    if args.quick:
        # The warm-up reaches every server once (their caches: no first-time reads measured).
        args.count, args.concurrency, args.servers = QUICK_COUNT, (1, 4), (10,)
        args.warmup = ACTIVE_SERVERS * 2
        args.commands, args.scale, args.breakdown = "hurt,character-show", (), False
    commands = tuple(c.strip().replace("-", " ") for c in args.commands.split(",") if c.strip())
    unknown = set(commands) - set(COMMANDS)
    if unknown:
        parser.error(f"unknown commands {sorted(unknown)}")
    if any(s < ACTIVE_SERVERS for s in args.servers):
        parser.error(f"--servers: at least {ACTIVE_SERVERS} (the servers the requests use)")
    if any(s < ACTIVE_SERVERS for s in args.scale):
        parser.error(f"--scale: at least {ACTIVE_SERVERS} (the servers the requests use)")
    return Config(
        count=args.count,
        concurrency=args.concurrency,
        servers=args.servers,
        commands=tuple(c for c in COMMANDS if c in commands),
        warmup=args.warmup,
        validate=args.validate,
        update_readme=args.update_readme,
        profile=args.profile.resolve() if args.profile else None,
        py_spy=args.py_spy.resolve() if args.py_spy else None,
        inline_sqlite=args.inline_sqlite,
        floor_sqlite=args.floor_sqlite,
        keep=args.keep,
        scale=args.scale,
        scale_count=args.scale_count,
        breakdown=args.breakdown,
        engines=tuple(e for e in ENGINES if e in engines),
        quick=args.quick,
    )


def scale_config(config: Config) -> ScaleConfig:
    """The scale part's settings from the command line (commands and warm-up shared)."""
    return ScaleConfig(
        sizes=config.scale,
        count=config.scale_count,
        commands=config.commands,
        warmup=min(config.warmup, 20),
    )


def workload() -> Workload:
    """This module's tables, requests, resets and budgets, for the scale part."""

    async def table(fake: BenchFake, servers: int) -> object:
        return await make_table(fake, servers)

    def requests(command: str, table: object, count: int) -> list[Request]:
        assert isinstance(table, Table)
        return requests_for(command, table, count)

    def reset(database: Path, guild_ids: Sequence[int], command: str) -> None:
        reset_characters(database, guild_ids, state_for(command))

    return Workload(
        make_table=table,
        requests_for=requests,
        measure=measure,
        reset=reset,
        budget_for=budget_for,
        active_servers=ACTIVE_SERVERS,
    )


def main(argv: Sequence[str] | None = None) -> int:
    config = parse(sys.argv[1:] if argv is None else argv)
    if config.profile is not None:
        config.profile.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="salud-bench-"))
    try:
        with lightweight_validation(not config.validate), contextlib.ExitStack() as servers:
            pg_server = None
            if "postgres" in config.engines:
                log("starting a PostgreSQL server (devkit/postgres.py)")
                pg_server = servers.enter_context(running_postgres())
            run = asyncio.run(bench(config, workdir, pg_server))
            if config.scale:
                run.scale = asyncio.run(run_scale(scale_config(config), workload(), workdir))
                run.elapsed = time.time() - run.started
    finally:
        if not config.keep:
            for path in workdir.iterdir():
                path.unlink()
            workdir.rmdir()
        else:
            log(f"databases and logs kept in {workdir}")
    text = report(run)
    print(text)
    if not config.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "latest.md").write_text(text, encoding="utf-8")
        log(f"written to {RESULTS / 'latest.md'}")
    if config.update_readme:
        update_readme(run)
        log("README.md's Benchmark section and docs/BENCHMARK.md updated")
    failed = (
        any(c.salud.refused or c.salud.timeouts or c.floor.timeouts for c in run.cells)
        or any(c.result.refused or c.result.timeouts for c in run.floor_sqlite)
        or any(c.postgres.refused or c.postgres.timeouts for c in run.engine_cells)
        or bool(engine_misses(run))
        or bool(run.tracebacks)
        or (run.scale is not None and scale_failed(run.scale))
    )
    missed = [cell for cell in goal_cells(run) if cell.failed and not config.quick]
    if engine_misses(run):
        log(engine_verdict(run).strip("*"))
    if missed:
        log(goal_lines(goal_cells(run))[0].strip("*"))
    return 1 if failed or missed else 0


if __name__ == "__main__":
    sys.exit(main())
