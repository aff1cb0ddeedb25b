"""Where Salud's CPU per reply goes, measured in the benchmark's own run.

A changing command's CPU per reply is held to the floor + SQLite's (what storing a change costs
at least). When it is above, this says by how much each part of the command contributes: py-spy
samples every thread of the running bot (no pause, no tracing overhead) during one extra cell
of the command at 1 in flight, each sample is put in one part by the frames on its stack, and
each part's share of the samples is multiplied by the CPU per reply measured in that cell.

py-spy's own test of whether a thread is idle misses waits inside C code (the event loop's
``epoll``, aiosqlite's thread waiting on its queue, discord.py's heartbeat threads): a sample
whose innermost frame is one of those waits (``IDLE``) is not counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["PARTS", "Breakdown", "parse_samples", "sample", "spy_available"]

#: (part, what marks a sample as that part), in the order they are tried.
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("SQLite and aiosqlite's thread", ()),  # any thread but the main one
    (
        "the character option (resolved from the name index)",
        ("transform (bot/features/characters/option.py",),
    ),
    ("the transaction's Python side (queries sent, snapshots, history rows)", ("(bot/storage/",)),
    ("the rules", ("(rules/",)),
    ("rendering (embeds, sentences, buttons)", ("(bot/render/",)),
    (
        "sending the reply (discord.py, aiohttp)",
        (
            "_send (bot/interaction/sending.py",
            "(discord/webhook/",
            "(aiohttp/http_writer.py",
            "(aiohttp/client_reqrep.py",
            "(aiohttp/connector.py",
            "(aiohttp/client.py",
        ),
    ),
    ("receiving the interaction, the event loop, the rest (discord.py, asyncio)", ("",)),
)


@dataclass
class Breakdown:
    """One command's samples by part, and the CPU per reply of the sampled cell."""

    command: str
    cpu_per_reply: float = 0.0  # seconds
    samples: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return sum(self.samples.values())

    def ms(self, part: str) -> float:
        """The part's CPU milliseconds per reply."""
        return self.cpu_per_reply * 1000 * self.samples[part] / self.total if self.total else 0.0


#: Innermost frames of a thread waiting (in C code, which py-spy takes for busy).
IDLE = (
    "select (selectors.py",
    "_connection_worker_thread (aiosqlite/core.py",
    "wait (threading.py",
    "get (queue.py",
)


def classify(thread: str, frames: Sequence[str]) -> str | None:
    """The part a sample belongs to (None: the thread was waiting)."""
    if not frames or any(mark in frames[-1] for mark in IDLE):
        return None
    if thread != "MainThread":
        return PARTS[0][0]
    for part, marks in PARTS[1:]:
        if any(mark in frame for mark in marks for frame in frames):
            return part
    return PARTS[-1][0]


def parse_samples(text: str) -> Counter[str]:
    """py-spy's raw output (``thread (tid): NAME;frame;frame COUNT`` per line) by part."""
    parts: Counter[str] = Counter()
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        names = stack.split(";")
        thread = names[0].split(": ", 1)[-1]
        part = classify(thread, names[1:])
        if part is not None:
            parts[part] += int(count)
    return parts


def spy_available() -> bool:
    return Path(sys.executable).with_name("py-spy").exists()


@contextlib.asynccontextmanager
async def sample(pid: int, output: Path) -> AsyncIterator[None]:
    """py-spy recording the bot's busy samples (every thread) while the block runs."""
    spy = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("py-spy")),
        *("record", "--pid", str(pid), "--rate", "1000", "--format", "raw", "--threads"),
        *("--nonblocking", "--output", str(output)),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    await asyncio.sleep(1.0)  # attached
    try:
        yield
    finally:
        if spy.returncode is None:
            spy.send_signal(2)  # SIGINT: py-spy writes its file
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(spy.wait(), 20)
