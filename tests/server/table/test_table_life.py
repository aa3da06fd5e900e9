"""Timers, absence and reconnects, and who may connect to a table."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.server.clock import FakeClock
from tests.kit.apps import OpenClient
from tests.kit.factories import HUMAN, table_body
from tests.kit.players import connect, new_player
from tests.kit.scripted import play_to_end
from tests.kit.sockets import next_state, nothing_happens


@pytest.fixture
def quick_client(open_client: OpenClient) -> TestClient:
    """A server whose players have half a second's grace."""
    return open_client(grace_seconds=0.5)


def test_the_turn_timer_lets_greedy_play_the_turn(
    quick_client: TestClient, clock: FakeClock
) -> None:
    client = quick_client
    client.post("/api/session", json={"nickname": "slow"})
    body = table_body("three-thirteen", HUMAN, "greedy", turn_seconds=5)
    created = client.post("/api/tables", json=body).json()
    with client.websocket_connect(created["ws_url"]) as ws:
        mine = next_state(ws, lambda m: m["legal_actions"])
        turn = mine["turn"]
        assert turn["player"] == 0 and turn["seconds_left"] == 5
        clock.advance(4.9)
        nothing_happens(ws)  # not before the timer runs out
        clock.advance(0.2)
        actors = []
        while True:  # until the next turn (the bot's; or a new round's, if the bot went out)
            message = next_state(ws, lambda m: m["last_action"] is not None)
            if message["last_action"]["seat"] == 0:
                actors.append(message["last_action"]["actor"])
            if message["turn"]["deadline"] != turn["deadline"]:
                break
        # greedy played the whole turn for the player, then the bot's turn came
        assert len(actors) >= 2 and set(actors) == {"timeout"}


def test_an_absent_player_is_replaced_and_gets_the_seat_back(
    quick_client: TestClient, clock: FakeClock
) -> None:
    client = quick_client
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    client.cookies.set("rummykit_session", ann)
    body = table_body("burraco", HUMAN, HUMAN, turn_seconds=None)
    created = client.post("/api/tables", json=body).json()
    client.cookies.set("rummykit_session", bob)
    client.post(f"/api/tables/{created['table_id']}/join", json={})
    client.cookies.clear()
    with connect(client, created["ws_url"], ann) as ws_ann:
        first = next_state(ws_ann, lambda m: m["status"] == "playing")
        nothing_happens(ws_ann)
        assert not first["players"][1]["substitute"]
        # bob never connects: after the grace period a bot plays for him
        clock.advance(0.6)
        replaced = next_state(
            ws_ann, lambda m: m["players"][1]["substitute"] and not m["players"][1]["connected"]
        )
        assert replaced["players"][0]["connected"]
        if first["turn"]["player"] == 1:
            moved = next_state(ws_ann, lambda m: m["last_action"] is not None)
            assert moved["last_action"]["actor"] == "substitute"
        with connect(client, created["ws_url"], bob) as ws_bob:
            back = next_state(ws_bob, lambda m: True)
            assert back["seat"] == 1 and back["observation"]["player"] == 1
            assert back["players"][1]["connected"] and not back["players"][1]["substitute"]
            assert len(back["observation"]["hand"]) > 0
        next_state(ws_ann, lambda m: m["players"][1]["connected"])
        gone = next_state(ws_ann, lambda m: not m["players"][1]["connected"])
        assert not gone["players"][1]["substitute"]  # the grace period starts again


def test_who_may_connect(quick_client: TestClient) -> None:
    client = quick_client
    host = new_player(client, "host")
    stranger = new_player(client, "stranger")
    client.cookies.set("rummykit_session", host)
    private = client.post(
        "/api/tables",
        json={"game": "burraco", "seats": [{"kind": "human"}] * 2, "private": True},
    ).json()
    client.cookies.clear()

    def refused(path: str, cookie: str | None, headers: dict[str, str] | None = None) -> str:
        all_headers = dict(headers or {})
        if cookie:
            all_headers["cookie"] = f"rummykit_session={cookie}"
        with client.websocket_connect(path, headers=all_headers) as ws:
            message = ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
            return str(message["code"])

    path = private["ws_url"]
    assert refused(path, None) == "no_session"
    assert refused(path, "forged") == "no_session"
    assert refused(path, stranger) == "private_table"
    assert refused(f"{path}?token=wrong", stranger) == "private_table"
    assert refused("/ws/tables/nosuch", stranger) == "not_found"
    assert refused(path, host, {"origin": "http://evil.example"}) == "bad_origin"
    with connect(client, f"{path}?token={private['invite_token']}", stranger) as ws:
        watched = ws.receive_json()
        assert watched["seat"] is None and watched["observation"]["hand"] is None
        ws.send_json({"type": "action", "state_number": 0, "action": "draw"})
        assert ws.receive_json()["code"] == "not_seated"
        ws.send_json({"type": "hint"})
        assert ws.receive_json()["code"] == "hint_not_your_turn"
    with client.websocket_connect(
        path, headers={"cookie": f"rummykit_session={host}", "origin": "http://testserver"}
    ) as ws:
        assert ws.receive_json()["seat"] == 0
        ws.send_json({"type": "action", "state_number": 0, "action": "draw"})
        assert ws.receive_json()["code"] == "table_not_started"


def test_a_player_who_comes_back_to_a_finished_game_learns_its_result(
    quick_client: TestClient,
) -> None:
    client = quick_client
    client.post("/api/session", json={"nickname": "late"})
    body = table_body("three-thirteen", HUMAN, "greedy", rules={"last_round": 1}, turn_seconds=None)
    created = client.post("/api/tables", json=body).json()
    with client.websocket_connect(created["ws_url"]) as ws:
        over = play_to_end(ws)[-1]
    with client.websocket_connect(created["ws_url"]) as ws:
        state = ws.receive_json()
        assert state["type"] == "state" and state["status"] == "over"
        again = ws.receive_json()
        assert again == over and again["type"] == "game_over" and again["seed"]
