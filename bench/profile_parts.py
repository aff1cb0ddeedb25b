"""The profiles of one cell of Salud and of the floor (``python -m bench --profile DIR``), read
part by part side by side: ``python -m bench.profile_parts DIR [--count N]``.

Both bots are profiled alike (``bench/profiled.py``: cProfile on the event loop's thread, timed
by that thread's CPU time), and each profile is cut into the same parts, each the CPU time
spent under the functions that mark it, per reply:

- intake: reading the gateway's frame and turning it into an interaction
  (``DiscordWebSocket.poll_event``: the frame read, the JSON parsed, the parser, the
  interaction built and its task created);
- dispatch: from the command tree's task to the command's callback (``CommandTree._call``
  minus the callbacks: the checks, the options transformed);
- the command: the callback's own work (Salud: the storage's Python side, the rules, the
  rendering; the floor: nothing) — the callback minus its send;
- send: the reply sent by discord.py and aiohttp (``InteractionResponse.send_message`` and
  ``Webhook.send``), up to the HTTP response's headers;
- the event loop and the rest: everything else — ``_run_once`` and ``epoll``, the wake-ups of
  the loop (aiosqlite's results, the HTTP responses read), callbacks and background tasks.

Beside the times, the counts that do not depend on the machine's load: function calls, turns
of the event loop
(``_run_once``), callbacks run (``Handle._run``), HTTP requests and aiosqlite round trips, per
reply. cProfile's own cost per call weighs on the times of both; it is the counts and the
differences between the two columns that are read.
"""

from __future__ import annotations

import argparse
import pstats
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Parts", "parts_of", "table"]

#: (file name ending, function name) of a marked function.
Key = tuple[str, str]

INTAKE: Key = ("discord/gateway.py", "poll_event")
TREE_CALL: Key = ("discord/app_commands/tree.py", "_call")
DO_CALL: Key = ("discord/app_commands/commands.py", "_do_call")
SENDS: tuple[Key, ...] = (
    ("discord/interactions.py", "send_message"),
    ("discord/webhook/async_.py", "send"),
)
RUN_ONCE: Key = ("asyncio/base_events.py", "_run_once")
HANDLE_RUN: Key = ("asyncio/events.py", "_run")
#: Called once per HTTP request (a plain function: its calls are requests, not resumptions).
HTTP_REQUEST: Key = ("aiohttp/client_reqrep.py", "update_body_from_data")
#: aiosqlite's coroutine of a round trip: called, then resumed once when the thread answers.
TRIP: Key = ("aiosqlite/core.py", "_execute")
#: The database drivers' packages (their functions' own time is the "driver" figure).
DRIVERS = ("/aiosqlite/", "/psycopg/", "/psycopg_binary/")


@dataclass(frozen=True)
class Parts:
    """One profile's parts, in ms of CPU per reply, and its counts per reply."""

    intake: float
    dispatch: float
    command: float
    send: float
    rest: float
    total: float
    function_calls: float
    loop_turns: float
    callbacks: float
    http_requests: float
    trips: float
    driver: float  # ms in the database driver's own Python (aiosqlite, psycopg)


Stats = dict[tuple[str, int, str], tuple[int, int, float, float, dict[object, object]]]


def _matching(stats: Stats, key: Key) -> Iterable[tuple[object, tuple[int, int, float, float]]]:
    ending, name = key
    for func, (cc, nc, tt, ct, _callers) in stats.items():
        if func[2] == name and func[0].endswith(ending):
            yield func, (cc, nc, tt, ct)


def _cumulative(stats: Stats, key: Key) -> float:
    return sum(ct for _func, (_cc, _nc, _tt, ct) in _matching(stats, key))


def _calls(stats: Stats, key: Key) -> int:
    """Calls (cProfile counts each resumption of a coroutine as one more)."""
    return sum(cc for _func, (cc, _nc, _tt, _ct) in _matching(stats, key))


def _called_by(stats: Stats, caller: Key) -> float:
    """Cumulative time of every function called by ``caller`` (the command callbacks)."""
    total = 0.0
    for _func, (_cc, _nc, _tt, _ct, callers) in stats.items():
        for who, entry in callers.items():
            assert isinstance(who, tuple)
            if who[2] == caller[1] and str(who[0]).endswith(caller[0]):
                assert isinstance(entry, tuple)
                total += entry[3]
    return total


def parts_of(path: Path, replies: int) -> Parts:
    """The parts of one profile of ``replies`` replies."""
    stats: Stats = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    total = sum(tt for (_cc, _nc, tt, _ct, _callers) in stats.values())
    intake = _cumulative(stats, INTAKE)
    callbacks = _called_by(stats, DO_CALL)
    dispatch = _cumulative(stats, TREE_CALL) - callbacks
    send = sum(_cumulative(stats, key) for key in SENDS)
    command = callbacks - send
    rest = total - intake - dispatch - command - send
    per = 1000.0 / replies

    def count(key: Key) -> float:
        return _calls(stats, key) / replies

    return Parts(
        intake=intake * per,
        dispatch=dispatch * per,
        command=command * per,
        send=send * per,
        rest=rest * per,
        total=total * per,
        function_calls=sum(nc for (_cc, nc, _tt, _ct, _callers) in stats.values()) / replies,
        loop_turns=count(RUN_ONCE),
        callbacks=count(HANDLE_RUN),
        http_requests=count(HTTP_REQUEST),
        trips=count(TRIP) / 2,
        driver=sum(
            tt
            for func, (_cc, _nc, tt, _ct, _callers) in stats.items()
            if any(package in func[0] for package in DRIVERS)
        )
        * per,
    )


ROWS: tuple[tuple[str, str, str], ...] = (
    ("intake (gateway frame → interaction and its task)", "intake", "{:.3f}"),
    ("dispatch (command tree → callback: checks, options)", "dispatch", "{:.3f}"),
    ("the command's own work (storage's Python side, rules, rendering)", "command", "{:.3f}"),
    ("send (discord.py and aiohttp, up to the response)", "send", "{:.3f}"),
    ("the event loop and the rest (wake-ups, responses read, background)", "rest", "{:.3f}"),
    ("**CPU of the loop's thread per reply, profiled**", "total", "**{:.3f}**"),
    (
        "function calls per reply (Python and C, as cProfile counts them)",
        "function_calls",
        "{:.0f}",
    ),
    ("turns of the event loop per reply", "loop_turns", "{:.1f}"),
    ("callbacks run per reply", "callbacks", "{:.1f}"),
    ("HTTP requests per reply", "http_requests", "{:.2f}"),
    ("aiosqlite round trips per reply", "trips", "{:.2f}"),
    ("of the CPU: the database driver's own Python (aiosqlite, psycopg)", "driver", "{:.3f}"),
)


def table(
    cells: Sequence[tuple[str, Parts, Parts]], names: tuple[str, str] = ("Salud", "floor")
) -> list[str]:
    """A markdown table: one row per part, Salud and the floor (or the two ``names``) side
    by side for each cell."""
    head = "| part (ms of CPU per reply, under cProfile) |"
    rule = "| --- |"
    for name, _salud, _floor in cells:
        head += f" {name}: {names[0]} | {names[1]} |"
        rule += " ---: | ---: |"
    lines = [head, rule]
    for label, attribute, form in ROWS:
        line = f"| {label} |"
        for _name, salud, floor in cells:
            line += f" {form.format(getattr(salud, attribute))} |"
            line += f" {form.format(getattr(floor, attribute))} |"
        lines.append(line)
    return lines


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_parts", description=__doc__)
    parser.add_argument("folder", type=Path, help="the DIR of python -m bench --profile DIR")
    parser.add_argument("--count", type=int, default=400, help="replies per cell")
    parser.add_argument("--servers", type=int, default=10, help="Salud's servers stored")
    parser.add_argument(
        "--engines",
        action="store_true",
        help="Salud on PostgreSQL against Salud on SQLite (the profiles of --engines"
        " sqlite,postgres) instead of Salud against the floor",
    )
    args = parser.parse_args(argv)
    subject, against = f"salud-{args.servers}", "floor"
    names = ("Salud", "floor")
    if args.engines:
        subject, against, names = (
            "salud-postgres",
            f"salud-{args.servers}",
            ("PostgreSQL", "SQLite"),
        )
    cells = []
    for other in sorted(args.folder.glob(f"{against}-*.prof")):
        cell = other.stem.removeprefix(f"{against}-")
        salud = args.folder / f"{subject}-{cell}.prof"
        if salud.exists():
            command, _, in_flight = cell.rpartition("-")
            name = f"/{command.replace('-', ' ')} ×{in_flight}"
            cells.append((name, parts_of(salud, args.count), parts_of(other, args.count)))
    print("\n".join(table(cells, names)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
