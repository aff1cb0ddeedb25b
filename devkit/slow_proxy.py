"""A slow network between the bot and its PostgreSQL server, on loopback (issue 26): a TCP
proxy on 127.0.0.1 that holds every chunk of bytes, each way, ``delay`` seconds before
passing it on, in order, as a congested link or a server far away would. ``delay`` may be
changed while connections are open (it applies to the bytes read from then on); ``cut()``
closes every connection at once, and while ``refusing`` new ones are closed as soon as they
open: a server that went away, until it is back.

It runs in the test's own event loop: ``async with SlowProxy(port) as proxy`` and give the
bot ``proxy.url(server_url)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from types import TracebackType
from typing import Self

__all__ = ["SlowProxy"]

HOST = "127.0.0.1"
CHUNK = 64 * 1024


class SlowProxy:
    """Listens on a free port of 127.0.0.1 and forwards to ``127.0.0.1:target_port``."""

    def __init__(self, target_port: int, delay: float = 0.0) -> None:
        self.target_port = target_port
        #: Seconds each chunk waits, each way.
        self.delay = delay
        self.port = 0
        self.connections = 0  # accepted so far
        #: Close each new connection at once (the server is away).
        self.refusing = False
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def url(self, server_url: str) -> str:
        """``server_url`` (a ``postgresql://…@127.0.0.1:PORT/…``) through this proxy."""
        return server_url.replace(f"@{HOST}:{self.target_port}/", f"@{HOST}:{self.port}/")

    async def __aenter__(self) -> Self:
        self._server = await asyncio.start_server(self._accept, HOST, 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.close()
        self.cut()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    def cut(self) -> None:
        """Closes every open connection, both ways, now."""
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        self.connections += 1
        if self.refusing:
            client_w.transport.abort()
            return
        try:
            server_r, server_w = await asyncio.open_connection(HOST, self.target_port)
        except OSError:
            client_w.transport.abort()
            return
        self._writers |= {client_w, server_w}
        for reader, writer in ((client_r, server_w), (server_r, client_w)):
            task = asyncio.get_running_loop().create_task(self._pipe(reader, writer))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One direction: each chunk read is written ``delay`` seconds later, in order."""
        held: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def release() -> None:
            while True:
                due, data = await held.get()
                if not data:
                    break
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                writer.write(data)
                await writer.drain()
            writer.close()

        releasing = asyncio.get_running_loop().create_task(release())
        try:
            while data := await reader.read(CHUNK):
                held.put_nowait((time.monotonic() + self.delay, data))
            held.put_nowait((time.monotonic() + self.delay, b""))
            await releasing
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            releasing.cancel()
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await releasing
            writer.transport.abort()
            self._writers.discard(writer)
