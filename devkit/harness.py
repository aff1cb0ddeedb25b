# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""The bot as a real subprocess logged in to the fake Discord: start, restart, kill -9, logs."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devkit.fake_discord import FakeDiscord, Reply

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SITECUSTOMIZE_DIR = Path(__file__).resolve().parent / "sitecustomize"
SALUD_COMMAND: tuple[str, ...] = (sys.executable, "-m", "bot")
FLOOR_COMMAND: tuple[str, ...] = (sys.executable, "-m", "bench.floor_bot")
TRACEBACK = re.compile(r"Traceback \(most recent call last\):")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # discord.py's coloured log format


@dataclass(frozen=True)
class RolledDie:
    """One die the bot rolled: its sides, its value, and whether the test scripted it."""

    sides: int
    value: int
    scripted: bool


@dataclass(frozen=True)
class DiceReport:
    """The dice since the script was last ended: what is left of it, what was rolled, and the
    rolls refused (nothing scripted: ``overdrawn``; a value too big for the die: ``refused``)."""

    left: tuple[int, ...]
    rolled: tuple[RolledDie, ...]
    overdrawn: int
    refused: tuple[tuple[int, int], ...]

    def check(self) -> None:
        """AssertionError unless the script was used up and no roll was refused."""
        assert not self.left, f"scripted dice never rolled: {list(self.left)}; {self}"
        assert not self.overdrawn, f"{self.overdrawn} roll(s) with no die scripted: {self}"
        assert not self.refused, f"scripted values too big for their die: {self.refused}"


@dataclass(frozen=True)
class Work:
    """What the bot did for some interactions, once none of the tasks they started runs: the
    round trips to aiosqlite's thread, by interaction id, in order."""

    trips: dict[str, list[str]]

    @property
    def all_trips(self) -> list[str]:
        return [trip for trips in self.trips.values() for trip in trips]


class BotProcess:
    """One bot subprocess bound to one FakeDiscord.

    `start()` returns once the bot has IDENTIFYed (READY sent; `shards` IDENTIFYs for a bot
    that runs several shards) and, when the fake has no
    commands yet, once the first command sync (PUT) arrived; then it waits `settle` seconds
    of grace for a sync that a restart may still do. Interactions dispatched after that are
    processed in order after the GUILD_CREATEs, so tests need no other wait.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        command: Sequence[str] = SALUD_COMMAND,
        database_path: Path,
        log_path: Path,
        token: str = "fake-token",
        extra_env: dict[str, str] | None = None,
        expect_sync: bool = True,
        start_timeout: float = 20.0,
        settle: float = 0.2,
        shards: int = 1,
        probe: bool = False,
    ) -> None:
        self.fake = fake
        self.command = list(command)
        self.database_path = database_path
        self.log_path = log_path
        self.token = token
        self.extra_env = dict(extra_env or {})
        self.expect_sync = expect_sync
        self.start_timeout = start_timeout
        self.settle = settle
        self.shards = shards
        self.probe = probe  # devkit/probe.py in the bot process: scripted dice, trips counted
        self.dice_used = False  # the test scripted dice or allowed real ones (end_dice checks)
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._log_checked = 0  # offset up to which the log was checked for tracebacks
        fake.diagnostics.append(self._diagnostic)

    # --- environment ------------------------------------------------------------------------------
    def env(self) -> dict[str, str]:
        """The bot's environment: token, database, log level, PYTHONPATH with sitecustomize."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SALUD_"))}
        pythonpath = [str(SITECUSTOMIZE_DIR), str(PROJECT_ROOT)]
        if os.environ.get("PYTHONPATH"):
            pythonpath.append(os.environ["PYTHONPATH"])
        env.update(
            {
                "DISCORD_TOKEN": self.token,
                "DATABASE_PATH": str(self.database_path),
                "LOG_LEVEL": "INFO",
                "PYTHONPATH": os.pathsep.join(pythonpath),
                "PYTHONUNBUFFERED": "1",
                "PYTHONDONTWRITEBYTECODE": "1",
                "SALUD_FAKE_DISCORD_URL": self.fake.url,
            }
        )
        if self.probe:
            env["SALUD_DEVKIT_PROBE"] = str(self.probe_port_file)
        env.update(self.extra_env)
        return env

    # --- lifecycle --------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """Whether the process is alive."""
        return self.process is not None and self.process.returncode is None

    @property
    def pid(self) -> int | None:
        """The process id (None before start)."""
        return self.process.pid if self.process is not None else None

    async def start(self, timeout: float | None = None) -> None:
        """Starts the bot and waits until it is logged in (see the class docstring)."""
        if self.running:
            raise RuntimeError("bot already running")
        timeout = self.start_timeout if timeout is None else timeout
        identifies, puts = self.fake.identifies, len(self.fake.command_puts)
        need_sync = self.expect_sync and not self.fake.commands
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.probe_port_file.unlink(missing_ok=True)  # the new process writes its own
        with self.log_path.open("ab") as log:
            log.write(f"\n===== start #{self.starts + 1}: {' '.join(self.command)}\n".encode())
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                *self.command,
                cwd=PROJECT_ROOT,
                env=self.env(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.starts += 1
        deadline = time.monotonic() + timeout
        while True:
            ready = self.fake.identifies >= identifies + self.shards and (
                not need_sync or len(self.fake.command_puts) > puts
            )
            if ready:
                break
            if not self.running:
                raise AssertionError(
                    f"bot exited with code {self.process.returncode} before logging in; log tail:\n"
                    + self.log_tail()
                )
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"bot not logged in after {timeout:.0f} s (identifies={self.fake.identifies}, "
                    f"command syncs={len(self.fake.command_puts)}); log tail:\n{self.log_tail()}"
                )
            await asyncio.sleep(0.02)
        await asyncio.sleep(self.settle)

    async def stop(self, timeout: float = 5.0) -> int | None:
        """SIGTERM, then SIGKILL after `timeout`; returns the exit code."""
        if self.process is None:
            return None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            await self._wait_exit(timeout)
        if self.process.returncode is None:
            self.process.kill()
            await self._wait_exit(timeout)
        return self.process.returncode

    async def kill9(self) -> None:
        """SIGKILL with no warning (a crash or a power cut)."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self._wait_exit(5.0)

    async def restart(self, *, kill: bool = False, timeout: float | None = None) -> None:
        """Stops (SIGTERM, or SIGKILL when `kill`) and starts again with the same database."""
        if kill:
            await self.kill9()
        else:
            await self.stop()
        await self.start(timeout)

    async def _wait_exit(self, timeout: float) -> None:
        assert self.process is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), timeout)

    # --- the probe: scripted dice, the work of an interaction ---------------------------------
    @property
    def probe_port_file(self) -> Path:
        """Where the bot's probe writes the port it listens on (127.0.0.1)."""
        return self.log_path.with_name(self.log_path.name + ".probe-port")

    async def _ask_probe(self, request: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        if not self.probe:
            raise RuntimeError("this bot runs without the probe: BotProcess(probe=True)")
        if not self.running:
            raise AssertionError(f"the bot is not running; log tail:\n{self.log_tail()}")
        try:
            port = int(self.probe_port_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise AssertionError(
                f"the bot's probe wrote no port ({self.probe_port_file}); log tail:\n"
                + self.log_tail()
            ) from None
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=64 * 1024**2)
        try:
            writer.write(json.dumps(request).encode() + b"\n")
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), timeout)
        finally:
            writer.close()
            await writer.wait_closed()
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise AssertionError(f"the bot's probe refused {request}: {answer['error']}")
        return answer

    async def script_dice(self, *values: int) -> None:
        """The values of the next dice the bot rolls, in order (after any still scripted).

        With the probe, a die rolled when none is scripted fails loudly: the bot logs a
        ``ScriptedDiceRanOut`` traceback (which fails an e2e test) unless the test allowed
        real dice (``allow_random_dice``). ``end_dice`` checks that the script was used up.
        """
        self.dice_used = True
        await self._ask_probe({"op": "script", "values": list(values)})

    async def allow_random_dice(self) -> None:
        """Until ``end_dice``, a die with no scripted value is rolled for real (recorded)."""
        self.dice_used = True
        await self._ask_probe({"op": "random", "allowed": True})

    async def dice(self) -> DiceReport:
        """The dice rolled (and left to roll) since the script was last ended."""
        return _dice_report(await self._ask_probe({"op": "dice"}))

    async def end_dice_report(self) -> DiceReport:
        """Ends the script (back to no die scripted and no real one allowed) and returns
        what it was: what is left of it, the dice rolled, the rolls refused."""
        self.dice_used = False
        return _dice_report(await self._ask_probe({"op": "dice", "reset": True}))

    async def end_dice(self) -> DiceReport:
        """``end_dice_report``, checked: every scripted die rolled, no roll refused."""
        report = await self.end_dice_report()
        report.check()
        return report

    async def settled(self, *interactions: Reply | str, timeout: float = 5.0) -> Work:
        """Waits until every task these interactions started in the bot is done (the reply,
        then what the bot does after it: keeping roll-button messages, their sweep, the live
        tracker's edit), and returns their round trips to aiosqlite's thread."""
        ids = [item.record.id if isinstance(item, Reply) else str(item) for item in interactions]
        answer = await self._ask_probe(
            {"op": "settle", "interactions": ids, "timeout": timeout}, timeout + 10.0
        )
        if answer["running"]:
            raise AssertionError(
                f"the bot still runs {answer['running']} for interactions {ids} after "
                f"{timeout} s; log tail:\n{self.log_tail()}"
            )
        return Work({key: list(value) for key, value in answer["trips"].items()})

    async def background_mark(self) -> int:
        """How many round trips of nobody's work (timers, start-up) the bot has sent so far:
        what ``wait_background_trip`` waits after."""
        return int((await self._ask_probe({"op": "background"}))["sent"])

    async def wait_background_trip(self, starts: str, *, after: int, timeout: float) -> str:
        """Waits until a round trip of nobody's work sent after ``after`` (a
        ``background_mark``) whose SQL starts with ``starts`` has come back: e.g. the WAL
        checkpoint the bot runs once no commit came for a while."""
        answer = await self._ask_probe(
            {"op": "background", "starts": starts, "after": after, "timeout": timeout},
            timeout + 10.0,
        )
        if answer["trip"] is None:
            raise AssertionError(
                f"no background trip {starts!r} within {timeout} s; log tail:\n{self.log_tail()}"
            )
        return str(answer["trip"])

    # --- logs -------------------------------------------------------------------------------------
    def log_text(self) -> str:
        """Everything the bot wrote to stdout/stderr so far (all starts), colour codes removed."""
        try:
            return ANSI.sub("", self.log_path.read_text(encoding="utf-8", errors="replace"))
        except FileNotFoundError:
            return ""

    async def wait_for_log(self, text: str, timeout: float = 5.0, *, count: int = 1) -> None:
        """Waits until `text` appears (`count` times) in the log written since this process
        last started. (The log is a file the bot writes: read again every 20 ms.)"""
        deadline = time.monotonic() + timeout
        while self.log_text().rsplit("\n===== start #", 1)[-1].count(text) < count:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{text!r} not logged {count} time(s) within {timeout} s; tail:\n"
                    + self.log_tail()
                )
            await asyncio.sleep(0.02)

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the log."""
        return "\n".join(self.log_text().splitlines()[-lines:])

    def new_tracebacks(self) -> list[str]:
        """Tracebacks written since the last call (each with the 15 lines that follow)."""
        text = self.log_text()
        fresh = text[self._log_checked :]
        self._log_checked = len(text)
        return ["\n".join(fresh[m.start() :].splitlines()[:15]) for m in TRACEBACK.finditer(fresh)]

    def forget_log(self) -> None:
        """Ignore what was logged so far (for a test that provokes a traceback on purpose)."""
        self._log_checked = len(self.log_text())

    def _diagnostic(self) -> str:
        state = (
            "running" if self.running else f"exited ({self.process and self.process.returncode})"
        )
        return f"Bot process {self.pid} {state}; log tail:\n{self.log_tail(25)}"


def _dice_report(answer: dict[str, Any]) -> DiceReport:
    return DiceReport(
        left=tuple(answer["left"]),
        rolled=tuple(RolledDie(int(s), int(v), bool(k)) for s, v, k in answer["rolled"]),
        overdrawn=int(answer["overdrawn"]),
        refused=tuple((int(s), int(v)) for s, v in answer["refused"]),
    )
