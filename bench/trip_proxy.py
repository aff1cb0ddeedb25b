"""A counting proxy between a bot and its PostgreSQL server, on 127.0.0.1 (issue 26, point 7):
how many round trips to the database server a change takes, counted on the wire.

Every byte is passed through unchanged; the client's side is read as PostgreSQL's frontend
protocol (after the untyped start-up packets, each message is a type byte and a 4-byte
length). A round trip is a message after which the client waits for the server: a ``Sync``
(``S``: the end of an extended-query batch, one per psycopg pipeline sync or plain execute)
or a simple ``Query`` (``Q``). That is what the engine's trips are, whatever the driver
batches in between.

``python -m bench.trip_proxy TARGET_PORT [--log FILE]``: prints ``LISTEN_PORT CONTROL_PORT``
on its first line; a connection to the control port reads the trips counted so far (one
line) and is closed. With ``--log``, each trip's statements are written to FILE (what
``SALUD_BENCH_TRIP_LOG`` asks of ``make bench``). Run in its own process so that it costs
neither the bot's CPU nor the load generator's (it adds one loopback hop to each trip's
latency).
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
import sys
from collections.abc import AsyncIterator, Callable
from typing import TextIO

__all__ = ["FrontendCounter", "TripProxy", "counting"]

#: Untyped packets a client may send before its start-up message (SSL, GSSAPI, cancel).
_PRE_STARTUP = {80877103, 80877104}
_CANCEL = 80877102
#: The messages after which a client waits for the server's answer.
_WAITS = frozenset(b"SQ")


class FrontendCounter:
    """Reads one client's stream in pieces and counts its round trips (``trips``)."""

    def __init__(self, said: Callable[[list[str]], None] | None = None) -> None:
        self.trips = 0
        self._buffer = bytearray()
        self._started = False  # past the start-up message: typed messages from here on
        self._said = said  # told each trip's statements (``--log``)
        self._statements: list[str] = []
        self._prepared: dict[bytes, str] = {}  # statement name -> its SQL

    def _note(self, kind: int, body: bytes) -> None:
        """The statement a Parse names, a Bind runs or a Query sends."""
        first, rest = body.split(b"\0", 1)
        if kind == ord("P"):
            self._prepared[first] = rest.split(b"\0", 1)[0].decode(errors="replace")
        elif kind == ord("B"):
            name = rest.split(b"\0", 1)[0]
            self._statements.append(self._prepared.get(name, repr(name)))
        else:
            self._statements.append(first.decode(errors="replace"))

    def feed(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        at = 0
        while True:
            if not self._started:
                if len(buffer) - at < 8:
                    break
                length, code = struct.unpack_from("!ii", buffer, at)
                if len(buffer) - at < length:
                    break
                at += length
                if code not in _PRE_STARTUP and code != _CANCEL:
                    self._started = True
                continue
            if len(buffer) - at < 5:
                break
            kind = buffer[at]
            (length,) = struct.unpack_from("!i", buffer, at + 1)
            if len(buffer) - at < 1 + length:
                break
            if self._said is not None and kind in b"PBQ":
                self._note(kind, bytes(buffer[at + 5 : at + 1 + length]))
            if kind in _WAITS:
                self.trips += 1
                if self._said is not None:
                    self._said(self._statements)
                    self._statements = []
            at += 1 + length
        del buffer[:at]


class TripProxy:
    """Forwards each connection to ``target_port``, counting every client's round trips."""

    def __init__(self, target_port: int, log: TextIO | None = None) -> None:
        self.target_port = target_port
        self.counters: list[FrontendCounter] = []
        self.log = log
        self.clients: set[asyncio.Task[None]] = set()  # the connections being passed through

    @property
    def trips(self) -> int:
        return sum(counter.trips for counter in self.counters)

    async def client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        counter = FrontendCounter(self._said if self.log is not None else None)
        self.counters.append(counter)
        task = asyncio.current_task()
        if task is not None:
            self.clients.add(task)
            task.add_done_callback(self.clients.discard)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer, counter.feed), _pipe(up_reader, writer, None))

    def _said(self, statements: list[str]) -> None:
        assert self.log is not None
        shown = " | ".join(" ".join(statement.split())[:90] for statement in statements)
        print(f"trip {self.trips}: {shown or '(an empty Sync)'}", file=self.log, flush=True)

    async def control(self, _reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(f"{self.trips}\n".encode())
        with contextlib.suppress(OSError):
            await writer.drain()
        writer.close()


async def _pipe(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    seen: Callable[[bytes], None] | None,
) -> None:
    try:
        while data := await reader.read(65536):
            if seen is not None:
                seen(data)
            writer.write(data)
            await writer.drain()
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            writer.close()


@contextlib.asynccontextmanager
async def counting(
    target_port: int, log: TextIO | None = None
) -> AsyncIterator[tuple[TripProxy, int]]:
    """A proxy to ``target_port`` served on this loop (a test's), and its port; with ``log``,
    each trip's statements are written there, a line a trip."""
    proxy = TripProxy(target_port, log)
    listen = await asyncio.start_server(proxy.client, "127.0.0.1", 0)
    async with listen:
        yield proxy, listen.sockets[0].getsockname()[1]
        # The clients closed their connections: their pipes end (not cancelled at the end).
        if proxy.clients:
            await asyncio.wait(proxy.clients, timeout=5)


async def _serve(target_port: int, log: TextIO | None) -> None:
    proxy = TripProxy(target_port, log)
    listen = await asyncio.start_server(proxy.client, "127.0.0.1", 0)
    control = await asyncio.start_server(proxy.control, "127.0.0.1", 0)
    ports = [server.sockets[0].getsockname()[1] for server in (listen, control)]
    print(*ports, flush=True)
    async with listen, control:
        await asyncio.gather(listen.serve_forever(), control.serve_forever())


def main() -> None:
    with contextlib.suppress(KeyboardInterrupt):
        log = None
        if len(sys.argv) > 3 and sys.argv[2] == "--log":
            log = open(sys.argv[3], "a", encoding="utf-8")  # noqa: SIM115 (the process's life)
        asyncio.run(_serve(int(sys.argv[1]), log))


if __name__ == "__main__":
    main()
