"""A worker cut off from PostgreSQL or from Redis stops acting for its tables before
another worker takes them over, and the game goes on there.

Worker A reaches PostgreSQL or Redis through a relay the test can stall (what A sends
is held, as by a network partition); worker B reaches both directly.  A person plays
a table A hosts; the relay is stalled mid-game.  A must stop (``lease_lost``: its
lease's stop rule; ``redis_lost``: its heartbeat no longer reaches Redis) before B
takes the table over (its ``restored`` under B's lease, whether B's orphan scan or the
person's socket got there first), by the two workers' own logs; the person goes
on through B to the end, no acknowledged action is lost, and the game equals the
same players' game without the partition.  Then the relay delivers what it held: A's
late writes, if any, are refused by the lease's fencing token.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from tests.kit import http_clients
from tests.kit.factories import HUMAN
from tests.kit.scripted import expected_actions
from tests.kit.site import SERVICES, Seat, Site, quick_burraco
from tests.kit.stall_proxy import Relay


def event_time(log: str, event: str, table_id: str) -> datetime:
    """When ``event`` was first logged for ``table_id``."""
    pattern = rf"^(\S+ \S+) \w+ rummykit\.server table={table_id} event={event}\b"
    found = re.search(pattern, log, flags=re.MULTILINE)
    assert found is not None, f"no {event} for {table_id} in the log"
    return datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S,%f")


@pytest.fixture(params=["postgresql", "redis"])
def cut(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def relay(cut: str) -> Iterator[Relay]:
    with Relay(SERVICES[cut][2]) as relay:
        yield relay


@pytest.fixture
def site(tmp_path: Path, postgres_schema: str, cut: str, relay: Relay) -> Iterator[Site]:
    """Workers A (through the relay, started) and B (started once A has a table)."""
    site = Site(tmp_path, postgres_schema, workers=2)
    site.relay(0, cut, relay.port)
    workers = list(site.workers)
    try:
        workers[0].start()
        yield site
    finally:
        for worker in workers:
            worker.stop()


def _a_game_under_way(site: Site) -> tuple[Seat, str, threading.Thread]:
    """A person playing a Burraco table made at A, some of whose moves A has
    acknowledged, with both workers up.  A game the bot ends before that (a hand can
    close in a few turns) proves nothing about a cut in its middle: another table is
    made then."""
    worker_a, worker_b = site.workers
    for attempt in range(3):
        with site.lock:
            site.workers = [worker_a]  # the table is made at A, so it is A's
        person = Seat(site, f"cut-test-{attempt}", seed=3 + attempt)
        created = person.post(
            "/api/tables",
            quick_burraco(HUMAN, "greedy"),
        )
        table_id = created["table_id"]
        if not worker_b.alive():
            worker_b.start()
        with site.lock:
            site.workers = [worker_a, worker_b]
        player = threading.Thread(target=person.play, args=(table_id, 0), daemon=True)
        player.start()
        person.wait_for_progress(8)  # some of it is played
        if person.over is None:
            return person, table_id, player
        player.join(timeout=30)
    raise AssertionError("three games in a row ended before eight of the person's moves")


def test_a_cut_off_worker_stops_before_its_tables_move(site: Site, relay: Relay, cut: str) -> None:
    worker_a, worker_b = site.workers
    person, table_id, player = _a_game_under_way(site)
    with site.lock:  # from now on the person reaches only B, as would a balancer
        relay.stall()
        cut_off = worker_a
        site.workers = [worker_b]
    player.join(timeout=240)
    assert person.failure is None, repr(person.failure)
    assert person.over is not None
    relay.release()
    log_a, log_b = cut_off.log.read_text(), worker_b.log.read_text()
    stopped = event_time(log_a, "lease_lost" if cut == "postgresql" else "redis_lost", table_id)
    # B hosts the table from its restore under the lease it took: by its orphan scan
    # (then also logged as taken_over) or by the person's socket arriving first
    taken = event_time(log_b, "restored", table_id)
    assert stopped < taken, f"A stopped at {stopped}, B took the table at {taken}"
    record = http_clients.get(
        f"http://127.0.0.1:{worker_b.port}/api/tables/{table_id}/record", timeout=30
    ).json()
    for number in person.acknowledged:
        assert record["actions"][number] == person.sent[number]
    assert record["actions"] == expected_actions(record, {0})
