"""A rematch: the same table again (seats, rules, clock) with a fresh deal, made once,
each player of the old table in their old seat; the old table's other players are
offered it over their sockets, its watchers are not."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.scripted import play_to_end
from tests.server.test_whole_games import connect, new_player

SHORT = {"first_round": 3, "last_round": 3}


def _as(client: TestClient, cookie: str) -> TestClient:
    client.cookies.clear()
    client.cookies.set("rummykit_session", cookie)
    return client


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(500):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} came")


def test_a_rematch_against_the_computer(client: TestClient) -> None:
    ann, stranger = new_player(client, "ann"), new_player(client, "stranger")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    body = {"game": "three-thirteen", "rules": SHORT, "seats": seats, "turn_seconds": 20}
    old = _as(client, ann).post("/api/tables", json=body).json()
    assert client.post(f"/api/tables/{old['table_id']}/rematch").status_code == 409
    with connect(client, old["ws_url"], ann) as ws:
        play_to_end(ws)
    assert _as(client, stranger).post(f"/api/tables/{old['table_id']}/rematch").status_code == 403
    first = _as(client, ann).post(f"/api/tables/{old['table_id']}/rematch").json()
    assert first["seat"] == 0 and first["invite_token"]
    again = client.post(f"/api/tables/{old['table_id']}/rematch").json()
    assert again == first  # made once
    new = client.get(f"/api/tables/{first['table_id']}").json()
    before = client.get(f"/api/tables/{old['table_id']}").json()
    assert new["table_id"] != old["table_id"] and new["commitment"] != before["commitment"]
    assert new["status"] == "playing"  # the computer's seat is filled: it starts at once
    assert [(s["kind"], s["level"]) for s in new["seats"]] == [("human", None), ("bot", "random")]
    assert (new["game"], new["rules"], new["turn_seconds"]) == (
        before["game"],
        before["rules"],
        before["turn_seconds"],
    )


def test_a_rematch_between_people_is_offered_to_the_other_player(client: TestClient) -> None:
    ann, bob, carol = (new_player(client, n) for n in ("ann", "bob", "carol"))
    body = {
        "game": "three-thirteen",
        "rules": SHORT,
        "seats": [{"kind": "human"}] * 2,
        "turn_seconds": None,
    }
    old = _as(client, ann).post("/api/tables", json=body).json()
    table_id = old["table_id"]
    assert _as(client, bob).post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 1
    # bob leaves at once: the computer plays his seat, and ann plays the game out
    assert client.post(f"/api/tables/{table_id}/leave").status_code == 200
    with connect(client, old["ws_url"], ann) as ws:
        play_to_end(ws)
    with (
        connect(client, old["ws_url"], bob) as ws_bob,
        connect(client, old["ws_url"], carol) as ws_carol,
    ):
        _until(ws_bob, "game_over")
        _until(ws_carol, "game_over")
        made = _as(client, ann).post(f"/api/tables/{table_id}/rematch").json()
        offer = _until(ws_bob, "rematch")
        assert offer["table_id"] == made["table_id"] and offer["by"] == 0
        assert offer["invite_token"] == made["invite_token"]
        ws_carol.send_json({"type": "ping"})
        assert _until(ws_carol, "pong")["type"] == "pong"  # the watcher was offered nothing
    waiting = client.get(f"/api/tables/{made['table_id']}").json()
    assert waiting["status"] == "waiting" and waiting["private"]
    joined = _as(client, bob).post(f"/api/tables/{table_id}/rematch").json()
    assert joined["table_id"] == made["table_id"] and joined["seat"] == 1
    started = client.get(f"/api/tables/{made['table_id']}").json()
    assert started["status"] == "playing"
    assert [s["name"] for s in started["seats"]] == ["ann", "bob"]
