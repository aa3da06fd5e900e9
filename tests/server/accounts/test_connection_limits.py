"""The limits on connections of a real ``rummykit serve`` process (a subprocess on a free
port, with small limits so that the counts stay small): one player's table sockets are
capped, requests whose headers never finish are cut after ``header_seconds``, and the
connections past the ceiling are answered 503, even when there are more of them than
the process may open files.  On SQLite and on PostgreSQL (whose pool's connections are
files of the process too).
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.kit import http_clients
from tests.kit.factories import table_body
from tests.kit.processes import (
    ServerProcess,
    bare_environment,
    database_environment,
    free_port,
)
from tests.kit.wait import wait_until

SOCKETS_PER_PLAYER = 4
HEADER_SECONDS = 1.5
MAX_CONNECTIONS = 16
OPEN_FILES = 512  # the server's open-file limit
MARGIN = 4.0  # seconds of slack for a loaded machine


Server = ServerProcess
"""The module's ``rummykit serve`` process (its ``url``, ``port``, ``log``, ``alive()``)."""


@pytest.fixture(scope="module")
def server(
    module_database: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One real server for the module, on either kind of database (on PostgreSQL, its
    pool's connections count among the files the process may open)."""
    folder = tmp_path_factory.mktemp("connection-limits")
    env = bare_environment(
        SECRET_KEY="connection-limits-test",
        SOCKETS_PER_PLAYER=str(SOCKETS_PER_PLAYER),
        HEADER_SECONDS=str(HEADER_SECONDS),
        MAX_CONNECTIONS=str(MAX_CONNECTIONS),
        GUEST_SESSIONS_PER_HOUR="1000",
        BOT_WORKERS="1",
    )
    running = ServerProcess(
        {**env, **database_environment(module_database)},
        free_port(),
        folder / "server.log",
        verbose=False,
        open_files=OPEN_FILES,  # the server may open OPEN_FILES files at most
    )
    try:
        running.start(timeout=90)
        yield running
    finally:
        running.stop()


def guest(server: Server, name: str) -> tuple[str, str]:
    """A new guest's session cookie and a table they made (two bots, not seated)."""
    with http_clients.client(base_url=server.url, timeout=30) as http:
        http.post("/api/session", json={"nickname": name}).raise_for_status()
        body = table_body("three-thirteen", "greedy", "greedy", sit=False)
        created = http.post("/api/tables", json=body)
        created.raise_for_status()
        return http.cookies["rummykit_session"], created.json()["table_id"]


def open_socket(server: Server, cookie: str, table_id: str) -> ClientConnection:
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
        additional_headers={"Cookie": f"rummykit_session={cookie}"},
        open_timeout=30,
    )


def first_message(ws: ClientConnection) -> dict[str, object]:
    message: dict[str, object] = json.loads(ws.recv(timeout=30))
    return message


def test_one_player_s_sockets_past_the_cap_are_refused(server: Server) -> None:
    cookie, table_id = guest(server, "many-tabs")
    with contextlib.ExitStack() as stack:
        held = [
            stack.enter_context(open_socket(server, cookie, table_id))
            for _ in range(SOCKETS_PER_PLAYER)
        ]
        for ws in held:
            assert first_message(ws)["type"] != "error"
        refused = stack.enter_context(open_socket(server, cookie, table_id))
        error = first_message(refused)
        assert error["type"] == "error"
        assert error["code"] == "too_many_sockets"
        assert error["params"] == {"limit": SOCKETS_PER_PLAYER}
        with pytest.raises(ConnectionClosed) as closed:
            refused.recv(timeout=30)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "too_many_sockets")

        # another player is not counted with them
        other_cookie, _ = guest(server, "someone-else")
        with open_socket(server, other_cookie, table_id) as other:
            assert first_message(other)["type"] != "error"

        # a socket closed gives its place back
        held.pop().close()

        def let_in() -> bool:
            again = stack.enter_context(open_socket(server, cookie, table_id))
            message = first_message(again)
            assert message["type"] != "error" or message["code"] == "too_many_sockets"
            return message["type"] != "error"

        wait_until(let_in, 30, what="the closed socket's place given back", interval=0.2)
    assert server.alive()


def raw_connection(server: Server, sent: bytes = b"") -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    if sent:
        connection.sendall(sent)
    return connection


def read_until_closed(connection: socket.socket, seconds: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes, and how long that took."""
    start = time.monotonic()
    connection.settimeout(seconds)
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := connection.recv(4096):
            received += chunk
    return received, time.monotonic() - start


HALF_SENT = {
    "nothing": b"",
    "half a request": b"GET /healthz HTTP/1.1\r\nHost: x\r\n",
    "half a handshake": (
        b"GET /ws/tables/abc HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    ),
}


@pytest.mark.parametrize("sent", HALF_SENT.values(), ids=HALF_SENT.keys())
def test_a_request_whose_headers_never_finish_is_cut(server: Server, sent: bytes) -> None:
    connection = raw_connection(server, sent)
    with connection:
        received, seconds = read_until_closed(connection, HEADER_SECONDS + MARGIN + 5)
    assert received.startswith(b"HTTP/1.1 408 "), received
    assert b'"request_timeout"' in received
    assert seconds < HEADER_SECONDS + MARGIN


def test_a_slow_loris_sending_headers_byte_by_byte_is_cut(server: Server) -> None:
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 200
    connection = raw_connection(server)
    start = time.monotonic()
    with connection:
        with contextlib.suppress(OSError):
            for byte in request:
                connection.sendall(bytes([byte]))
                # a fixed pace in wall time is the point: a byte every 0.1 s, well
                # within the deadline between bytes, yet the headers never finish in time
                time.sleep(0.1)  # the loris's pace, wall time
        received, _ = read_until_closed(connection, MARGIN + 5)
    assert received.startswith(b"HTTP/1.1 408 "), received
    assert time.monotonic() - start < HEADER_SECONDS + MARGIN
    assert server.alive()


def test_a_kept_alive_connection_answers_then_cuts_its_next_half_request(server: Server) -> None:
    with raw_connection(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") as connection:
        first = connection.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 ")
        # idle between requests for longer than the header deadline, in wall time: the
        # keep-alive's own time, which must not count against the next request
        time.sleep(HEADER_SECONDS + 0.5)  # idle past the deadline, wall time
        connection.sendall(b"GET /healthz HTTP/1.1\r\n")
        received, seconds = read_until_closed(connection, HEADER_SECONDS + MARGIN + 5)
    assert b"HTTP/1.1 408 " in received, received  # after the rest of the first answer
    assert received.endswith(b'"request_timeout", "message": "the request\'s headers did not'
                             b' come in time", "params": {}}}')  # fmt: skip
    assert seconds < HEADER_SECONDS + MARGIN


def test_headers_past_the_largest_size_are_refused(server: Server) -> None:
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000
    with raw_connection(server) as connection:
        with contextlib.suppress(OSError):
            connection.sendall(request)
        received, _ = read_until_closed(connection, MARGIN + 5)
    assert received.startswith(b"HTTP/1.1 431 "), received
    assert b'"headers_too_large"' in received


def test_connections_past_the_ceiling_are_answered_503(server: Server) -> None:
    held: list[socket.socket] = []
    try:
        while len(held) < MAX_CONNECTIONS:  # kept-alive connections, each after an answer
            connection = raw_connection(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = connection.recv(65536)
            held.append(connection)
            assert answer.startswith(b"HTTP/1.1 200 "), answer
        busy = http_clients.get(f"{server.url}/healthz", timeout=30)
        assert busy.status_code == 503
        assert busy.json()["error"]["code"] == "server_busy"
        assert busy.headers["retry-after"].isdigit()
        with pytest.raises(InvalidStatus) as refused, open_socket(server, "none", "abc"):
            pass  # a WebSocket handshake is answered 503 too
        assert refused.value.response.status_code == 503
    finally:
        for connection in held:
            connection.close()
    wait_until(
        lambda: http_clients.get(f"{server.url}/healthz", timeout=30).status_code == 200,
        30,
        what="the server no longer busy",
        interval=0.2,
    )
    assert server.alive()


def test_more_idle_connections_than_open_files_do_not_lock_everyone_out(server: Server) -> None:
    idle = [raw_connection(server) for _ in range(OPEN_FILES + 100)]

    def answered() -> bool:
        with contextlib.suppress(httpx.HTTPError):
            return http_clients.get(f"{server.url}/healthz", timeout=5).status_code == 200
        return False

    try:  # the idle ones are cut after HEADER_SECONDS, so others are let in again
        wait_until(answered, 60, what="another connection let in", interval=0.5)
    finally:
        for connection in idle:
            connection.close()
    assert server.alive()
