"""One review under way per player: a second one is refused with ``review_pending``
(HTTP 429) until the first is over; the review's searches go to the bot workers under
the reviewing player's name (so they queue behind table bots, one at a time)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from rummykit.server.bots.errors import BotBusy
from rummykit.server.bots.service import BotRunner
from rummykit.server.competition.review import decision_points
from rummykit.server.competition.review_jobs import ReviewJobs
from rummykit.server.storage.models import ActionRow, SeatRow, TableRow
from rummykit.server.storage.store import StoredTable
from tests.kit.apps import OpenClient
from tests.kit.databases import make_settings
from tests.kit.players import connect, new_player
from tests.kit.progress import finished_review
from tests.kit.scripted import play_to_end, random_policy
from tests.kit.wait import wait_until_async


class HeldRunner:
    """Stands in for the bot runner: each call waits for ``release`` and records its
    owner; a decision list has one point, and a review item is a fixed answer."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.owners: list[str | None] = []

    async def run(
        self, function: Callable[..., Any], *args: Any, owner: str | None = None, **kwargs: Any
    ) -> Any:
        self.owners.append(owner)
        await self.release.wait()
        if function is decision_points:
            return [{"state_number": 0}]
        return {"decision": 0}


def stored(table_id: str) -> StoredTable:
    """A finished table where seat 0 made one decision."""
    table = TableRow(id=table_id, game="three-thirteen", rules={}, seed=1, status="over")
    seats = [SeatRow(table_id=table_id, seat=0, kind="human", player_id="ann")]
    actions = [
        ActionRow(table_id=table_id, state_number=0, seat=0, action="draw", actor="human", at=0.0)
    ]
    return StoredTable(table=table, seats=seats, actions=actions, chat=[])


def test_a_player_has_one_review_under_way() -> None:
    async def main() -> HeldRunner:
        runner = HeldRunner()
        jobs = ReviewJobs(cast(BotRunner, runner), make_settings("sqlite://"))
        first = jobs.start(stored("t1"), 0, player_id="ann")
        assert jobs.start(stored("t1"), 0, player_id="ann") is first  # the same review
        with pytest.raises(BotBusy) as busy:
            jobs.start(stored("t2"), 0, player_id="ann")
        assert busy.value.code == "review_pending"
        other = jobs.start(stored("t3"), 0, player_id="bob")  # another player may
        await wait_until_async(lambda: runner.owners, 10, what="a review held at the workers")
        runner.release.set()
        for job in (first, other):
            assert job.task is not None
            await job.task
            assert job.status == "done" and job.items == [{"decision": 0}]
        second = jobs.start(stored("t2"), 0, player_id="ann")  # the first is over
        assert second.task is not None
        await second.task
        assert second.status == "done"
        await jobs.close()
        return runner

    runner = asyncio.run(main())
    assert sorted(set(runner.owners), key=str) == ["ann", "bob"]
    assert runner.owners.count("ann") == 4 and runner.owners.count("bob") == 2


@pytest.fixture
def slow_reviews(open_client: OpenClient) -> TestClient:
    """A server whose reviews search 40 iterations a decision (on the real clock)."""
    return open_client(hint_iterations=40, clock=None)


def played_game(client: TestClient, cookie: str) -> str:
    """A short Three-Thirteen game of the player of ``cookie`` (seat 0, random moves)
    against greedy, played to its end; the table id."""
    client.cookies.set("rummykit_session", cookie)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    body = {"game": "three-thirteen", "rules": {"first_round": 3, "last_round": 3}}
    created = client.post("/api/tables", json={**body, "seats": seats, "turn_seconds": None})
    assert created.status_code == 200, created.text
    client.cookies.clear()
    with connect(client, created.json()["ws_url"], cookie) as ws:
        play_to_end(ws, random_policy(3))
    client.cookies.set("rummykit_session", cookie)
    return str(created.json()["table_id"])


def test_a_second_review_is_refused_while_the_first_runs(slow_reviews: TestClient) -> None:
    client = slow_reviews
    cookie = new_player(client, "reviewer")
    first, second = played_game(client, cookie), played_game(client, cookie)
    assert client.post(f"/api/tables/{first}/review", json={}).status_code == 200
    refused = client.post(f"/api/tables/{second}/review", json={})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "review_pending"
    again = client.post(f"/api/tables/{first}/review", json={})
    assert again.status_code == 200  # the same review, still under way
    review, _seen = finished_review(client, first)
    assert review["status"] == "done"
    assert client.post(f"/api/tables/{second}/review", json={}).status_code == 200
    review, _seen = finished_review(client, second)
    assert review["status"] == "done"
