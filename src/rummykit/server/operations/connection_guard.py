"""The guard on the server's connections, below the application: uvicorn's HTTP protocol
(httptools) with a deadline on request headers and a ceiling on open connections.

uvicorn times out only an idle kept-alive connection, and only after a response: a
connection that never finishes its first request's headers (a half-open request, a
WebSocket handshake never completed, a slow-loris sending a byte now and then) was kept
for ever, and enough of them spent every file descriptor the process may open, so that
nobody else could connect.  :func:`guarded_http` makes the protocol that

- gives every request ``header_seconds`` from its first byte (from the connection's
  opening for the first request) to finish its headers, else answers 408
  (``request_timeout``) and closes the connection;
- answers 431 (``headers_too_large``) and closes when a request's headers pass
  ``max_header_bytes``;
- answers 503 (``server_busy``, with ``Retry-After``) to the request of a connection
  opened while ``max_connections`` connections (HTTP and WebSocket) are open already,
  and closes it, instead of taking it in.  Such a connection has at most a second to
  send its request's headers.

The connections already open are never touched by the ceiling.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

BUSY_HEADER_SECONDS = 1.0
RETRY_AFTER_SECONDS = 5

REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large", 503: b"Busy"}


def _json(body: dict[str, object]) -> bytes:
    return json.dumps(body).encode()


# the bodies of the guard's answers, shaped as every error of the server
BUSY_BODY = _json(
    {
        "error": {
            "code": "server_busy",
            "message": "the server has too many connections; try again shortly",
            "params": {},
        }
    }
)
TIMEOUT_BODY = _json(
    {
        "error": {
            "code": "request_timeout",
            "message": "the request's headers did not come in time",
            "params": {},
        }
    }
)
TOO_LARGE_BODY = _json(
    {
        "error": {
            "code": "headers_too_large",
            "message": "the request's headers are too large",
            "params": {},
        }
    }
)


def raw_answer(status: int, body: bytes) -> bytes:
    """A whole HTTP/1.1 answer that closes its connection."""
    head = [
        b"HTTP/1.1 %d %s" % (status, REASONS[status]),
        b"content-type: application/json",
        b"content-length: %d" % len(body),
        b"connection: close",
    ]
    if status == 503:
        head.append(b"retry-after: %d" % RETRY_AFTER_SECONDS)
    return b"\r\n".join(head) + b"\r\n\r\n" + body


async def answer_busy(scope: Any, receive: Any, send: Any) -> None:
    """The ASGI application of a connection past the ceiling: 503, then close."""
    headers = [
        (b"content-type", b"application/json"),
        (b"connection", b"close"),
        (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": BUSY_BODY})


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with the guard's limits (set by
    :func:`guarded_http` on a subclass)."""

    header_seconds: float = 10.0
    max_header_bytes: int = 32_768
    max_connections: int = 4096

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._headers_due: asyncio.TimerHandle | None = None
        self._header_bytes = 0
        self._busy = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._busy = True
            self.app = answer_busy
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_done()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._headers_due is not None:
            self._header_bytes += len(data)
        super().data_received(data)
        if self._headers_due is not None and self._header_bytes > self.max_header_bytes:
            self._answer_and_close(431, TOO_LARGE_BODY)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._await_headers()  # the next request on a kept-alive connection

    def on_headers_complete(self) -> None:
        self._headers_done()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        if self._busy:
            self._answer_and_close(503, BUSY_BODY)
            return
        super().handle_websocket_upgrade()

    def _await_headers(self) -> None:
        if self._headers_due is None:
            seconds = BUSY_HEADER_SECONDS if self._busy else self.header_seconds
            self._headers_due = self.loop.call_later(seconds, self._headers_late)

    def _headers_done(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None
        self._header_bytes = 0

    def _headers_late(self) -> None:
        self._headers_due = None
        self._answer_and_close(408, TIMEOUT_BODY)

    def _answer_and_close(self, status: int, body: bytes) -> None:
        """Answer ``status`` (unless an answer is being written) and close."""
        self._headers_done()
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:
            self.transport.write(raw_answer(status, body))
        self.transport.close()


def guarded_http(
    *, header_seconds: float, max_header_bytes: int, max_connections: int
) -> type[GuardedHttp]:
    """The HTTP protocol class to give uvicorn (``http=``) with these limits."""
    return type(
        "GuardedHttp",
        (GuardedHttp,),
        {
            "header_seconds": header_seconds,
            "max_header_bytes": max_header_bytes,
            "max_connections": max_connections,
        },
    )
