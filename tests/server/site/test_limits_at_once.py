"""A player's limits hold when every request comes at once: forty table creates, forty
bot tables against a guest's budget, forty tournaments, and rematches mixed with table
creates, each fired together (over one app, over two apps sharing one database, and
over two ``rummykit serve`` processes), are accepted exactly as far as the limit and
refused with the limit's typed error after it.  On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from rummykit.server.settings import Settings
from rummykit.server.storage.models import SeatRow
from tests.kit import http_clients
from tests.kit.apps import OpenClient, routes_built
from tests.kit.factories import store_table, three_thirteen_row
from tests.kit.players import new_player
from tests.kit.processes import (
    ServerProcess,
    database_environment,
    free_port,
    server_environment,
)
from tests.kit.tournaments import QUICK_BURRACO, tournament_body

REQUESTS = 40
Request = tuple[str, dict[str, Any] | None, str]  # path, body, session cookie


@pytest.fixture
def apps(settings: Settings, open_client: OpenClient) -> list[TestClient]:
    """Two apps on one database of either kind (two server processes' view of it), both
    started, their routes built (they are asked from two threads at once)."""
    clients = [open_client(settings, clock=None) for _ in range(2)]
    for client in clients:
        routes_built(client.app)  # type: ignore[arg-type]
    return clients


async def _fire(app: Any, requests: Sequence[Request]) -> list[httpx.Response]:
    """Every request at once, over the app's own event loop."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        return list(
            await asyncio.gather(
                *(
                    http.post(path, json=body, headers={"cookie": f"rummykit_session={cookie}"})
                    for path, body, cookie in requests
                )
            )
        )


def fire(clients: Sequence[TestClient], requests: Sequence[Request]) -> list[httpx.Response]:
    """``requests`` shared out among ``clients`` (apps), all sent at the same moment."""
    shares = [list(requests[i :: len(clients)]) for i in range(len(clients))]
    answers: list[list[httpx.Response]] = [[] for _ in clients]
    start = threading.Barrier(len(clients))

    def send(index: int) -> None:
        start.wait()
        portal = clients[index].portal
        assert portal is not None
        answers[index] = portal.call(_fire, clients[index].app, shares[index])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return [answer for share in answers for answer in share]


def outcome(answers: Sequence[httpx.Response]) -> dict[tuple[int, str | None], int]:
    """How many answers of each (status, error code)."""
    counts: dict[tuple[int, str | None], int] = {}
    for answer in answers:
        code = answer.json()["error"]["code"] if answer.status_code != 200 else None
        counts[answer.status_code, code] = counts.get((answer.status_code, code), 0) + 1
    return counts


def waiting_table(*bots: str) -> dict[str, Any]:
    """A Three-Thirteen table that waits for a second player (its bots never move)."""
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": b} for b in bots]
    return {"game": "three-thirteen", "seats": seats}


@pytest.mark.parametrize("processes", [1, 2])
def test_forty_table_creates_at_once_make_exactly_the_limit(
    apps: list[TestClient], processes: int
) -> None:
    cookie = new_player(apps[0], "hasty")
    limit = 20  # the default max_tables_per_player
    answers = fire(apps[:processes], [("/api/tables", waiting_table(), cookie)] * REQUESTS)
    assert outcome(answers) == {(200, None): limit, (429, "too_many_tables"): REQUESTS - limit}
    assert all(a.json()["error"]["params"] == {"limit": limit} for a in answers if a.is_error)
    current = apps[0].get("/api/current", headers={"cookie": f"rummykit_session={cookie}"})
    assert len(current.json()) == limit


@pytest.mark.parametrize("processes", [1, 2])
def test_forty_turn_based_creates_at_once_make_exactly_the_limit(
    apps: list[TestClient], processes: int
) -> None:
    """The limit of turn-based games (50 by default) holds under a flood, apart from
    the live tables' (20), which the same player still has room for."""
    cookie = new_player(apps[0], "patient")
    limit = 50
    for _ in range(limit - 10):
        made = apps[0].post(
            "/api/tables",
            json={**waiting_table(), "days_per_move": 3},
            headers={"cookie": f"rummykit_session={cookie}"},
        )
        assert made.status_code == 200, made.text
    body = {**waiting_table(), "days_per_move": 3}
    answers = fire(apps[:processes], [("/api/tables", body, cookie)] * REQUESTS)
    assert outcome(answers) == {(200, None): 10, (429, "too_many_turn_based"): REQUESTS - 10}
    assert all(a.json()["error"]["params"] == {"limit": limit} for a in answers if a.is_error)
    live = fire(apps[:processes], [("/api/tables", waiting_table(), cookie)] * 5)
    assert outcome(live) == {(200, None): 5}


@pytest.mark.parametrize("processes", [1, 2])
def test_a_guests_bot_budget_holds_against_forty_tables_at_once(
    apps: list[TestClient], processes: int
) -> None:
    cookie = new_player(apps[0], "thinker")
    # each table's bot thinks up to 1 s a move: a guest's 4 s (the default) allow four
    body = waiting_table("ismcts:seconds=1")
    answers = fire(apps[:processes], [("/api/tables", body, cookie)] * REQUESTS)
    assert outcome(answers) == {(200, None): 4, (400, "bad_bot"): REQUESTS - 4}


@pytest.mark.parametrize("processes", [1, 2])
def test_forty_tournaments_at_once_make_exactly_the_limit(
    apps: list[TestClient], processes: int
) -> None:
    cookie = new_player(apps[0], "organiser")
    body = tournament_body(QUICK_BURRACO, name="Mine", capacity=4)
    limit = 3  # the default max_tournaments_per_player
    answers = fire(apps[:processes], [("/api/tournaments", body, cookie)] * REQUESTS)
    assert outcome(answers) == {
        (200, None): limit,
        (429, "too_many_tournaments"): REQUESTS - limit,
    }
    listed = [t for t in apps[0].get("/api/tournaments").json() if t["name"] == "Mine"]
    assert len(listed) == limit


def _finished_tables(client: TestClient, player_id: str, count: int) -> list[str]:
    """``count`` finished tables where ``player_id`` sat, stored as the game's end left
    them (a rematch needs nothing more)."""
    ids = []
    for _ in range(count):
        row = three_thirteen_row(
            creator_id=player_id, status="over", finished_at=2.0, totals=[0, 10], winners=[0]
        )
        seats = [
            SeatRow(table_id=row.id, seat=0, kind="human", player_id=player_id, name="mixer"),
            SeatRow(table_id=row.id, seat=1, kind="bot", level="greedy"),
        ]
        ids.append(store_table(client, row, seats))
    return ids


@pytest.mark.parametrize("processes", [1, 2])
def test_rematches_and_creates_at_once_make_exactly_the_limit(
    apps: list[TestClient], processes: int
) -> None:
    """A player one table short of the limit asks for ten rematches and thirty new
    tables at once: one of them is made."""
    cookie = new_player(apps[0], "mixer")
    me = apps[0].get("/api/me", headers={"cookie": f"rummykit_session={cookie}"}).json()
    finished = _finished_tables(apps[0], me["player_id"], 10)
    for _ in range(19):
        made = apps[0].post(
            "/api/tables",
            json=waiting_table(),
            headers={"cookie": f"rummykit_session={cookie}"},
        )
        assert made.status_code == 200, made.text
    requests: list[Request] = [(f"/api/tables/{t}/rematch", None, cookie) for t in finished]
    requests += [("/api/tables", waiting_table(), cookie)] * 30
    answers = fire(apps[:processes], requests)
    assert outcome(answers) == {(200, None): 1, (429, "too_many_tables"): REQUESTS - 1}


@pytest.fixture
def two_servers(database: dict[str, Any], tmp_path: Path) -> Iterator[list[int]]:
    """Two ``rummykit serve`` processes on one database; their ports."""
    env = {
        **server_environment(BOT_WORKERS="1", SECRET_KEY="limits-test"),
        **database_environment(database),
    }
    servers = [ServerProcess(env, free_port(), tmp_path / f"server-{i}.log") for i in range(2)]
    try:
        for server in servers:  # one after the other: on SQLite the first migrates alone
            server.start()
        yield [server.port for server in servers]
    finally:
        for server in servers:
            server.stop()


def _session(port: int, name: str) -> str:
    answer = http_clients.post(f"http://127.0.0.1:{port}/api/session", json={"nickname": name})
    answer.raise_for_status()
    return str(answer.cookies["rummykit_session"])


def _fire_at(ports: Sequence[int], path: str, body: dict[str, Any], cookie: str) -> list[Any]:
    """``REQUESTS`` posts at once, shared out between the servers of ``ports``."""
    start = threading.Barrier(REQUESTS)

    def send(index: int) -> httpx.Response:
        start.wait()
        url = f"http://127.0.0.1:{ports[index % len(ports)]}{path}"
        return http_clients.post(url, json=body, cookies={"rummykit_session": cookie}, timeout=120)

    with ThreadPoolExecutor(REQUESTS) as pool:
        return list(pool.map(send, range(REQUESTS)))


def test_two_server_processes_keep_every_limit(two_servers: list[int]) -> None:
    """The same limits, each request sent to one of two server processes at random."""
    tables = _fire_at(two_servers, "/api/tables", waiting_table(), _session(two_servers[0], "a"))
    assert outcome(tables) == {(200, None): 20, (429, "too_many_tables"): REQUESTS - 20}
    thinker = _session(two_servers[1], "b")
    bots = _fire_at(two_servers, "/api/tables", waiting_table("ismcts:seconds=1"), thinker)
    assert outcome(bots) == {(200, None): 4, (400, "bad_bot"): REQUESTS - 4}
    body = tournament_body(QUICK_BURRACO, name="Mine", capacity=4)
    events = _fire_at(two_servers, "/api/tournaments", body, _session(two_servers[0], "c"))
    assert outcome(events) == {(200, None): 3, (429, "too_many_tournaments"): REQUESTS - 3}
