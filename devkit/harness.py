# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""The bot as a real subprocess logged in to the fake Discord: start, restart, kill -9, logs."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from devkit.fake_discord import FakeDiscord

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SITECUSTOMIZE_DIR = Path(__file__).resolve().parent / "sitecustomize"
SALUD_COMMAND: tuple[str, ...] = (sys.executable, "-m", "bot")
FLOOR_COMMAND: tuple[str, ...] = (sys.executable, "-m", "bench.floor_bot")
TRACEBACK = re.compile(r"Traceback \(most recent call last\):")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # discord.py's coloured log format


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

    # --- logs -------------------------------------------------------------------------------------
    def log_text(self) -> str:
        """Everything the bot wrote to stdout/stderr so far (all starts), colour codes removed."""
        try:
            return ANSI.sub("", self.log_path.read_text(encoding="utf-8", errors="replace"))
        except FileNotFoundError:
            return ""

    async def wait_for_log(self, text: str, timeout: float = 5.0) -> None:
        """Waits until `text` appears in the log written since this process last started."""
        deadline = time.monotonic() + timeout
        while text not in self.log_text().rsplit("\n===== start #", 1)[-1]:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{text!r} not logged within {timeout} s; tail:\n{self.log_tail()}"
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
