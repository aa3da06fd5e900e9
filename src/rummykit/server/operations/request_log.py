"""A WARNING for every request the server failed or that was dropped before its answer.

:class:`RequestLog` is a plain ASGI middleware around the whole application.  It logs,
one ``event=`` line each (``events_log``):

- ``request_failed``: an HTTP request answered with a 5xx status, or whose handler
  raised (the exception goes on to the server, which answers 500 and logs the
  traceback);
- ``request_dropped``: an HTTP request whose client went away before the whole answer
  was sent (for example a client that gave up waiting), logged when the server learns
  of it, with how long the request had run;
- ``socket_failed``: a WebSocket whose handler raised, or that either side closed with
  a code of failure (``FAILURE_CLOSURES``: 1011 internal error, 1009 too big, ...);
- ``socket_dropped``: an accepted WebSocket whose client vanished without a closing
  handshake (code 1006; uvicorn's default WebSocket implementation reports it as 1005
  without a reason, where a closing frame always comes with one).

A request answered normally, a typed 4xx refusal and a WebSocket closed normally by
either side are not logged here.  The middleware never changes a request or an answer.
What uvicorn answers itself, before any application sees a request (a malformed
request, a refused upgrade), uvicorn logs at WARNING on its ``uvicorn.error`` logger.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummykit.server.operations.events_log import log_event

NO_STATUS = 1005
ABNORMAL_CLOSURE = 1006
# Closing codes that say something went wrong (RFC 6455 7.4.1 and the IANA registry):
# protocol error, unacceptable data, invalid payload, message too big, missing extension,
# internal error, try again later, bad gateway, TLS failure.  Not 1001 (going away),
# 1008 (policy: the server's refusals) or 1012 (restart: every socket at shutdown).
FAILURE_CLOSURES = frozenset({1002, 1003, 1007, 1009, 1010, 1011, 1013, 1014, 1015})


class RequestLog:
    """Logs failed and dropped requests and WebSockets of ``app`` at WARNING."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await HttpExchange(scope, receive, send).run(self.app)
        elif scope["type"] == "websocket":
            await SocketExchange(scope, receive, send).run(self.app)
        else:
            await self.app(scope, receive, send)


def _has_body(scope: Scope) -> bool:
    headers = dict(scope.get("headers", ()))
    return b"transfer-encoding" in headers or headers.get(b"content-length", b"0") != b"0"


def _where(scope: Scope) -> dict[str, Any]:
    client = scope.get("client")
    fields: dict[str, Any] = {"path": scope.get("path", "")}
    if scope["type"] == "http":
        fields = {"method": scope.get("method", ""), **fields}
    if client:
        fields["client"] = f"{client[0]}:{client[1]}"
    return fields


class HttpExchange:
    """One HTTP request on its way through the application.

    Once the whole request body is read, one task waits for the server's next message,
    which is ``http.disconnect`` either when the answer is complete or when the client
    has gone: in the second case the request was dropped.  A later ``receive`` of the
    application gets that same message.  A request without a body is read at once (its
    one empty message is kept for the application), so that a handler that never reads
    the body is watched as well.
    """

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        self._receive = receive
        self._send = send
        self.began = time.monotonic()
        self.status: int | None = None
        self.complete = False
        self.dropped = False
        self._first: Message | None = None
        self._watch: asyncio.Task[Message] | None = None

    async def run(self, app: ASGIApp) -> None:
        try:
            if not _has_body(self.scope):
                self._first = await self._read()
            await app(self.scope, self.receive, self.send)
        except Exception as error:
            self._log("request_failed", status=self.status or 500, error=repr(error))
            raise
        finally:
            watch = self._watch
            if watch is not None and not watch.done():
                watch.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watch
        if self.status is not None and self.status >= 500:
            self._log("request_failed", status=self.status)
        elif not self.complete and not self.dropped:
            self._log("request_failed", status=self.status, error="no complete answer")

    async def receive(self) -> Message:
        if self._first is not None:
            message, self._first = self._first, None
            return message
        if self._watch is not None:
            return await asyncio.shield(self._watch)
        return await self._read()

    async def _read(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.disconnect":
            self._disconnected()
        elif not message.get("more_body", False):
            self._watch = asyncio.create_task(self._watch_disconnect())
        return message

    async def _watch_disconnect(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.disconnect":
            self._disconnected()
        return message

    def _disconnected(self) -> None:
        if not self.complete and not self.dropped:
            self.dropped = True
            self._log("request_dropped", status=self.status)

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
        elif message["type"] == "http.response.body" and not message.get("more_body", False):
            self.complete = True
        await self._send(message)

    def _log(self, event: str, **fields: Any) -> None:
        milliseconds = round((time.monotonic() - self.began) * 1000, 1)
        log_event(
            None, event, level=logging.WARNING, **_where(self.scope), **fields, ms=milliseconds
        )


class SocketExchange:
    """One WebSocket on its way through the application."""

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        self._receive = receive
        self._send = send
        self.began = time.monotonic()
        self.accepted = False
        self.closed = False  # by the application

    async def run(self, app: ASGIApp) -> None:
        try:
            await app(self.scope, self.receive, self.send)
        except Exception as error:
            self._log("socket_failed", error=repr(error))
            raise

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "websocket.disconnect" and self.accepted and not self.closed:
            code = message.get("code", 1000)
            lost = code == NO_STATUS and "reason" not in message
            if code == ABNORMAL_CLOSURE or lost:
                self._log("socket_dropped", code=code)
            elif code in FAILURE_CLOSURES:
                self._log("socket_failed", code=code, by="client")
        return message

    async def send(self, message: Message) -> None:
        if message["type"] == "websocket.accept":
            self.accepted = True
        elif message["type"] == "websocket.close":
            self.closed = True
            code = int(message.get("code", 1000))
            if code in FAILURE_CLOSURES:
                self._log("socket_failed", code=code, by="server")
        await self._send(message)

    def _log(self, event: str, **fields: Any) -> None:
        seconds = round(time.monotonic() - self.began, 1)
        log_event(None, event, level=logging.WARNING, **_where(self.scope), **fields, s=seconds)
