"""An ASGI app under a real uvicorn server in a thread, on a free port of 127.0.0.1: the
one way the tests serve an app over real sockets in their own process
(:class:`ThreadedServer`), or in the test's own event loop when the test drives it from
that loop (:func:`serving_in_loop`)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

from tests.kit.wait import wait_until, wait_until_async

if TYPE_CHECKING:
    import uvicorn


FIRST_PORT = 20_000
"""The first port the tests' servers are given: below Linux's ephemeral ports (32768 on),
which the system hands out to any socket bound to port 0, and above Ray's workers' ports
(10002 to 19999)."""

PORTS_PER_PROCESS = 2_000
"""How many ports each pytest-xdist process has to itself."""

RANGES = 6
"""How many processes' ranges there are (up to port 32000): a seventh process shares
the first's."""


def own_ports(worker: str) -> Iterator[int]:
    """The ports of the test process ``worker`` (pytest-xdist's name, ``gw0`` and on),
    one after the other and round again, from a place drawn at random (so that two runs
    at once seldom start at the same port)."""
    number = worker.removeprefix("gw")
    first = FIRST_PORT + (int(number) if number.isdigit() else 0) % RANGES * PORTS_PER_PROCESS
    start = random.randrange(PORTS_PER_PROCESS)
    ports = [first + (start + step) % PORTS_PER_PROCESS for step in range(PORTS_PER_PROCESS)]
    return itertools.cycle(ports)


_PORTS = own_ports(os.environ.get("PYTEST_XDIST_WORKER", "gw0"))


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on at this moment, from this test process's own
    range.  A port drawn by the system (bind to port 0) could be drawn again by another
    test process while its server was killed and not yet started again, and that
    process's server would then answer on it: ports of one range go to one process, and
    in turn, so that one is handed out again only after all the others."""
    for _ in range(PORTS_PER_PROCESS):
        port = next(_PORTS)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:  # in use, or its last connections still closing
                continue
            return port
    raise RuntimeError(f"none of this test process's {PORTS_PER_PROCESS} ports is free")


class ThreadedServer:
    """``app`` under uvicorn in a daemon thread; ``uvicorn_options`` go to its ``Config``
    (``http=`` for the protocol, ``lifespan=``, ``ws=``...).

    Start it with :meth:`start` (or ``with``), which returns once the server listens.
    """

    def __init__(self, app: Any, **uvicorn_options: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        options: dict[str, Any] = {"log_level": "warning", **uvicorn_options}
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, **options)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> ThreadedServer:
        self.thread.start()

        def listening() -> bool:
            if not self.thread.is_alive():
                raise RuntimeError("the test server stopped while starting")
            return bool(self.server.started)

        wait_until(listening, 60, what="the test server's start")
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def __enter__(self) -> ThreadedServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


@contextlib.asynccontextmanager
async def serving_in_loop(
    app: Any, **uvicorn_options: Any
) -> AsyncIterator[tuple[uvicorn.Server, int]]:
    """``app`` under uvicorn in the running event loop, on a port of 127.0.0.1 it picks
    (``uvicorn_options`` go to its ``Config``): the server and its port, once it listens;
    stopped at the end (its connections closed, its requests' tasks done)."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, **uvicorn_options)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())

    def listening() -> bool:
        if task.done():
            raise RuntimeError("the test server stopped while starting")
        return bool(server.started)

    try:
        await wait_until_async(listening, 60, what="the test server's start")
        yield server, int(server.servers[0].sockets[0].getsockname()[1])
    finally:
        server.should_exit = True
        await task
