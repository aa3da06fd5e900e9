"""The table WebSocket (``/ws/tables/{id}``): one connection per client and table.

The handler checks the origin and the session, turns away early a stranger to a private
table without its invitation token, then forwards each valid message to the table's
host and writes what the host queues.  It never decides a seat: the host binds the
connection to its player's seat (or to the watchers) when it attaches it, and moves it
when that player's seat changes.  Oversized, malformed, unknown and too frequent
messages are answered with typed errors and never reach the host; a client that keeps
flooding is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from urllib.parse import urlsplit

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from rummykit.server.auth import COOKIE_NAME
from rummykit.server.context import ServerContext, session_player
from rummykit.server.host import (
    Attach,
    ClientAction,
    ClientChat,
    ClientHint,
    Connection,
    Detach,
    TableHost,
)
from rummykit.server.protocol import (
    ActionMessage,
    ChatMessage,
    ErrorMessage,
    HintRequest,
    Pong,
    ProtocolError,
    parse_client_message,
)
from rummykit.server.remote_table import RemoteTable
from rummykit.server.security import is_table_id

POLICY_VIOLATION = 1008
MAX_STRIKES = 50


class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``.

    >>> bucket = RateLimiter(1.0, 2, clock=lambda: 0.0)
    >>> [bucket.allow() for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, rate: float, burst: int, clock: object = time.monotonic) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._clock = clock
        self._last = self._now()

    def _now(self) -> float:
        clock = self._clock
        assert callable(clock)
        value = clock()
        assert isinstance(value, float)
        return value

    def allow(self) -> bool:
        now = self._now()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


def origin_allowed(websocket: WebSocket, allowed: list[str]) -> bool:
    """No ``Origin`` (not a browser), the server's own origin, or a configured one."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    host = websocket.headers.get("host", "")
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == host


async def _refuse(websocket: WebSocket, code: str, message: str) -> None:
    await websocket.accept()
    await websocket.send_text(ErrorMessage(code=code, message=message).model_dump_json())
    await websocket.close(code=POLICY_VIOLATION)


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    server: ServerContext = websocket.app.state.server
    settings = server.settings
    if not origin_allowed(websocket, settings.allowed_origins):
        await _refuse(websocket, "bad_origin", "connections are accepted from this site only")
        return
    # the session checked against the database (a logout at another worker revokes it)
    player = await session_player(server, websocket.cookies.get(COOKIE_NAME))
    if player is None:
        await _refuse(websocket, "no_session", "start a session first (POST /api/session)")
        return
    host = await server.tables.host(table_id) if is_table_id(table_id) else None
    if host is None:
        await _refuse(websocket, "not_found", "there is no such table")
        return
    token = websocket.query_params.get("token")
    if not host.may_watch(player.id, token):
        await _refuse(websocket, "private_table", "this table is private: use its link")
        return
    # The host decides which seat (if any) this connection speaks for, when it handles
    # the Attach: never from what was read here.  It is queued before any await, so a
    # finished table's host, just loaded, cannot leave memory before the connection is
    # in (messages wait in the outbox until the socket is accepted).
    connection = Connection(player_id=player.id, name=player.name, token=token)
    host.submit(Attach(connection))
    writer: asyncio.Task[None] | None = None
    try:
        await websocket.accept()
        writer = asyncio.create_task(_write(websocket, connection))
        await _read(websocket, host, connection, server)
    finally:
        host.submit(Detach(connection))
        connection.close()
        if writer is not None:
            with contextlib.suppress(Exception):
                await writer


async def _write(websocket: WebSocket, connection: Connection) -> None:
    try:
        while True:
            text = await connection.outbox.get()
            if text is None:
                break
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    if websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=1000)


async def _read(
    websocket: WebSocket,
    host: TableHost | RemoteTable,
    connection: Connection,
    server: ServerContext,
) -> None:
    settings = server.settings
    limiter = RateLimiter(settings.messages_per_second, settings.message_burst)
    strikes = 0
    while not connection.closed:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        data = message.get("text")
        if data is None:
            data = message.get("bytes") or b""
        error: ProtocolError | None = None
        if not limiter.allow():
            error = ProtocolError("rate_limited", "too many messages; slow down")
        elif len(data) > settings.max_message_bytes:
            error = ProtocolError(
                "message_too_large",
                "the message is too large",
                {"max_bytes": settings.max_message_bytes},
            )
        else:
            try:
                parsed = parse_client_message(data)
            except ProtocolError as refused:
                error = refused
        if error is not None:
            strikes += 1
            connection.send(error.to_message(host.state_number))
            if strikes > MAX_STRIKES:
                connection.close()
                with contextlib.suppress(Exception):
                    await websocket.close(code=POLICY_VIOLATION)
                return
            continue
        strikes = 0
        if isinstance(parsed, ActionMessage):
            host.submit(ClientAction(connection, parsed.state_number, parsed.action))
        elif isinstance(parsed, ChatMessage):
            host.submit(ClientChat(connection, parsed.text))
        elif isinstance(parsed, HintRequest):
            host.submit(ClientHint(connection))
        else:
            connection.send(Pong())
