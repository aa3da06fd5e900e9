"""Failed and dropped requests and WebSockets are logged at WARNING (``request_log``).

The middleware is tried on a small application behind a real uvicorn server on
loopback (a dropped request needs a real connection to drop), and once inside the
server's own application.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from rummykit.server.bots.service import BotRunner
from rummykit.server.operations.request_log import RequestLog
from rummykit.server.storage.store import Storage
from tests.kit import http_clients
from tests.kit.apps import app_client
from tests.kit.databases import make_settings
from tests.kit.threaded import serving_in_loop
from tests.kit.wait import wait_until_async


async def slow(request: Request) -> Response:
    await request.body()
    # a slow answer's own work, in wall time: long enough to leave before it
    await asyncio.sleep(float(request.query_params.get("seconds", "0.5")))
    return PlainTextResponse("late")


async def fine(_request: Request) -> Response:
    return PlainTextResponse("fine")


async def refused(_request: Request) -> Response:
    return JSONResponse({"error": {"code": "not_found"}}, status_code=404)


async def unavailable(_request: Request) -> Response:
    return JSONResponse({"error": {"code": "busy"}}, status_code=503)


async def broken(_request: Request) -> Response:
    raise RuntimeError("the database went away")


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    with contextlib.suppress(Exception):
        while True:
            await websocket.send_text(await websocket.receive_text())


async def broken_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    raise RuntimeError("the table vanished")


async def closing_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    await websocket.close(code=1011)


APP = RequestLog(
    Starlette(
        routes=[
            Route("/slow", slow, methods=["GET", "POST"]),
            Route("/fine", fine, methods=["GET", "POST"]),
            Route("/refused", refused),
            Route("/unavailable", unavailable),
            Route("/broken", broken),
            WebSocketRoute("/echo", echo),
            WebSocketRoute("/broken", broken_socket),
            WebSocketRoute("/closing", closing_socket),
        ]
    )
)

Scenario = Callable[[int], Awaitable[None]]

SERVING: dict[int, uvicorn.Server] = {}
"""The servers :func:`_serve` runs, by port, for a scenario that waits on their side."""
WebSocketImplementation = Literal["auto", "websockets-sansio"]


async def _serve(scenario: Scenario, ws: WebSocketImplementation) -> None:
    options: dict[str, Any] = {"log_config": None, "lifespan": "off", "ws": ws}
    async with serving_in_loop(APP, **options) as (server, port):
        SERVING[port] = server
        try:
            await scenario(port)
            # the server's side of a drop may come a moment later: every connection
            # closed and every request's task done, on the server's side too
            state = server.server_state
            await wait_until_async(
                lambda: not state.connections and not state.tasks, 10, what="the server's side"
            )
        finally:
            SERVING.pop(port, None)


def warnings_of(
    caplog: pytest.LogCaptureFixture,
    scenario: Scenario,
    ws: WebSocketImplementation = "auto",  # as ``rummykit serve`` runs
) -> list[str]:
    """What the middleware logged while ``scenario`` ran against a live server."""
    with caplog.at_level(logging.WARNING, logger="rummykit.server"):
        asyncio.run(_serve(scenario, ws))
    return [r.getMessage() for r in caplog.records if r.name == "rummykit.server"]


async def _send_and_leave(port: int, request: bytes) -> None:
    """Send ``request`` on a fresh connection, then close it before any answer."""
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    tasks = SERVING[port].server_state.tasks
    await wait_until_async(lambda: tasks, 10, what="the request in the application")
    writer.close()
    await writer.wait_closed()


def test_a_get_dropped_before_its_answer_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(port: int) -> None:
        request = b"GET /slow?seconds=0.5 HTTP/1.1\r\nHost: x\r\n\r\n"
        await _send_and_leave(port, request)

    logged = warnings_of(caplog, scenario)
    assert len(logged) == 1
    assert "event=request_dropped method='GET' path='/slow'" in logged[0]
    assert "status=None" in logged[0]


def test_a_post_dropped_before_its_answer_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(port: int) -> None:
        body = b'{"game": "burraco"}'
        head = f"POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n"
        await _send_and_leave(port, head.encode() + body)

    logged = warnings_of(caplog, scenario)
    assert len(logged) == 1
    assert "event=request_dropped method='POST' path='/slow'" in logged[0]


def test_answered_requests_and_refusals_are_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(port: int) -> None:
        async with http_clients.async_client(base_url=f"http://127.0.0.1:{port}") as http:
            assert (await http.get("/fine")).text == "fine"
            assert (await http.post("/fine", json={"a": 1})).text == "fine"
            assert (await http.get("/slow", params={"seconds": "0.05"})).text == "late"
            assert (await http.get("/refused")).status_code == 404
            assert (await http.get("/nowhere")).status_code == 404

    assert warnings_of(caplog, scenario) == []


def test_server_errors_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(port: int) -> None:
        async with http_clients.async_client(base_url=f"http://127.0.0.1:{port}") as http:
            assert (await http.get("/unavailable")).status_code == 503
            assert (await http.get("/broken")).status_code == 500

    with caplog.at_level(logging.ERROR, logger="uvicorn.error"):
        logged = warnings_of(caplog, scenario)
    assert len(logged) == 2
    assert "event=request_failed method='GET' path='/unavailable'" in logged[0]
    assert "status=503" in logged[0]
    assert "event=request_failed method='GET' path='/broken'" in logged[1]
    assert "status=500 error=\"RuntimeError('the database went away')\"" in logged[1]
    # uvicorn logs the traceback of what escaped as well
    assert any(r.name == "uvicorn.error" and r.exc_info for r in caplog.records)


@pytest.mark.parametrize("implementation", ["auto", "websockets-sansio"])
def test_a_socket_dropped_without_closing_is_logged(
    caplog: pytest.LogCaptureFixture, implementation: WebSocketImplementation
) -> None:
    async def scenario(port: int) -> None:
        async with connect(f"ws://127.0.0.1:{port}/echo") as ws:
            await ws.send("hello")
            assert await ws.recv() == "hello"
            ws.transport.abort()  # the connection is lost, no closing handshake

    logged = warnings_of(caplog, scenario, implementation)
    assert len(logged) == 1
    assert "event=socket_dropped path='/echo'" in logged[0]


@pytest.mark.parametrize("implementation", ["auto", "websockets-sansio"])
@pytest.mark.parametrize("code", [1000, 1001, 4000])
def test_sockets_closed_normally_are_not_logged(
    caplog: pytest.LogCaptureFixture, implementation: WebSocketImplementation, code: int
) -> None:
    async def scenario(port: int) -> None:
        async with connect(f"ws://127.0.0.1:{port}/echo") as ws:
            await ws.send("hello")
            assert await ws.recv() == "hello"
            await ws.close(code=code)

    assert warnings_of(caplog, scenario, implementation) == []


@pytest.mark.parametrize(
    ("disconnect", "dropped"),
    [
        # a closing frame without a code, as a browser's close() sends
        ({"type": "websocket.disconnect", "code": 1005, "reason": ""}, False),
        # the connection lost, as uvicorn's default implementation reports it
        ({"type": "websocket.disconnect", "code": 1005}, True),
        ({"type": "websocket.disconnect", "code": 1006}, True),
    ],
)
def test_a_closing_frame_without_a_code_is_no_drop(
    caplog: pytest.LogCaptureFixture, disconnect: dict[str, Any], dropped: bool
) -> None:
    incoming = [{"type": "websocket.connect"}, disconnect]

    async def receive() -> dict[str, Any]:
        return incoming.pop(0)

    async def send(_message: Any) -> None:
        pass

    scope = {"type": "websocket", "path": "/echo", "headers": []}
    with caplog.at_level(logging.WARNING, logger="rummykit.server"):
        asyncio.run(APP(scope, receive, send))
    assert ("event=socket_dropped" in caplog.text) == dropped


def test_a_socket_refused_before_it_opens_is_not_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario(port: int) -> None:
        with pytest.raises(InvalidStatus):
            async with connect(f"ws://127.0.0.1:{port}/nowhere"):
                pass

    assert warnings_of(caplog, scenario) == []


def test_failed_sockets_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(port: int) -> None:
        for path in ("/broken", "/closing"):
            async with connect(f"ws://127.0.0.1:{port}{path}") as ws:
                with contextlib.suppress(Exception):
                    await ws.recv()

    with caplog.at_level(logging.ERROR, logger="uvicorn.error"):
        logged = warnings_of(caplog, scenario)
    assert len(logged) == 2
    assert "event=socket_failed path='/broken'" in logged[0]
    assert "RuntimeError('the table vanished')" in logged[0]
    assert "event=socket_failed path='/closing'" in logged[1]
    assert "code=1011 by='server'" in logged[1]


def test_the_server_logs_its_own_failed_requests(
    sqlite_url: str,
    bot_runner: BotRunner,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def gone(*_args: Any, **_kwargs: Any) -> Any:
        raise ConnectionError("the database went away")

    settings = make_settings(sqlite_url)
    with app_client(settings, runner=bot_runner, raise_server_exceptions=False) as client:
        assert client.get("/api/tables").status_code == 200
        monkeypatch.setattr(Storage, "open_tables", gone)
        with caplog.at_level(logging.WARNING, logger="rummykit.server"):
            assert client.get("/api/tables").status_code == 500
    failed = [r for r in caplog.records if "event=request_failed" in r.getMessage()]
    assert len(failed) == 1
    assert failed[0].levelno == logging.WARNING
    assert "path='/api/tables'" in failed[0].getMessage()
    assert "ConnectionError('the database went away')" in failed[0].getMessage()
