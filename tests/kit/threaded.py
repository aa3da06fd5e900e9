"""An ASGI app under a real uvicorn server in a thread, on a free port of 127.0.0.1: the
one way the tests serve an app over real sockets in their own process
(:class:`ThreadedServer`), or in the test's own event loop when the test drives it from
that loop (:func:`serving_in_loop`)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from tests.kit.wait import wait_until, wait_until_async

if TYPE_CHECKING:
    import uvicorn


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on at this moment."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


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
