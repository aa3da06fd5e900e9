"""A real server for hostile-client tests: uvicorn on 127.0.0.1 in a thread, and
players that talk to it over real sockets (httpx, websockets)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from rummykit.server.accounts.malformed_http import http_protocol
from rummykit.server.app import create_app
from rummykit.server.settings import Settings
from tests.kit import http_clients
from tests.kit.apps import routes_built
from tests.kit.threaded import ThreadedServer


class LiveServer(ThreadedServer):
    """The server app made from ``settings`` under uvicorn in a thread, speaking HTTP as
    ``rummykit serve`` does; ``create_app_options`` go to :func:`create_app` (a bot
    runner, a clock)."""

    def __init__(self, settings: Settings, **create_app_options: Any) -> None:
        app = routes_built(create_app(settings, **create_app_options))
        super().__init__(app, http=http_protocol())

    def __enter__(self) -> LiveServer:
        self.start()
        return self


class Socket:
    """One WebSocket of a player, every message it receives kept (read in a thread)."""

    def __init__(self, connection: ClientConnection, player: Player) -> None:
        self.connection = connection
        self.player = player
        self.received: list[dict[str, Any]] = []
        self.closed = threading.Event()
        self.failure: Exception | None = None
        self._arrived = threading.Condition()  # notified at each message, and at the close
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for text in self.connection:
                with self._arrived:
                    self.received.append(json.loads(text))
                    self._arrived.notify_all()
        except ConnectionClosed:
            pass
        except Exception as error:
            self.failure = error
        finally:
            with self._arrived:
                self.closed.set()
                self._arrived.notify_all()

    def send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed):
            self.connection.send(json.dumps(message))

    def close(self) -> None:
        self.connection.close()
        self._reader.join(timeout=10)

    def states(self) -> list[dict[str, Any]]:
        return [m for m in list(self.received) if m.get("type") == "state"]

    def next_index(self, cursor: int, predicate: Any, timeout: float = 10.0) -> int:
        """The index of the first message at or after ``cursor`` that ``predicate``
        takes, waiting for it to arrive; fails once the socket is closed without it, or
        after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for index in range(cursor, len(self.received)):
                    if predicate(self.received[index]):
                        return index
                cursor = len(self.received)
                left = deadline - time.monotonic()
                if self.closed.is_set() or left <= 0:
                    break
                self._arrived.wait(left)
        code = self.connection.close_code
        last = self.received[-5:]
        raise AssertionError(f"{self.player.name}: no such message (closed {code}) in {last}")

    def wait_for(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The first message received that ``predicate`` takes (see :meth:`next_index`)."""
        return self.received[self.next_index(0, predicate, timeout)]

    def play_until_seat_moves(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        """From ``state`` (this socket's player to move, or not), play this player's
        turns (draw, then the first discard) until ``seat`` is to move; that state."""
        while state["turn"]["player"] != seat:
            legal = state["legal_actions"]
            action = "draw" if "draw" in legal else next(a for a in legal if a.startswith("disc"))
            number = state["state_number"]
            self.send({"type": "action", "state_number": number, "action": action})
            state = self.wait_for(
                lambda m, n=number: m.get("type") == "state" and m["state_number"] > n
            )
        return state


class Player:
    """A guest with its own cookie jar."""

    def __init__(self, server: LiveServer, name: str) -> None:
        self.server = server
        self.name = name
        self.http = http_clients.client(base_url=server.url, timeout=30)
        response = self.http.post("/api/session", json={"nickname": name})
        assert response.status_code == 200, response.text
        self.cookie = str(response.cookies["rummykit_session"])

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body if body is not None else {})

    def connect(self, table_id: str, token: str | None = None) -> Socket:
        url = f"ws://127.0.0.1:{self.server.port}/ws/tables/{table_id}"
        if token:
            url += f"?token={token}"
        connection = ws_connect(
            url, additional_headers={"Cookie": f"rummykit_session={self.cookie}"}
        ).__enter__()  # closed by Socket.close
        return Socket(connection, self)

    def close(self) -> None:
        self.http.close()


def seat_views_are_theirs(sockets: list[Socket]) -> int:
    """Check that every seat's view a socket received was its own player's at that
    moment (the seat's name in the same message is the player's); how many were."""
    checked = 0
    for sock in sockets:
        for message in sock.states():
            seat = message["seat"]
            if seat is None:
                assert message["observation"]["hand"] is None
                assert message["legal_actions"] == []
                continue
            holder = message["players"][seat]
            assert holder["kind"] == "human" and holder["name"] == sock.player.name, (
                f"{sock.player.name} was sent seat {seat} of {holder['name']}"
            )
            assert message["observation"]["player"] == seat
            checked += 1
    return checked


def play_out(sock: Socket) -> None:
    """Play the socket's seat (first legal move) until the game is over."""
    acted = -1

    def next_turn_or_end(message: dict[str, Any]) -> bool:
        if message.get("type") == "game_over":
            return True
        return (
            bool(message.get("type") == "state" and message["legal_actions"])
            and int(message["state_number"]) > acted
        )

    for _ in range(2_000):
        message = sock.wait_for(next_turn_or_end)
        if message["type"] == "game_over":
            return
        acted = message["state_number"]
        sock.send({"type": "action", "state_number": acted, "action": message["legal_actions"][0]})
    raise AssertionError("the game did not end")
