"""A page that loses focus in its player's turn at a rated table is noted once a turn
(for the fair-play assessment), and nothing else is: not another seat's turn, not a
state gone by, not a casual table; nobody is told, and a malformed message is refused."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.kit.players import connect, registered
from tests.kit.sockets import next_of_type, next_state

QUICK = {"first_round": 3, "last_round": 3}
TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def _table(client: TestClient, ann: str, bob: str, *, rated: bool) -> dict[str, Any]:
    client.cookies.set("rummykit_session", ann)
    body = {"game": "three-thirteen", "seats": TWO_PEOPLE, "rules": QUICK, "turn_seconds": None}
    created = client.post("/api/tables", json={**body, "rated": rated}).json()
    client.cookies.set("rummykit_session", bob)
    joined = client.post(f"/api/tables/{created['table_id']}/join", json={})
    assert joined.status_code == 200
    client.cookies.clear()
    return dict(created)


def _no_refusal(ws: Any) -> None:
    """Nothing but states before the answer to a ping: no refusal, nothing told."""
    ws.send_json({"type": "ping"})
    while (message := ws.receive_json())["type"] != "pong":
        assert message["type"] == "state", message


def _losses(client: TestClient, table_id: str, seat: int) -> int:
    storage = client.app.state.server.storage  # type: ignore[attr-defined]
    return int(client.portal.call(storage.focus_losses, table_id, seat))  # type: ignore[union-attr]


def test_a_lost_focus_is_noted_once_a_turn_and_only_in_the_players_own_turn(
    any_client: TestClient,
) -> None:
    client = any_client
    ann, _ = registered(client, "ann")
    bob, _ = registered(client, "bob")
    rated = _table(client, ann, bob, rated=True)
    casual = _table(client, ann, bob, rated=False)
    for table in (rated, casual):
        with connect(client, table["ws_url"], ann) as a, connect(client, table["ws_url"], bob) as b:
            state = next_state(a, lambda m: m["status"] == "playing")
            number = state["state_number"]
            mover, waiter = (a, b) if state["legal_actions"] else (b, a)
            mover_state = state if mover is a else next_state(b, lambda m: m["legal_actions"])
            for ws, sent in ((mover, number), (mover, number), (waiter, number), (mover, 99)):
                ws.send_json({"type": "focus_lost", "state_number": sent})
            _no_refusal(mover)
            _no_refusal(waiter)
            # a move after them: the host has handled every message before it
            move = mover_state["legal_actions"][0]
            mover.send_json({"type": "action", "state_number": number, "action": move})
            next_state(mover, lambda m, n=number: m["state_number"] > n)
            seat = mover_state["seat"]
            expected = 1 if table is rated else 0
            assert (
                _losses(client, table["table_id"], seat),
                _losses(client, table["table_id"], 1 - seat),
            ) == (expected, 0)
            mover.send_json({"type": "focus_lost"})
            assert next_of_type(mover, "error")["code"] == "invalid_message"
