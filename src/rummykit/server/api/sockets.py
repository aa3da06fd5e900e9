"""The table WebSocket (``/ws/tables/{id}``): one connection per client and table.

The handler checks the origin and the session, refuses a player who holds
``sockets_per_player`` table sockets open already (``too_many_sockets``, closed with
1008 and the code as its reason), turns away early a stranger to a private
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
import logging
import time
from urllib.parse import urlsplit

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from rummykit.server.accounts.auth import COOKIE_NAME
from rummykit.server.accounts.security import is_table_id
from rummykit.server.api.context import ServerContext, session_player
from rummykit.server.operations.events_log import log_event
from rummykit.server.operations.metrics import SOCKETS
from rummykit.server.protocol.messages import (
    ActionMessage,
    ChatMessage,
    ClaimRequest,
    ErrorMessage,
    FocusLost,
    HintRequest,
    Pong,
    ProtocolError,
    SubstituteRequest,
    parse_client_message,
)
from rummykit.server.protocol.refusals import TableError
from rummykit.server.table.commands import (
    Attach,
    ClientAction,
    ClientChat,
    ClientClaim,
    ClientFocusLost,
    ClientHint,
    ClientSubstitute,
    Detach,
)
from rummykit.server.table.connection import CLOSE_TRY_AGAIN, Connection
from rummykit.server.table.host import STORAGE_FAILURES, TableHost
from rummykit.server.table.remote import RemoteTable

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


async def _refuse(
    websocket: WebSocket,
    code: str,
    message: str,
    params: dict[str, int] | None = None,
    *,
    close_code: int = POLICY_VIOLATION,
) -> None:
    """Accept, send the refusal as an error message, and close (a policy violation by
    default) with the error's code as the reason."""
    await websocket.accept()
    refusal = ErrorMessage(code=code, message=message, params=params or {})
    await websocket.send_text(refusal.model_dump_json())
    await websocket.close(code=close_code, reason=code)


async def _find_host(server: ServerContext, table_id: str) -> TableHost | RemoteTable | None:
    """The table's host or its stand-in; ``None`` for no such table; ``TableError``
    (``table_unavailable``) when it exists but cannot be reached now."""
    if not is_table_id(table_id):
        return None
    try:
        return await server.tables.host(table_id)
    except STORAGE_FAILURES as error:  # the database is unreachable from here just now
        log_event(table_id, "socket_unavailable", level=logging.WARNING, error=repr(error))
        raise TableError("table_unavailable", "the table is busy; try again") from None


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
    slot = await server.sockets.take(player.id)
    if slot is None:
        limit = server.sockets.limit
        await _refuse(
            websocket,
            "too_many_sockets",
            f"you have {limit} connections open already: close a tab or table first",
            params={"limit": limit},
        )
        return
    try:
        await _serve(websocket, server, player.id, player.name, table_id)
    finally:
        await slot.give_back()


async def _serve(
    websocket: WebSocket, server: ServerContext, player_id: str, name: str, table_id: str
) -> None:
    """The table socket of a player with a session, once their socket is counted."""
    try:
        host = await _find_host(server, table_id)
    except TableError:  # between owners for a moment: the client tries again later
        await _refuse(
            websocket,
            "table_unavailable",
            "the table is busy; try again",
            close_code=CLOSE_TRY_AGAIN,
        )
        return
    if host is None:
        await _refuse(websocket, "not_found", "there is no such table")
        return
    token = websocket.query_params.get("token")
    if not host.may_watch(player_id, token):
        await _refuse(websocket, "private_table", "this table is private: use its link")
        return
    # The host decides which seat (if any) this connection speaks for, when it handles
    # the Attach: never from what was read here.  It is queued before any await, so a
    # finished table's host, just loaded, cannot leave memory before the connection is
    # in (messages wait in the outbox until the socket is accepted).
    connection = Connection(player_id=player_id, name=name, token=token)
    host.submit(Attach(connection))
    writer: asyncio.Task[None] | None = None
    SOCKETS.inc()
    try:
        await websocket.accept()
        writer = asyncio.create_task(_write(websocket, connection))
        await _read(websocket, host, connection, server)
    finally:
        SOCKETS.dec()
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
            await websocket.close(code=connection.close_code)


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
            received = time.perf_counter()
            host.submit(ClientAction(connection, parsed.state_number, parsed.action, received))
        elif isinstance(parsed, ChatMessage):
            host.submit(ClientChat(connection, parsed.text, parsed.client_id))
        elif isinstance(parsed, HintRequest):
            host.submit(ClientHint(connection))
        elif isinstance(parsed, ClaimRequest):
            host.submit(ClientClaim(connection))
        elif isinstance(parsed, SubstituteRequest):
            host.submit(ClientSubstitute(connection))
        elif isinstance(parsed, FocusLost):
            host.submit(ClientFocusLost(connection, parsed.state_number))
        else:
            connection.send(Pong())
