"""A TCP relay in front of PostgreSQL that a test can stall: a network partition on
demand for one server process's connections.

While stalled, what the client sends is held (not lost): :meth:`StallProxy.release`
delivers it late, as a network that heals would.  ``stall_at(marker)`` stalls from the
first packet containing ``marker`` (a statement's text, sent when the statement is
first prepared on a connection), so a test can cut a process off in the middle of a
transaction.
"""

from __future__ import annotations

import asyncio
import contextlib


class StallProxy:
    def __init__(self, *, host: str = "127.0.0.1", port: int = 5432) -> None:
        self.target = (host, port)
        self._open = asyncio.Event()
        self._open.set()
        self._marker: bytes | None = None
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.stalled_packets = 0

    async def start(self) -> int:
        """Listen on a free port of 127.0.0.1; that port."""
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    def stall(self) -> None:
        """Hold everything clients send from now on."""
        self._open.clear()

    def stall_at(self, marker: bytes) -> None:
        """Hold everything clients send from the first packet containing ``marker``."""
        self._marker = marker

    def release(self) -> None:
        """Deliver what was held, and relay as usual again."""
        self._marker = None
        self._open.set()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _relay(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        server_in, server_out = await asyncio.open_connection(*self.target)
        upstream = asyncio.create_task(self._pump(client_in, server_out, stallable=True))
        downstream = asyncio.create_task(self._pump(server_in, client_out, stallable=False))
        self._tasks |= {upstream, downstream}

    async def _pump(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, *, stallable: bool
    ) -> None:
        try:
            while data := await source.read(65536):
                if stallable:
                    if self._marker is not None and self._marker in data:
                        self._open.clear()
                    if not self._open.is_set():
                        self.stalled_packets += 1
                        await self._open.wait()
                sink.write(data)
                await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            sink.close()
            with contextlib.suppress(ConnectionError, OSError):
                await sink.wait_closed()
