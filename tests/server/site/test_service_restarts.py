"""The site carries on through a restart of Redis and a failover of PostgreSQL.

Three workers, six tables (a person against a bot at each, reconnecting through any live
worker whenever a socket closes).  **Redis restarted**: the site's own Redis server is
killed and started again on the same port after :data:`DOWN_SECONDS`, empty (it keeps
nothing on disk, as the site's Redis need not): every worker is cut off, lets its tables
go and closes its sockets, then the heartbeats, leases and channels come back.
**PostgreSQL failed over**: every worker reaches the database through one relay, which
resets every connection and refuses new ones for :data:`DOWN_SECONDS`, then lets them
through to the same data (a failover to a replica that had every commit).  In both, every
game must end with every acknowledged move in its record, and the longest silence of any
person, from the restart to their first view after it, is printed (docs/scale-out.md).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.kit.factories import HUMAN, table_body
from tests.kit.processes import free_port
from tests.kit.site import SERVICES, Seat, Site, play_through
from tests.kit.stall_proxy import Relay
from tests.kit.wait import wait_until

TABLES = 6
DOWN_SECONDS = 5.0
RECOVERY_LIMIT = 20.0
"""The longest a person may wait, from the restart, for the table's next view: the time
the service is down, then the heartbeats' and leases' own times to come back, with room
for a busy machine."""


class RedisServer:
    """A Redis server of the test's own on ``port``, keeping nothing on disk."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            command, cwd=self.folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

        def answers() -> bool:
            try:
                reply = subprocess.run(
                    ["redis-cli", "-p", str(self.port), "ping"],
                    capture_output=True,
                    timeout=5,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                return False
            return reply.stdout.strip() == b"PONG"

        wait_until(answers, 30, what="the test's Redis")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


def six_tables_through(site: Site, restart: Callable[[], None]) -> None:
    """Six tables played while ``restart()`` takes a service down for
    :data:`DOWN_SECONDS` and brings it back; the figures printed."""
    games: list[tuple[str, Seat]] = []
    for index in range(TABLES):
        person = Seat(site, f"svc{index}", seed=index)
        rules = {"mode": "target", "target": 1005}
        body = table_body("burraco", HUMAN, "greedy", rules=rules, turn_seconds=None)
        games.append((person.post("/api/tables", body)["table_id"], person))
    silences = play_through(site, games, restart, progress=4)
    figures = {"down": DOWN_SECONDS, "silences": sorted(silences)}
    print(figures)
    assert max(silences) <= RECOVERY_LIMIT, figures


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def test_the_site_carries_on_through_a_restart_of_redis(
    tmp_path: Path, postgres_schema: str, redis_server: RedisServer
) -> None:
    site = Site(tmp_path, postgres_schema, workers=3)
    for worker in site.workers:
        worker.env = {**worker.env, "RUMMYKIT_REDIS_URL": redis_server.url}

    def restart() -> None:
        redis_server.kill()
        time.sleep(DOWN_SECONDS)  # Redis stays down this long in wall time
        redis_server.start()

    with site:
        six_tables_through(site, restart)
        assert "event=redis_lost" in site.logs()  # the workers noticed, and came back


def test_the_site_waits_through_a_failover_of_postgresql(
    tmp_path: Path, postgres_schema: str
) -> None:
    with Relay(SERVICES["postgresql"][2]) as relay:
        site = Site(tmp_path, postgres_schema, workers=3)
        for index in range(len(site.workers)):
            site.relay(index, "postgresql", relay.port)

        def restart() -> None:
            relay.loop.call_soon_threadsafe(relay.proxy.drop)
            time.sleep(DOWN_SECONDS)  # the database is away this long in wall time
            relay.release()

        with site:
            six_tables_through(site, restart)
