"""A site of several ``rummykit serve`` workers sharing one PostgreSQL schema and one Redis
prefix, and scripted people who play at it through whichever worker is up (reconnecting
elsewhere when their socket closes), auditing every view they are sent; every view's
arrival time is kept, so that a test can tell how long a cut stranded each of them, and
which of their seat's moves a substitute made."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from tests.kit import http_clients
from tests.kit.databases import POSTGRES_URL
from tests.kit.factories import table_body
from tests.kit.processes import (
    SCRIPTED_PLAY,
    ServerProcess,
    Started,
    free_port,
    site_environment,
    start_all,
)
from tests.kit.redis import REDIS_URL
from tests.kit.scripted import choose
from tests.kit.wait import wait_until

WORKERS = 3
LEASE_SECONDS = 2.0
SERVICES = {
    "postgresql": ("DATABASE_URL", POSTGRES_URL, 5432),
    "redis": ("REDIS_URL", REDIS_URL, 6379),
}
"""The services a worker reaches: the setting that names each, its URL and its port."""
PACE = 0.03
"""The seconds a scripted person takes over a move (wall time), so that kills land
mid-game."""
PACE_WHILE_DISTURBED = 0.5
"""Their pace while :func:`play_through` disturbs the site: the shortest game of the
tests (a Three-Thirteen game from the first round, 134 moves of the person's at least)
then lasts over a minute, three times a rolling restart of three workers (22 s on the
two-core machine), where at the quick pace it could end before the restart did."""


def quick_burraco(*kinds: str) -> dict[str, Any]:
    """The body of a new quick Burraco table with seats of ``kinds`` (``HUMAN`` or a bot
    level) and no turn clock: a game of a few minutes, which a cut lands in the middle of."""
    return table_body("burraco", *kinds, rules={"mode": "quick"}, turn_seconds=None)


class Site(Started):
    """``workers`` server processes sharing one PostgreSQL schema and one Redis prefix,
    with a lease of :data:`LEASE_SECONDS`, the settings of scripted play
    (``SCRIPTED_PLAY``) and the ``RUMMYKIT_`` ``settings`` given (over those); none
    started yet."""

    def __init__(
        self, tmp_path: Path, schema: str, *, workers: int = WORKERS, **settings: str
    ) -> None:
        defaults = {"LEASE_SECONDS": str(LEASE_SECONDS), "SECRET_KEY": "site-test"}
        env = site_environment(schema, **{**defaults, **SCRIPTED_PLAY, **settings})
        self.workers = [
            ServerProcess(env, free_port(), tmp_path / f"worker-{i}.log") for i in range(workers)
        ]
        self.lock = threading.Lock()

    def relay(self, index: int, service: str, port: int) -> None:
        """Worker ``index`` (not started yet) reaches ``service`` (``postgresql`` or
        ``redis``) through a relay listening on ``port``."""
        worker = self.workers[index]
        setting, url, direct = SERVICES[service]
        worker.env = {**worker.env, f"RUMMYKIT_{setting}": url.replace(str(direct), str(port))}

    def start(self) -> None:
        start_all(self.workers)

    def stop(self) -> None:
        """Kill every worker still running (a frozen one too)."""
        for worker in self.workers:
            worker.stop()

    def live_ports(self) -> list[int]:
        with self.lock:
            return [w.port for w in self.workers if w.alive()]

    def any_port(self, rng: random.Random) -> int:
        """The port of a live worker, picked with ``rng`` (waiting while none is up)."""
        return rng.choice(wait_until(self.live_ports, 120, what="a live worker"))

    def busiest(self) -> ServerProcess:
        """The live worker hosting the most tables (a kill there moves tables)."""
        counts: list[tuple[int, int]] = []
        for index, worker in enumerate(self.workers):
            if not worker.alive():
                continue
            try:
                health = http_clients.get(f"http://127.0.0.1:{worker.port}/healthz", timeout=5)
                counts.append((health.json()["tables"], index))
            except httpx.HTTPError:
                continue
        return self.workers[max(counts)[1]]

    def logs(self) -> str:
        return "\n".join(w.log.read_text() for w in self.workers if w.log.exists())


@pytest.fixture
def site(tmp_path: Path, postgres_schema: str) -> Iterator[Site]:
    """A site of :data:`WORKERS` started workers on a fresh schema, killed at the end."""
    with Site(tmp_path, postgres_schema) as site:
        yield site


class Seat:
    """One scripted person at one table, talking to whichever worker is up (or, when a
    test sets ``ports``, to one of those workers, as a balancer that knows nothing of a
    cut would send them), auditing every view they are sent.

    A ``willing`` person stays on a socket as long as the server keeps it, whatever it
    says, and answers each turn at once: how long a cut strands them is the site's
    doing alone.  Otherwise a person reconnects when their table is between owners and
    takes :data:`PACE` over a move, so that kills land mid-game."""

    def __init__(self, site: Site, name: str, seed: int, *, willing: bool = False) -> None:
        self.site = site
        self.name = name
        self.rng = random.Random(seed)
        self.willing = willing
        self.ports: list[int] | None = None  # the workers reached; None: any live one
        port = site.any_port(self.rng)
        response = http_clients.post(
            f"http://127.0.0.1:{port}/api/session", json={"nickname": name}
        )
        response.raise_for_status()
        self.cookie = str(response.cookies["rummykit_session"])
        self.sent: dict[int, str] = {}
        self.acknowledged: set[int] = set()  # sent moves a later view followed
        self.seen_at: list[float] = []  # when each view arrived
        self.errors: list[str] = []  # the codes of the errors the person was shown
        self.reconnects = 0
        self.pace = 0.0 if willing else PACE
        self.over: dict[str, Any] | None = None
        self.failure: BaseException | None = None
        self.stop = threading.Event()

    def post(self, path: str, body: dict[str, Any], *, port: int | None = None) -> dict[str, Any]:
        """``path`` at worker ``port``, or at some live worker, tried again on another
        while workers restart."""

        def answer() -> dict[str, Any] | None:
            try:
                response = http_clients.post(
                    f"http://127.0.0.1:{port or self.site.any_port(self.rng)}{path}",
                    json=body,
                    cookies={"rummykit_session": self.cookie},
                    timeout=15,
                )
            except httpx.HTTPError:
                return None
            if response.status_code == 503:
                return None
            assert response.status_code == 200, response.text
            found: dict[str, Any] = response.json()
            return found

        return wait_until(answer, 60, what=f"an answer to {path}", interval=0.2)

    def longest_silence(self, since: float, until: float) -> float:
        """The longest this person went without a view from ``since`` to their first
        view at or after ``until``."""
        inside = [at for at in self.seen_at if since < at < until]
        after = [at for at in self.seen_at if at >= until]
        points = [since, *inside, after[0] if after else until]
        return max(b - a for a, b in pairwise(points))

    def stranded(self, cut: float) -> float:
        """The longest this person waited, from ``cut`` on, for the table's next view: a
        willing person answers each view at once and the bot plays at once, so any long
        gap is the cut's."""
        if not self.seen_at or self.seen_at[-1] < cut:
            return float("inf")
        return self.longest_silence(cut, self.seen_at[-1])

    def wait_for_progress(self, acknowledged: int) -> None:
        """Wait until ``acknowledged`` of this person's actions were acknowledged (or
        the game is over)."""

        def progress() -> bool:
            assert self.failure is None, repr(self.failure)
            return len(self.acknowledged) >= acknowledged or self.over is not None

        wait_until(progress, 60, what=f"{self.name}'s progress")

    def wait_for_moves(self, moves: int, before: str) -> None:
        """Wait until the person has sent ``moves`` actions, the game still under way."""

        def enough() -> bool:
            assert self.failure is None, repr(self.failure)
            assert self.over is None, f"the game ended before {before}: make it longer"
            return len(self.sent) >= moves

        wait_until(enough, 60, what=f"progress before {before}")

    def play(self, table_id: str, seat: int = 0) -> None:
        try:
            self._play(table_id, seat)
        except BaseException as error:  # reported by the test's thread
            self.failure = error

    def _play(self, table_id: str, seat: int) -> None:
        deadline = time.monotonic() + 240
        while self.over is None and not self.stop.is_set():
            assert time.monotonic() < deadline, f"{self.name}: the game did not end"
            port = self.rng.choice(self.ports) if self.ports else self.site.any_port(self.rng)
            url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
            headers = {"Cookie": f"rummykit_session={self.cookie}"}
            try:
                # a willing person gives up on a worker that does not answer sooner
                opening = 1 if self.willing else 5
                with connect(url, additional_headers=headers, open_timeout=opening) as ws:
                    self._converse(ws, seat)
            except (ConnectionClosed, TimeoutError, OSError, InvalidStatus):
                self.reconnects += 1
                # a browser's first retry waits about this long: part of what a person
                # is stranded for, so a pause of wall time
                time.sleep(0.2)

    def _converse(self, ws: Any, seat: int) -> None:
        acted = -1
        while True:
            # a willing person waits as long as it takes: only the server ends a socket
            message = json.loads(ws.recv(timeout=120 if self.willing else 10))
            if message["type"] == "game_over":
                self.over = message
                return
            if message["type"] == "error":
                self.errors.append(message["code"])
                if not self.willing and message["code"] in ("not_found", "table_unavailable"):
                    return  # the table is between owners: reconnect
                continue  # e.g. an action sent again for a state already played
            if message["type"] != "state":
                continue
            # the leak audit: every seat's view is this player's own
            assert message["seat"] == seat, f"{self.name} was sent seat {message['seat']}"
            assert message["players"][seat]["name"] == self.name
            assert message["observation"]["player"] == seat
            self.seen_at.append(time.monotonic())
            number = message["state_number"]
            self.acknowledged.update(n for n in self.sent if n < number)
            if message["legal_actions"] and number != acted:
                acted = number
                action = self.sent.get(number) or choose(number, message["legal_actions"])
                self.sent[number] = action
                if self.pace:
                    time.sleep(self.pace)  # a person's pace, wall time
                ws.send(json.dumps({"type": "action", "state_number": number, "action": action}))


def substitute_moves(record: dict[str, Any], person: Seat, seat: int = 0) -> int:
    """The moves at ``seat`` (the person's) that the person did not send."""
    game = game_named(record["game"])
    state = game.new_state(rules_from_json(game.rules_type, record["rules"]), int(record["seed"]))
    count = 0
    for number, action in enumerate(record["actions"]):
        if state.current_player == seat and person.sent.get(number) != action:
            count += 1
        state.apply(game.parse_action(action))
    return count


def play_through(
    site: Site, games: list[tuple[str, Seat]], disturb: Callable[[], None], *, progress: int
) -> list[float]:
    """Play ``games`` (a table id and its person, at seat 0) and, once each person has
    had ``progress`` moves acknowledged, run ``disturb()`` (a restart, a cut...), the
    people playing at :data:`PACE_WHILE_DISTURBED` meanwhile.  Every game must go on
    past it to its end, with every acknowledged move in its record; each
    person's longest silence from the start of ``disturb`` to their first view after it,
    in seconds."""
    threads = [
        threading.Thread(target=person.play, args=(table_id, 0), daemon=True)
        for table_id, person in games
    ]
    for thread in threads:
        thread.start()
    for _, person in games:
        person.wait_for_progress(progress)
    for _, person in games:
        person.pace = PACE_WHILE_DISTURBED
    started = time.monotonic()
    disturb()
    ended = time.monotonic()
    for _, person in games:
        person.pace = PACE
    for thread in threads:
        thread.join(timeout=300)
    silences = []
    for table_id, person in games:
        assert person.failure is None, f"{person.name}: {person.failure!r}"
        assert person.over is not None, f"{person.name}'s game did not end"
        assert person.seen_at[-1] > ended, f"{person.name}'s game ended before the disturbance did"
        record = http_clients.get(f"{site.workers[0].url}/api/tables/{table_id}/record").json()
        for number in person.acknowledged:
            assert record["actions"][number] == person.sent[number]
        silences.append(round(person.longest_silence(started, ended), 2))
    return silences
