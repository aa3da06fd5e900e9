"""A willing player is served again within seconds of a partition or a freeze, and no
substitute plays for them.

Two worker processes share PostgreSQL and Redis; worker A reaches one of them through a
relay the test controls (``hold``: connections stay open, nothing is forwarded;
``drop``: connections are reset and new ones refused), or is frozen with ``SIGSTOP``.
A hold holds both ways: what Redis publishes to A's channels does not reach it either.
A person plays a Burraco table against a bot, answering every turn at once, reconnecting
whenever the socket closes to a worker picked at random (a load balancer that knows
nothing of the cut) and again after a refusal that says "try again".

Measured for each cut: how long the person is **stranded** (from the cut to the first
view of the table they get from a host that serves it, on a new socket or with a newer
state), the moves a **substitute** made for them (the grace period is shorter than the
cut, so a stranded person loses moves), and whether the table got **stuck** (the game
must end).  The goals (``docs/scale-out.md``): stranded no longer than the lease's ttl
plus 2 s, no substitute move, no stuck table.  ``RUMMYKIT_CUT_FIGURES=path`` appends
each run's figures to ``path`` (JSON lines), which is how the page's table was made.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.kit import http_clients
from tests.kit.factories import HUMAN
from tests.kit.site import LEASE_SECONDS, SERVICES, Seat, Site, quick_burraco, substitute_moves
from tests.kit.stall_proxy import Relay
from tests.kit.wait import WaitTimeout, wait_until

GRACE_SECONDS = 6.0  # shorter than a cut: a person stranded through it loses moves
CUT_SECONDS = 10.0
STRANDED_GOAL = LEASE_SECONDS + 2.0
"""The goal for the seconds a willing player is stranded (docs/scale-out.md reports the
figures against it)."""
STRANDED_LIMIT = STRANDED_GOAL + 2.0
"""What the tests hold a run to: the goal, with room for a machine busy with other work
(under load a held database's case was measured at 4.3 s); far below the grace period,
after which a substitute would play the seat."""

CUTS = [
    "redis-hold-gateway",  # A is the gateway of the person's socket; B hosts the table
    "postgresql-hold-owner",  # A hosts the table; the person talks through B
    "postgresql-drop-owner",
    "freeze-owner",  # A hosts the table and is stopped (SIGSTOP) for CUT_SECONDS
]


@pytest.fixture(params=CUTS)
def cut(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def relay(cut: str) -> Iterator[Relay | None]:
    if cut.startswith("freeze"):
        yield None
        return
    # a partition: nothing crosses it either way
    with Relay(SERVICES[cut.partition("-")[0]][2], both_ways=True) as relay:
        yield relay


@pytest.fixture
def site(tmp_path: Path, postgres_schema: str, relay: Relay | None, cut: str) -> Iterator[Site]:
    """Workers A (through the relay, if any) and B, started."""
    site = Site(tmp_path, postgres_schema, workers=2, GRACE_SECONDS=str(GRACE_SECONDS))
    if relay is not None:
        site.relay(0, cut.partition("-")[0], relay.port)
    try:
        site.start()
        yield site
    finally:
        site.stop()


def test_a_willing_player_is_served_again_within_seconds(
    site: Site, relay: Relay | None, cut: str
) -> None:
    worker_a, worker_b = site.workers
    owner, gateway = (worker_b, worker_a) if cut.endswith("gateway") else (worker_a, worker_b)
    person = Seat(site, f"cut-{cut}", seed=5, willing=True)
    created = person.post(  # made at the owner, so it is the owner's
        "/api/tables", quick_burraco(HUMAN, "greedy"), port=owner.port
    )
    table_id = created["table_id"]
    person.ports = [gateway.port]  # the first socket goes through the gateway
    player = threading.Thread(target=person.play, args=(table_id,), daemon=True)
    player.start()
    person.wait_for_moves(6, "the cut")  # some of the game is played

    cut_at = time.monotonic()
    person.ports = [worker_a.port, worker_b.port]  # the balancer knows nothing of the cut
    assert worker_a.process is not None
    if relay is None:
        worker_a.process.send_signal(signal.SIGSTOP)
    elif cut.startswith("postgresql-drop"):
        relay.loop.call_soon_threadsafe(relay.proxy.drop)
    else:
        relay.stall()
    time.sleep(CUT_SECONDS)  # the cut lasts that long in wall time, whatever is served
    if relay is None:
        worker_a.process.send_signal(signal.SIGCONT)
    else:
        relay.release()
    player.join(timeout=180)
    person.stop.set()
    assert person.failure is None, repr(person.failure)
    assert person.over is not None, "the table is stuck"

    stranded = person.stranded(cut_at)
    record = http_clients.get(
        f"http://127.0.0.1:{worker_b.port}/api/tables/{table_id}/record", timeout=30
    ).json()
    substituted = substitute_moves(record, person)
    figures = {"cut": cut, "stranded": round(stranded, 2), "substitute_moves": substituted}
    if path := os.environ.get("RUMMYKIT_CUT_FIGURES"):
        with open(path, "a") as out:
            out.write(json.dumps(figures) + "\n")
    print(figures)
    assert substituted == 0, figures
    assert stranded <= STRANDED_LIMIT, figures


@pytest.mark.parametrize("cut", ["postgresql-freeze-in-transaction"])
def test_a_frozen_owner_s_row_locks_hold_up_no_one(
    site: Site, relay: Relay | None, cut: str
) -> None:
    """A is frozen just after its UPDATE of a seat reached PostgreSQL, before its COMMIT
    (the relay in front of A's database sees the statement go by); B must take A's
    tables over and seat the player anyway, within the goal, and a game A hosted goes
    on through B as quickly as after any freeze."""
    assert relay is not None
    worker_a, worker_b = site.workers
    assert worker_a.process is not None
    person = Seat(site, "frozen-owner-player", seed=7, willing=True)
    playing = person.post("/api/tables", quick_burraco(HUMAN, "greedy"), port=worker_a.port)[
        "table_id"
    ]
    person.ports = [worker_b.port]
    player = threading.Thread(target=person.play, args=(playing,), daemon=True)
    player.start()
    host = Seat(site, "frozen-owner-host", seed=8, willing=True)
    waiting = host.post("/api/tables", quick_burraco(HUMAN, HUMAN), port=worker_a.port)["table_id"]
    guest = Seat(site, "frozen-owner-guest", seed=9, willing=True)
    person.wait_for_moves(6, "the freeze")

    frozen = threading.Event()
    frozen_at: list[float] = []

    def freeze() -> None:
        assert worker_a.process is not None
        worker_a.process.send_signal(signal.SIGSTOP)
        frozen_at.append(time.monotonic())
        frozen.set()

    person.ports = [worker_a.port, worker_b.port]
    # the seat's UPDATE is prepared (its text), then run by the next packet: freeze there
    relay.loop.call_soon_threadsafe(
        lambda: relay.proxy.on_marker(b"UPDATE seats", freeze, packets_after=1)
    )

    def join_at_a() -> None:
        with contextlib.suppress(httpx.HTTPError):
            http_clients.post(
                f"http://127.0.0.1:{worker_a.port}/api/tables/{waiting}/join",
                json={"seat": 1},
                cookies={"rummykit_session": guest.cookie},
                timeout=CUT_SECONDS + 20,
            )

    threading.Thread(target=join_at_a, daemon=True).start()
    assert frozen.wait(timeout=30), "A never sent the seat's UPDATE"

    def seated_at_b() -> float | None:
        """When B seated the guest; ``None`` while it answers "try again"."""
        response = http_clients.post(
            f"http://127.0.0.1:{worker_b.port}/api/tables/{waiting}/join",
            json={"seat": 1},
            cookies={"rummykit_session": guest.cookie},
            timeout=CUT_SECONDS,
        )
        assert response.status_code in (200, 503), response.text  # 503: between owners
        return time.monotonic() if response.status_code == 200 else None

    seated_at = None
    # not seated while A is frozen (or a join waited for the whole freeze): the goal is
    # missed, and the figures say so
    with contextlib.suppress(WaitTimeout, httpx.TimeoutException):
        left = frozen_at[0] + CUT_SECONDS - time.monotonic()
        seated_at = wait_until(seated_at_b, left, what="the guest seated at B", interval=0.2)
    # A stays frozen for the whole cut, in wall time, past its lease
    time.sleep(max(0.0, frozen_at[0] + CUT_SECONDS - time.monotonic()))
    worker_a.process.send_signal(signal.SIGCONT)
    player.join(timeout=180)
    person.stop.set()
    assert person.failure is None, repr(person.failure)
    assert person.over is not None, "the table is stuck"
    stranded = person.stranded(frozen_at[0])
    waited = None if seated_at is None else round(seated_at - frozen_at[0], 2)
    figures = {"cut": cut, "stranded": round(stranded, 2), "join_waited": waited}
    if path := os.environ.get("RUMMYKIT_CUT_FIGURES"):
        with open(path, "a") as out:
            out.write(json.dumps(figures) + "\n")
    print(figures)
    assert waited is not None and waited <= STRANDED_LIMIT, figures
    assert stranded <= STRANDED_LIMIT, figures
