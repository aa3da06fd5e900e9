"""Tournaments made over the test client: the request bodies and waiting for an event's
end."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.kit.players import as_player
from tests.kit.wait import wait_until

QUICK_BURRACO: dict[str, Any] = {"game": "burraco", "rules": {"mode": "quick"}}
"""A game of one quick Burraco hand."""

SHORT_313: dict[str, Any] = {
    "game": "three-thirteen",
    "rules": {"first_round": 3, "last_round": 3},
}
"""A game of one Three-Thirteen round of three cards."""


def tournament_body(
    game: dict[str, Any] = SHORT_313, *, name: str = "Cup", **fields: Any
) -> dict[str, Any]:
    """The body of ``POST /api/tournaments`` for an event of ``game`` named ``name``,
    with ``fields`` (format, rounds, capacity, bot_level, enter...) as given.

    >>> tournament_body(QUICK_BURRACO, capacity=4)
    {'game': 'burraco', 'rules': {'mode': 'quick'}, 'name': 'Cup', 'capacity': 4}
    """
    return {**game, "name": name, **fields}


def until_over(client: TestClient, tournament_id: str, timeout: float = 120.0) -> dict[str, Any]:
    """The view of the tournament once it is over."""

    def over() -> dict[str, Any] | None:
        view: dict[str, Any] = client.get(f"/api/tournaments/{tournament_id}").json()
        return view if view["status"] == "over" else None

    return wait_until(over, timeout, what=f"the end of tournament {tournament_id}")


def played_event(
    client: TestClient, creator: str, body: dict[str, Any], timeout: float = 120.0
) -> dict[str, Any]:
    """The tournament of ``body`` made by the player of the session cookie ``creator``
    (the client left with that cookie), started at once and played to its end by its
    bots: its view once over."""
    made = as_player(client, creator).post("/api/tournaments", json=body)
    assert made.status_code == 200, made.text
    tournament_id = made.json()["id"]
    started = client.post(f"/api/tournaments/{tournament_id}/start")
    assert started.status_code == 200, started.text
    return until_over(client, tournament_id, timeout)
