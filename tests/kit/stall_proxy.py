"""A TCP relay in front of PostgreSQL that a test can stall: a network partition on
demand for one server process's connections.

While stalled, what the client sends (with ``both_ways``, also what the server sends
back) is held (not lost): :meth:`StallProxy.release`
delivers it late, as a network that heals would.  ``stall_at(marker)`` stalls from the
first packet containing ``marker`` (a statement's text, sent when the statement is
first prepared on a connection), so a test can cut a process off in the middle of a
transaction.  :meth:`StallProxy.drop` is the other partition: every connection is reset
and new ones are refused until :meth:`StallProxy.release`.  ``on_marker`` (with
``stall_at``'s marker, without holding anything) runs a callback just after the packet
with the marker was delivered: a test freezes the client process there, between a
statement and its commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any


class StallProxy:
    def __init__(self, *, host: str = "127.0.0.1", port: int = 5432) -> None:
        self.target = (host, port)
        self._open = asyncio.Event()
        self._open.set()
        self._marker: bytes | None = None
        self._dropping = False
        self.both_ways = False  # whether a stall also holds what the server sends back
        self._after_marker: tuple[bytes, Callable[[], None], int] | None = None
        self._writers: set[asyncio.StreamWriter] = set()
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

    def on_marker(
        self, marker: bytes, callback: Callable[[], None], *, packets_after: int = 0
    ) -> None:
        """Call ``callback`` once, just after delivering the first packet with ``marker``
        (or the ``packets_after``-th packet after it on the same connection: a statement
        is prepared, with its text, before the packet that runs it)."""
        self._after_marker = (marker, callback, packets_after)

    def drop(self) -> None:
        """Reset every connection and refuse new ones (a network that answers with RST)."""
        self._dropping = True
        for writer in list(self._writers):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self._writers.clear()

    def release(self) -> None:
        """Deliver what was held, and relay as usual again."""
        self._marker = None
        self._dropping = False
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
        if self._dropping:
            client_out.transport.abort()
            return
        server_in, server_out = await asyncio.open_connection(*self.target)
        self._writers |= {client_out, server_out}
        upstream = asyncio.create_task(self._pump(client_in, server_out, stallable=True))
        downstream = asyncio.create_task(self._pump(server_in, client_out, stallable=False))
        self._tasks |= {upstream, downstream}

    async def _pump(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, *, stallable: bool
    ) -> None:
        countdown: int | None = None  # packets until on_marker's callback, once armed
        try:
            while data := await source.read(65536):
                if stallable and self._marker is not None and self._marker in data:
                    self._open.clear()
                if (stallable or self.both_ways) and not self._open.is_set():
                    self.stalled_packets += 1
                    await self._open.wait()
                sink.write(data)
                await sink.drain()
                if stallable and self._after_marker is not None and countdown is None:
                    marker, _, packets_after = self._after_marker
                    if marker in data:
                        countdown = packets_after + 1
                if countdown is not None and self._after_marker is not None:
                    countdown -= 1
                    if countdown == 0:
                        callback = self._after_marker[1]
                        self._after_marker = None
                        callback()
        except (ConnectionError, OSError):
            pass
        finally:
            sink.close()
            with contextlib.suppress(ConnectionError, OSError):
                await sink.wait_closed()


class Relay:
    """A :class:`StallProxy` in front of ``port`` (``both_ways``: its stalls hold what
    the server sends back too), run by its own event loop in a thread; used as a context
    manager, it delivers what it held and closes at the block's end."""

    def __init__(self, port: int, *, both_ways: bool = False) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.proxy = StallProxy(port=port)
        self.proxy.both_ways = both_ways
        self.port = self._run(self.proxy.start())

    def __enter__(self) -> Relay:
        return self

    def __exit__(self, *_: object) -> None:
        self.release()
        self.close()

    def _run(self, work: Coroutine[Any, Any, int]) -> int:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout=30)

    def stall(self) -> None:
        self.loop.call_soon_threadsafe(self.proxy.stall)

    def release(self) -> None:
        self.loop.call_soon_threadsafe(self.proxy.release)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.proxy.close(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()
