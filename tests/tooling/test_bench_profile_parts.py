"""The profile of a cell cut into parts (bench/profile_parts.py), on a profile written by hand:
each part is the time under the functions that mark it, per reply; the counts are calls."""

from __future__ import annotations

import marshal
from pathlib import Path

from bench.profile_parts import parts_of, table

SITE = "/venv/lib/python3.11/site-packages"
LIB = "/usr/lib/python3.11"


def fn(path: str, name: str) -> tuple[str, int, str]:
    return (path, 1, name)


POLL = fn(f"{SITE}/discord/gateway.py", "poll_event")
CALL = fn(f"{SITE}/discord/app_commands/tree.py", "_call")
DO_CALL = fn(f"{SITE}/discord/app_commands/commands.py", "_do_call")
HURT = fn("/work/cogs/health.py", "hurt")
SEND = fn(f"{SITE}/discord/interactions.py", "send_message")
RUN_ONCE = fn(f"{LIB}/asyncio/base_events.py", "_run_once")
HANDLE = fn(f"{LIB}/asyncio/events.py", "_run")
BODY = fn(f"{SITE}/aiohttp/client_reqrep.py", "update_body_from_data")
TRIP = fn(f"{SITE}/aiosqlite/core.py", "_execute")


def test_parts_and_counts_per_reply(tmp_path: Path) -> None:
    # (calls, primitive calls, own time, cumulative time, callers), for 10 replies
    stats = {
        RUN_ONCE: (40, 40, 0.002, 0.030, {}),
        HANDLE: (80, 80, 0.001, 0.028, {RUN_ONCE: (80, 80, 0.001, 0.028)}),
        POLL: (20, 20, 0.004, 0.004, {HANDLE: (20, 20, 0.004, 0.004)}),
        CALL: (20, 20, 0.002, 0.020, {HANDLE: (20, 20, 0.002, 0.020)}),
        DO_CALL: (20, 20, 0.000, 0.018, {CALL: (20, 20, 0.000, 0.018)}),
        HURT: (20, 20, 0.008, 0.018, {DO_CALL: (20, 20, 0.008, 0.018)}),
        SEND: (20, 20, 0.007, 0.008, {HURT: (20, 20, 0.007, 0.008)}),
        BODY: (10, 10, 0.001, 0.001, {SEND: (10, 10, 0.001, 0.001)}),
        TRIP: (40, 40, 0.000, 0.000, {HURT: (40, 40, 0.000, 0.000)}),
    }
    path = tmp_path / "cell.prof"
    path.write_bytes(marshal.dumps(stats))
    parts = parts_of(path, replies=10)
    assert round(parts.total, 3) == 2.5  # 25 ms of own time in all, over 10 replies
    assert round(parts.intake, 3) == 0.4
    assert round(parts.dispatch, 3) == 0.2  # the tree's 20 ms less the callback's 18
    assert round(parts.send, 3) == 0.8
    assert round(parts.command, 3) == 1.0  # the callback's 18 ms less its send
    assert round(parts.rest, 3) == 0.1
    assert (parts.loop_turns, parts.callbacks, parts.http_requests, parts.trips) == (4, 8, 1, 2)
    lines = table([("/hurt ×1", parts, parts)])
    assert lines[0].startswith("| part (ms of CPU per reply, under cProfile) | /hurt ×1: Salud |")
    assert any(
        line.startswith("| aiosqlite round trips per reply | 2.00 | 2.00 |") for line in lines
    )
