"""A site of several ``rummykit serve`` workers sharing one PostgreSQL schema and one Redis
prefix, and scripted people who play at it through whichever worker is up (reconnecting
elsewhere when their socket closes), auditing every view they are sent."""

from __future__ import annotations

import json
import os
import random
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.kit.databases import POSTGRES_URL
from tests.kit.processes import REDIS_URL, ServerProcess, free_port
from tests.kit.scripted import choose

WORKERS = 3
LEASE_SECONDS = 2.0


class Site:
    """``WORKERS`` server processes sharing one PostgreSQL schema and one Redis prefix."""

    def __init__(self, tmp_path: Path, schema: str) -> None:
        env = dict(os.environ)
        env.update(
            RUMMYKIT_DATABASE_URL=POSTGRES_URL,
            RUMMYKIT_DATABASE_SCHEMA=schema,
            RUMMYKIT_REDIS_URL=REDIS_URL,
            RUMMYKIT_REDIS_PREFIX=f"test-{uuid.uuid4().hex[:12]}",
            RUMMYKIT_LEASE_SECONDS=str(LEASE_SECONDS),
            RUMMYKIT_BOT_PAUSE_SECONDS="0",
            RUMMYKIT_BOT_WORKERS="1",
            RUMMYKIT_SECRET_KEY="site-test",
            RUMMYKIT_MESSAGES_PER_SECOND="1000",
            RUMMYKIT_MESSAGE_BURST="1000",
            RUMMYKIT_LOG_LEVEL="INFO",
        )
        self.workers = [
            ServerProcess(env, free_port(), tmp_path / f"worker-{i}.log") for i in range(WORKERS)
        ]
        self.lock = threading.Lock()

    def live_ports(self) -> list[int]:
        with self.lock:
            return [
                w.port for w in self.workers if w.process is not None and w.process.poll() is None
            ]

    def any_port(self, rng: random.Random) -> int:
        while True:
            ports = self.live_ports()
            if ports:
                return rng.choice(ports)
            time.sleep(0.05)

    def busiest(self) -> ServerProcess:
        """The live worker hosting the most tables (a kill there moves tables)."""
        counts: list[tuple[int, int]] = []
        for index, worker in enumerate(self.workers):
            if worker.process is None or worker.process.poll() is not None:
                continue
            try:
                health = httpx.get(f"http://127.0.0.1:{worker.port}/healthz", timeout=5)
                counts.append((health.json()["tables"], index))
            except httpx.HTTPError:
                continue
        return self.workers[max(counts)[1]]

    def logs(self) -> str:
        return "\n".join(w.log.read_text() for w in self.workers if w.log.exists())


@pytest.fixture
def site(tmp_path: Path, postgres_schema: str) -> Iterator[Site]:
    """A site of :data:`WORKERS` started workers on a fresh schema, killed at the end."""
    site = Site(tmp_path, postgres_schema)
    for worker in site.workers:
        worker.start()
    yield site
    for worker in site.workers:
        worker.stop()


class Seat:
    """One scripted person at one table, talking to whichever worker is up."""

    def __init__(self, site: Site, name: str, seed: int) -> None:
        self.site = site
        self.name = name
        self.rng = random.Random(seed)
        port = site.any_port(self.rng)
        response = httpx.post(f"http://127.0.0.1:{port}/api/session", json={"nickname": name})
        response.raise_for_status()
        self.cookie = str(response.cookies["rummykit_session"])
        self.sent: dict[int, str] = {}
        self.acknowledged: set[int] = set()
        self.views = 0
        self.reconnects = 0
        self.over: dict[str, Any] | None = None
        self.failure: BaseException | None = None

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """``path`` on some live worker, tried again on another while workers restart."""
        for _ in range(100):
            port = self.site.any_port(self.rng)
            try:
                response = httpx.post(
                    f"http://127.0.0.1:{port}{path}",
                    json=body,
                    cookies={"rummykit_session": self.cookie},
                    timeout=15,
                )
            except httpx.HTTPError:
                time.sleep(0.2)
                continue
            if response.status_code == 503:
                time.sleep(0.2)
                continue
            assert response.status_code == 200, response.text
            found: dict[str, Any] = response.json()
            return found
        raise AssertionError(f"{path} never answered")

    def play(self, table_id: str, seat: int) -> None:
        try:
            self._play(table_id, seat)
        except BaseException as error:  # reported by the test's thread
            self.failure = error

    def _play(self, table_id: str, seat: int) -> None:
        deadline = time.monotonic() + 240
        while self.over is None:
            assert time.monotonic() < deadline, f"{self.name}: the game did not end"
            port = self.site.any_port(self.rng)
            url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
            headers = {"Cookie": f"rummykit_session={self.cookie}"}
            try:
                with connect(url, additional_headers=headers, open_timeout=5) as ws:
                    self._converse(ws, seat)
            except (ConnectionClosed, TimeoutError, OSError, InvalidStatus):
                self.reconnects += 1
                time.sleep(0.1)

    def _converse(self, ws: Any, seat: int) -> None:
        acted = -1
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "game_over":
                self.over = message
                return
            if message["type"] == "error":
                if message["code"] in ("not_found", "table_unavailable"):
                    return  # the table is between owners: reconnect
                continue  # e.g. an action sent again for a state already played
            if message["type"] != "state":
                continue
            # the leak audit: every seat's view is this player's own
            assert message["seat"] == seat, f"{self.name} was sent seat {message['seat']}"
            assert message["players"][seat]["name"] == self.name
            assert message["observation"]["player"] == seat
            self.views += 1
            number = message["state_number"]
            self.acknowledged.update(n for n in self.sent if n < number)
            if message["legal_actions"] and number != acted:
                acted = number
                action = self.sent.get(number) or choose(number, message["legal_actions"])
                self.sent[number] = action
                time.sleep(0.03)  # a person's pace, so that kills land mid-game
                ws.send(json.dumps({"type": "action", "state_number": number, "action": action}))
