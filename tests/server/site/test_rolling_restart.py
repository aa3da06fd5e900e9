"""A rolling restart: each of three workers is stopped with SIGTERM and started again in
turn while twenty tables are played, and nobody notices.

SIGTERM drains a worker: its hosts stop and release their leases at once, its clients
through other workers are handed on (``let_go``) and follow their tables to the workers
that take them over, and its own sockets close with "service restart" (their people
reconnect through another worker).  Measured: every game ends with every acknowledged
move in its record; no person is shown an error; and no table goes without a view for
longer than :data:`UNPLAYABLE_LIMIT` from the first SIGTERM to the last start.

On the site's default lease, as a host runs it: a lease shorter than the time a worker
just started takes to restore every table it takes over at once lets some of them go
again (docs/scale-out.md).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from rummykit.server.settings import Settings
from tests.kit.factories import HUMAN, table_body
from tests.kit.site import Seat, Site, play_through

TABLES = 20
LEASE_SECONDS: float = Settings.model_fields["lease_seconds"].default
"""The site's default lease, as a host's workers run a rolling restart (the other site
tests use a shorter one, so that their cuts and kills move tables sooner)."""
UNPLAYABLE_GOAL = 2.0
"""The longest a table may go unplayed in a rolling restart (docs/scale-out.md)."""
UNPLAYABLE_LIMIT = UNPLAYABLE_GOAL + 4.0
"""What the test holds a run to: the goal, with room for a machine busy with other work
(4.85 s was seen on the two-core machine running the whole suite beside it)."""


@pytest.fixture
def site(tmp_path: Path, postgres_schema: str) -> Iterator[Site]:
    """The kit's site of three workers, on the default lease."""
    with Site(tmp_path, postgres_schema, LEASE_SECONDS=str(LEASE_SECONDS)) as site:
        yield site


def test_a_rolling_restart_loses_nothing_and_shows_no_error(site: Site) -> None:
    games: list[tuple[str, Seat]] = []
    for index in range(TABLES):
        person = Seat(site, f"roll{index}", seed=index)
        game = "burraco" if index % 2 else "three-thirteen"
        # long games (to 2005, thirteen rounds), so that every one outlasts the restarts
        rules = {"mode": "target", "target": 2005} if game == "burraco" else {"first_round": 1}
        body = table_body(game, HUMAN, "greedy", rules=rules, turn_seconds=None)
        games.append((person.post("/api/tables", body)["table_id"], person))

    restarts: list[float] = []  # when the first SIGTERM was sent and the last start ended

    def restart_each() -> None:
        restarts.append(time.time())
        for worker in site.workers:
            # uvicorn ends by the signal it caught, once the app has shut down
            assert worker.terminate() in (0, -signal.SIGTERM), worker.log.read_text()[-2000:]
            worker.start()
        restarts.append(time.time())

    silences = play_through(site, games, restart_each, progress=3)
    errors = {person.name: person.errors for _, person in games if person.errors}
    print({"silences": sorted(silences), "errors": errors})
    assert not errors
    assert max(silences) <= UNPLAYABLE_LIMIT, sorted(silences)
    logs = site.logs()
    assert logs.count("event=server_started") == 2 * len(site.workers)
    assert logs.count("event=server_stopped") == len(site.workers)  # each drained in turn
    # the tables moved by release, not by a lease left to expire: none lapsed from the
    # first SIGTERM until every table taken over in the restarts was past its first
    # renewals (in play, a starved machine may let a two-second lease lapse: the stop
    # rule moves the table, and the errors and silences above count what people saw)
    assert "event=taken_over" in logs
    since, until = restarts[0], restarts[1] + 2 * LEASE_SECONDS
    lapsed = [line for line in logs.splitlines() if "event=lease_lost" in line]
    assert not [line for line in lapsed if since <= logged_at(line) <= until], lapsed


def logged_at(line: str) -> float:
    """When a worker's log line was written (its time stamp, to the millisecond)."""
    stamp = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f")
    return stamp.timestamp()
