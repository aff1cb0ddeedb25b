# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""Inside the bot process, for tests only: scripted dice, and round trips to aiosqlite's thread
counted per interaction.

``devkit/sitecustomize/sitecustomize.py`` imports this module and calls ``install(path)`` when
``SALUD_DEVKIT_PROBE`` is set, which ``devkit.harness.BotProcess(probe=True)`` does (the e2e
kit always); production never sets it and never has ``devkit/`` on its path. Nothing here
imports ``bot``: it hooks what the bot uses, whatever module of ``bot/`` uses it —

- ``rules.dice.SystemRoller.roll``: the next scripted die. When none is scripted the roll fails
  loudly (``ScriptedDiceRanOut``: the bot logs its traceback, which fails the test, and the
  user sees the apology), unless the test allowed real dice for the rest of it
  (``allow_random_dice``). Every roll is recorded (sides, value, scripted or not).
- ``discord.Interaction.__init__`` and ``discord.Client.dispatch``: which interaction is being
  parsed, from its construction to the ``interaction`` event that ends its parsing (the
  command's or button's task is created in between). Whoever parses the interaction —
  discord.py's parser or the bot's gateway — builds it and dispatches that event.
- ``asyncio.BaseEventLoop.create_task``: each task remembers the interaction that caused it:
  the one being parsed when it was created, else the one of the task that created it. So the
  work a command starts after its reply (keeping the roll-button message, the roll buttons'
  sweep, the live tracker's edit) counts as that command's, even when the bot runs it in a
  context of its own; work started by a timer (the WAL checkpoint after 1 s of quiet) is
  nobody's. A discord.py view's timeout is a timer too, not work (``TIMERS``).
- ``aiosqlite.core.Connection._execute``: the call every aiosqlite call goes through, i.e. one
  round trip to the connection's thread; counted for the interaction of the running task. The
  trips of nobody's work (a timer's: the WAL checkpoint once the commands stop) are numbered
  as they are sent, and kept once done, so that a test can wait for one sent after a moment.

The harness talks to it over a TCP server on 127.0.0.1 (a free port, written to the file
``SALUD_DEVKIT_PROBE`` names): one JSON request line, one JSON answer line.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
import socketserver
import threading
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

#: Interactions whose trips are remembered (the oldest are forgotten first).
REMEMBERED = 4096
#: Trips of nobody's work remembered once done.
BACKGROUND_REMEMBERED = 1024
#: Tasks that only wait out a timer (discord.py's view timeout: minutes), not the work of the
#: interaction that started them; what they do when it fires is nobody's.
TIMERS = ("View.__timeout_task_impl",)


class ScriptedDiceRanOut(LookupError):
    """The bot rolled a die that the test did not script (and did not allow real dice)."""


class _Dice:
    """The scripted values, the mode, and every roll made; shared by the loop's thread (rolls)
    and the control threads (the harness), hence the lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.script: deque[int] = deque()
        self.random = False
        self.rolled: list[tuple[int, int, bool]] = []  # (sides, value, scripted)
        self.overdrawn = 0  # rolls refused because nothing was scripted
        self.refused: list[tuple[int, int]] = []  # (sides, value) scripted for a smaller die

    def report(self) -> dict[str, Any]:
        return {
            "left": list(self.script),
            "random": self.random,
            "rolled": [list(roll) for roll in self.rolled],
            "overdrawn": self.overdrawn,
            "refused": [list(item) for item in self.refused],
        }

    def reset(self) -> None:
        self.script.clear()
        self.random = False
        self.rolled.clear()
        self.overdrawn = 0
        self.refused.clear()


class _Work:
    """Which interaction caused each task, the tasks of each interaction still running, and
    the trips each made. Touched only on the loop's thread."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.parsing: str | None = None
        self.causes: weakref.WeakKeyDictionary[asyncio.Task[Any], str] = weakref.WeakKeyDictionary()
        self.running: dict[str, set[asyncio.Task[Any]]] = {}
        self.trips: OrderedDict[str, list[str]] = OrderedDict()
        self.nobody = 0  # trips no interaction caused (start-up, timers), numbered when sent
        self.background: deque[tuple[int, str]] = deque(maxlen=BACKGROUND_REMEMBERED)
        self.background_done: asyncio.Event | None = None  # set, then cleared, at each one

    def parsed(self, interaction_id: str | None) -> None:
        """The turn of the loop that parsed the interaction is over."""
        if self.parsing == interaction_id:
            self.parsing = None

    def cause_of_new_task(self, loop: asyncio.AbstractEventLoop) -> str | None:
        if self.parsing is not None:
            return self.parsing
        creator = asyncio.current_task(loop)
        return None if creator is None else self.causes.get(creator)

    def adopt(self, task: asyncio.Task[Any], cause: str) -> None:
        coro = task.get_coro()
        if getattr(coro, "__qualname__", "").endswith(TIMERS):
            return
        if getattr(getattr(coro, "cr_code", None), "co_filename", "") == __file__:
            return  # the probe's own work (the harness's requests), never the bot's
        self.causes[task] = cause
        running = self.running.setdefault(cause, set())
        running.add(task)
        task.add_done_callback(lambda done: self._done(cause, done))

    def _done(self, cause: str, task: asyncio.Task[Any]) -> None:
        running = self.running.get(cause)
        if running is not None:
            running.discard(task)
            if not running:
                del self.running[cause]

    def trip(self, what: str) -> int | None:
        """Counts a trip being sent; for nobody's work, its number (for ``trip_done``)."""
        task = asyncio.current_task()
        cause = None if task is None else self.causes.get(task)
        if cause is None:
            self.nobody += 1
            return self.nobody
        trips = self.trips.get(cause)
        if trips is None:
            trips = self.trips[cause] = []
            while len(self.trips) > REMEMBERED:
                self.trips.popitem(last=False)
        trips.append(what)
        return None

    def trip_done(self, number: int, what: str) -> None:
        """Nobody's trip ``number`` came back."""
        self.background.append((number, what))
        if self.background_done is not None:
            self.background_done.set()
            self.background_done.clear()

    async def background_trip(self, starts: str, after: int, timeout: float) -> str | None:
        """Waits for a trip of nobody's work sent after trip number ``after`` whose words
        start with ``starts`` to come back; its words (None after ``timeout`` s)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if self.background_done is None:
            self.background_done = asyncio.Event()
        while True:
            for number, what in self.background:
                if number > after and what.startswith(starts):
                    return what
            left = deadline - loop.time()
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(self.background_done.wait(), left)
            except TimeoutError:
                return None

    async def settle(self, causes: list[str], timeout: float) -> dict[str, Any]:
        """Waits until no task of these interactions runs (tasks they start meanwhile
        included) and the bot's paced background work (``_busy_pacers``) is done too, at most
        ``timeout`` s; their trips, and what still runs."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        still: list[str] = []
        while loop.time() < deadline:
            pending = [t for cause in causes for t in self.running.get(cause, ()) if not t.done()]
            if pending:
                still = [_describe_task(task) for task in pending]
                await asyncio.wait(pending, timeout=deadline - loop.time())
                continue
            still = _busy_pacers()
            if not still:
                break
            await asyncio.sleep(min(PACER_LOOK, max(0.0, deadline - loop.time())))
        return {
            "trips": {cause: list(self.trips.get(cause, [])) for cause in causes},
            "running": still,
        }


_DICE = _Dice()
_WORK = _Work()

#: How often ``settle`` looks again at the bot's paced background work while it is busy.
PACER_LOOK = 0.01


_PACERS: weakref.WeakSet[Any] = weakref.WeakSet()


def _busy_pacers() -> list[str]:
    """The bot's pacers of background requests that still have work waiting or running: the
    edits a change started (a tracker's, a sweep of old roll buttons) run there, after its
    reply. Found once by their class name (the probe imports nothing of ``bot``)."""
    if not _PACERS:
        import gc

        _PACERS.update(o for o in gc.get_objects() if type(o).__name__ == "RestPacer")
    return [
        f"{pacer!r} (paced work)"
        for pacer in list(_PACERS)
        if not getattr(pacer, "_closed", True)
        and (getattr(pacer, "waiting", 0) or getattr(pacer, "_running", None))
    ]


def _describe_task(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", None) or repr(coro)
    return f"{task.get_name()} ({name})"


def _describe_call(fn: Any, args: tuple[Any, ...]) -> str:
    """A trip in a few words: its SQL's first words, or the statements of a batch."""
    if args and isinstance(args[0], str):
        return " ".join(args[0].split()[:3])
    describe = getattr(fn, "describe", None)  # a batch of statements sent in one trip
    if callable(describe):
        return " + ".join(str(part) for part in describe())
    return str(getattr(fn, "__name__", None) or type(fn).__name__)


# --- the hooks ----------------------------------------------------------------------------------


def _hook_dice() -> None:
    from rules.dice import SystemRoller

    real_roll = SystemRoller.roll

    def roll(self: SystemRoller, sides: int) -> int:
        with _DICE.lock:
            if _DICE.script:
                value = _DICE.script.popleft()
                if not 1 <= value <= sides:
                    _DICE.refused.append((sides, value))
                    raise ValueError(f"the test scripted {value}: not a roll of a d{sides}")
                scripted = True
            elif _DICE.random:
                value, scripted = real_roll(self, sides), False
            else:
                _DICE.overdrawn += 1
                raise ScriptedDiceRanOut(
                    f"the bot rolled a d{sides} that the test did not script "
                    "(BotProcess.script_dice, or allow_random_dice)"
                )
            _DICE.rolled.append((sides, value, scripted))
        return value

    SystemRoller.roll = roll  # type: ignore[method-assign]


#: The interaction whose parsing is under way, for the contexts copied meanwhile: work the
#: bot runs later in a context it kept (its pacer's) counts for that interaction too.
_CAUSE: contextvars.ContextVar[str | None] = contextvars.ContextVar("probe_cause", default=None)


def _hook_interactions() -> None:
    import discord

    interaction_class = discord.Interaction
    build = interaction_class.__init__

    def __init__(self: Any, *, data: Any, state: Any) -> None:
        loop = asyncio.get_running_loop()
        if _WORK.loop is None:
            _WORK.loop = loop
        parsing = str(data.get("id")) if isinstance(data, dict) else None
        _WORK.parsing = parsing
        _CAUSE.set(parsing)
        loop.call_soon(_WORK.parsed, parsing)  # in case its parsing fails before its event
        build(self, data=data, state=state)

    interaction_class.__init__ = __init__  # type: ignore[method-assign]

    client_class = discord.Client
    dispatch = client_class.dispatch

    def dispatch_event(self: Any, event: str, /, *args: Any, **kwargs: Any) -> None:
        try:
            dispatch(self, event, *args, **kwargs)
        finally:
            if event == "interaction":
                _WORK.parsing = None
                _CAUSE.set(None)

    client_class.dispatch = dispatch_event  # type: ignore[method-assign]


def _hook_tasks() -> None:
    base = asyncio.BaseEventLoop
    create_task = base.create_task

    def counted_create_task(
        self: asyncio.BaseEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
    ) -> asyncio.Task[Any]:
        task = create_task(self, coro, **kwargs)
        if self is _WORK.loop:  # the bot's loop (a control thread's own loop is not followed)
            context = kwargs.get("context")
            kept = None if context is None else context.get(_CAUSE)
            cause = kept if kept is not None else _WORK.cause_of_new_task(self)
            if cause is not None:
                _WORK.adopt(task, cause)
        return task

    base.create_task = counted_create_task  # type: ignore[assignment,method-assign]


def _hook_trips() -> None:
    import aiosqlite.core

    connection = aiosqlite.core.Connection
    execute: Callable[..., Any] = connection._execute

    async def _execute(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if _WORK.loop is None:  # the bot's loop, known from its first trip (at start-up)
            _WORK.loop = asyncio.get_running_loop()
        what = _describe_call(fn, args)
        number = _WORK.trip(what)
        result = await execute(self, fn, *args, **kwargs)
        if number is not None:
            _WORK.trip_done(number, what)
        return result

    connection._execute = _execute  # type: ignore[method-assign]


# --- the control server -------------------------------------------------------------------------


def _on_loop(job: Callable[[], Coroutine[Any, Any, dict[str, Any]]], timeout: float) -> Any:
    """Runs ``job()`` on the bot's loop (where the work is kept), from a control thread."""
    loop = _WORK.loop
    if loop is None:  # the storage is not even open: nothing ran, nothing to wait for
        return asyncio.run(job())
    return asyncio.run_coroutine_threadsafe(job(), loop).result(timeout)


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "script":
        values = [int(value) for value in request["values"]]
        with _DICE.lock:
            _DICE.script.extend(values)
            return {"left": len(_DICE.script)}
    if op == "random":
        with _DICE.lock:
            _DICE.random = bool(request.get("allowed", True))
            return {"random": _DICE.random}
    if op == "dice":
        with _DICE.lock:
            report = _DICE.report()
            if request.get("reset"):
                _DICE.reset()
            return report
    if op == "settle":
        causes = [str(cause) for cause in request["interactions"]]
        timeout = float(request.get("timeout", 5.0))

        async def settle() -> dict[str, Any]:
            return await _WORK.settle(causes, timeout)

        return dict(_on_loop(settle, timeout + 5.0))
    if op == "background":
        starts = request.get("starts")
        if starts is None:
            return {"sent": _WORK.nobody}
        after, timeout = int(request["after"]), float(request.get("timeout", 5.0))

        async def background() -> dict[str, Any]:
            return {"trip": await _WORK.background_trip(str(starts), after, timeout)}

        return dict(_on_loop(background, timeout + 5.0))
    raise ValueError(f"unknown request {op!r}")


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        try:
            answer = _answer(json.loads(self.rfile.readline()))
        except Exception as error:  # the harness raises it in the test
            answer = {"error": f"{type(error).__name__}: {error}"}
        self.wfile.write(json.dumps(answer).encode() + b"\n")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def _serve(port_file: Path) -> None:
    server = _Server(("127.0.0.1", 0), _Handler)
    port = int(server.server_address[1])
    written = port_file.with_name(port_file.name + ".tmp")
    written.write_text(str(port), encoding="utf-8")
    os.replace(written, port_file)
    threading.Thread(target=server.serve_forever, name="devkit-probe", daemon=True).start()


def install(port_file: str) -> None:
    """Hooks the dice, the interactions, the tasks and the trips; serves the harness."""
    _hook_dice()
    _hook_interactions()
    _hook_tasks()
    _hook_trips()
    _serve(Path(port_file))
