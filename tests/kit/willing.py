"""Scripted, willing people who play a table through the workers a test lets them reach,
answering every turn at once and reconnecting whenever their socket closes; every view's
arrival time is kept, so that a test can tell how long a cut stranded each of them, and
which of their seat's moves a substitute made."""

from __future__ import annotations

import json
import random
import threading
import time
from itertools import pairwise
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from tests.kit.scripted import choose
from tests.kit.site import Site
from tests.kit.wait import wait_until


class Person:
    """One scripted, willing person at seat 0, through whichever worker the balancer
    picks; every view's arrival time kept."""

    def __init__(self, site: Site, name: str, *, seed: int) -> None:
        self.site = site
        self.name = name
        self.rng = random.Random(seed)
        self.ports = [w.port for w in site.workers]
        port = self.ports[0]
        response = httpx.post(f"http://127.0.0.1:{port}/api/session", json={"nickname": name})
        response.raise_for_status()
        self.cookie = str(response.cookies["rummykit_session"])
        self.sent: dict[int, str] = {}
        self.views: list[tuple[float, int, int]] = []  # (time, socket number, state number)
        self.sockets = 0
        self.refusals: list[tuple[str, int | None]] = []  # (error code, close code)
        self.over: dict[str, Any] | None = None
        self.failure: BaseException | None = None
        self.stop = threading.Event()
        self.pace = 0.0  # seconds a move takes the person (wall time: a game outlasts a cut)

    def post(self, port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = httpx.post(
            f"http://127.0.0.1:{port}{path}",
            json=body,
            cookies={"rummykit_session": self.cookie},
            timeout=15,
        )
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found

    def play(self, table_id: str) -> None:
        try:
            deadline = time.monotonic() + 240
            while self.over is None and not self.stop.is_set():
                assert time.monotonic() < deadline, f"{self.name}: the game did not end"
                port = self.rng.choice(self.ports)
                url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
                headers = {"Cookie": f"rummykit_session={self.cookie}"}
                try:
                    with connect(url, additional_headers=headers, open_timeout=1) as ws:
                        self.sockets += 1
                        self._converse(ws, self.sockets)
                except (ConnectionClosed, TimeoutError, OSError, InvalidStatus):
                    pass
                # the browser's first retry waits about this long: part of what a person
                # is stranded for, so a pause of wall time
                time.sleep(0.2)  # a browser's retry pause, wall time
        except BaseException as error:  # reported by the test
            self.failure = error

    def _converse(self, ws: Any, socket_number: int) -> None:
        acted = -1
        while True:
            # a willing person waits as long as it takes: only the server ends a socket
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "game_over":
                self.over = message
                return
            if message["type"] == "error":
                if message["code"] in ("not_found", "table_unavailable"):
                    self.refusals.append((message["code"], None))
                continue
            if message["type"] != "state":
                continue
            assert message["seat"] == 0, f"{self.name} was sent seat {message['seat']}"
            number = int(message["state_number"])
            self.views.append((time.monotonic(), socket_number, number))
            if message["legal_actions"] and number != acted:
                acted = number
                action = self.sent.get(number) or choose(number, message["legal_actions"])
                self.sent[number] = action
                if self.pace:
                    time.sleep(self.pace)  # the person's pace, wall time
                ws.send(json.dumps({"type": "action", "state_number": number, "action": action}))

    def wait_for_moves(self, moves: int, before: str) -> None:
        """Wait until the person has sent ``moves`` actions, the game still under way."""

        def enough() -> bool:
            assert self.failure is None, repr(self.failure)
            assert self.over is None, f"the game ended before {before}: make it longer"
            return len(self.sent) >= moves

        wait_until(enough, 60, what=f"progress before {before}")

    def stranded(self, cut: float) -> float:
        """The longest the person waited, from ``cut`` on, for the table's next view:
        between two views (the person answers each at once and the bot plays at once, so
        any long gap is the cut's), or from ``cut`` to the first view after it."""
        times = sorted(at for at, _, _ in self.views)
        waits = [after - max(before, cut) for before, after in pairwise(times) if after >= cut]
        return max(waits, default=float("inf"))


def substitute_moves(record: dict[str, Any], person: Person) -> int:
    """The moves at seat 0 (the person's) that the person did not send."""
    game = game_named(record["game"])
    state = game.new_state(rules_from_json(game.rules_type, record["rules"]), int(record["seed"]))
    count = 0
    for number, action in enumerate(record["actions"]):
        if state.current_player == 0 and person.sent.get(number) != action:
            count += 1
        state.apply(game.parse_action(action))
    return count
