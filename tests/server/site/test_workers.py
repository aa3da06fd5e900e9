"""Three server processes as workers of one site (PostgreSQL and Redis on 127.0.0.1).

Players connect to workers picked at random, and to another one whenever their socket
closes; tables are created on any worker.  While they play whole games of both games
(two people at one table, people against bots at others), a worker is killed
(SIGKILL) several times and started again.  At the end every game is over, no
acknowledged action is missing, each game equals the same deterministic players' game
replayed here without any kill (so no two owners ever both played a table), and every
seat's view a client received was its own.
"""

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

from tests.server.conftest import POSTGRES_URL
from tests.server.storage.test_recovery_process import (
    ServerProcess,
    choose,
    expected_actions,
    free_port,
)

REDIS_URL = "redis://127.0.0.1:6379/0"
WORKERS = 3
KILLS = 3
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
    site = Site(tmp_path, postgres_schema)
    for worker in site.workers:
        worker.start()
    yield site
    for worker in site.workers:
        if worker.process is not None and worker.process.poll() is None:
            worker.process.kill()
            worker.process.wait()


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


TABLES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("burraco", {"mode": "quick"}, ["human", "bot"]),
    ("three-thirteen", {"first_round": 1, "last_round": 5}, ["human", "human"]),
    ("three-thirteen", {"first_round": 1, "last_round": 5}, ["human", "bot", "bot"]),
    ("burraco", {"mode": "quick"}, ["human", "human"]),
]


def test_tables_go_on_across_workers_killed_mid_game(site: Site) -> None:
    rng = random.Random(7)
    games: list[tuple[str, list[Seat]]] = []
    for index, (game, rules, kinds) in enumerate(TABLES):
        seats = [
            Seat(site, f"p{index}s{i}", seed=100 * index + i)
            for i, kind in enumerate(kinds)
            if kind == "human"
        ]
        seat_requests = [
            {"kind": "human"} if kind == "human" else {"kind": "bot", "level": "greedy"}
            for kind in kinds
        ]
        created = seats[0].post(
            "/api/tables",
            {"game": game, "rules": rules, "seats": seat_requests, "turn_seconds": None},
        )
        table_id = created["table_id"]
        for seat_number, person in enumerate(seats[1:], start=1):  # the others join
            joined = person.post(f"/api/tables/{table_id}/join", {"seat": seat_number})
            assert joined["seat"] == seat_number
        games.append((table_id, seats))
    threads = [
        threading.Thread(target=person.play, args=(table_id, seat), daemon=True)
        for table_id, seats in games
        for seat, person in enumerate(seats)
    ]
    for thread in threads:
        thread.start()
    kills = 0
    while kills < KILLS and any(t.is_alive() for t in threads):
        time.sleep(rng.uniform(1.5, 3.0))
        victim = site.busiest()
        with site.lock:
            victim.kill()
        kills += 1
        time.sleep(rng.uniform(0.2, 1.0))
        victim.start()
    for thread in threads:
        thread.join(timeout=300)
    people = [person for _, seats in games for person in seats]
    for person in people:
        assert person.failure is None, f"{person.name}: {person.failure!r}"
        assert person.over is not None
    assert kills == KILLS, "every game ended before the kills: make them longer"
    for (table_id, seats), (_, _, kinds) in zip(games, TABLES, strict=True):
        port = site.any_port(rng)
        record = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}/record").json()
        human_seats = {i for i, kind in enumerate(kinds) if kind == "human"}
        assert record["totals"] == seats[0].over["totals"]  # type: ignore[index]
        for person in seats:
            for number in person.acknowledged:
                assert record["actions"][number] == person.sent[number]
        assert record["actions"] == expected_actions(record, human_seats)
    assert sum(person.reconnects for person in people) > 0  # the kills reached the players
    logs = site.logs()
    assert logs.count("event=server_started") == WORKERS + KILLS
    # each kill took tables with it, and a live worker took them over
    assert logs.count("event=taken_over") >= KILLS
    assert "event=remote_client" in logs  # clients were served through other workers
