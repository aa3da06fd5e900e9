"""The player's games not over (``GET /api/current``): where to come back to."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rummykit.server.clock import FakeClock
from tests.kit.players import new_player


def test_current_games_lists_the_players_tables_not_over(
    client: TestClient, clock: FakeClock
) -> None:
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    client.cookies.set("rummykit_session", ann)
    assert client.get("/api/current").json() == []
    solo = client.post("/api/play-now", json={"game": "burraco"}).json()
    clock.advance(1.0)
    people = client.post(
        "/api/tables", json={"game": "burraco", "seats": [{"kind": "human"}] * 2}
    ).json()
    listed = client.get("/api/current").json()
    # newest first, each with its state
    assert [t["table_id"] for t in listed] == [people["table_id"], solo["table_id"]]
    assert [t["status"] for t in listed] == ["waiting", "playing"]
    # a computer is named by its level as players know it, never by its algorithm
    [computer] = [s for s in listed[1]["seats"] if s["kind"] == "bot"]
    assert computer["name"].startswith("Computer (") and computer["level"] not in computer["name"]
    assert listed[1]["finished_at"] is None and listed[1]["tournament_id"] is None
    # leaving a game under way keeps it listed (the way back); a seat given up does not
    assert client.post(f"/api/tables/{solo['table_id']}/leave").status_code == 200
    assert client.post(f"/api/tables/{people['table_id']}/leave").status_code == 200
    assert [t["table_id"] for t in client.get("/api/current").json()] == [solo["table_id"]]
    # another player's list is their own
    client.cookies.set("rummykit_session", bob)
    assert client.get("/api/current").json() == []
    client.cookies.clear()
    assert client.get("/api/current").status_code == 401
