"""Run a bot module under cProfile switched on and off by signals, so that the benchmark
profiles the same cell of Salud and of the floor, and nothing else (not the start, the
imports, the warm-up): ``python -m bench.profiled OUT MODULE [ARGS...]``.

SIGUSR1 starts recording; SIGUSR2 stops it and writes ``OUT-<n>.prof`` (n = 1, 2, …, one
file per cell), timed by the CPU time of the thread (``time.thread_time``), so that a wait
in ``epoll`` costs nothing. cProfile records the thread that runs the event loop
(aiosqlite's thread is not in it, for either bot); its own cost per call is the same for
both, so the parts are read side by side (``bench/profile_parts.py``), not as absolute
times.
"""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys
import time
from types import FrameType

__all__ = ["main"]


def main(argv: list[str]) -> None:
    out, module, *rest = argv
    # The CPU time of the loop's thread, not the wall clock: a wait in epoll is no cost.
    profiler = cProfile.Profile(time.thread_time)
    written = 0

    def start(_signal: int, _frame: FrameType | None) -> None:
        profiler.clear()
        profiler.enable()

    def stop(_signal: int, _frame: FrameType | None) -> None:
        nonlocal written
        profiler.disable()
        written += 1
        profiler.dump_stats(f"{out}-{written}.prof")

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = [module, *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
