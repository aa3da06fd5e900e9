"""Turn-based games in the lobby: a player's current games ordered by whose turn it is and
the time left, each with its deadline; the limit of turn-based games a player may have
(on creating and on joining), apart from the limit of live tables; and a claim or a
hand-over asked at another table than one's own."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.clock import FakeClock
from tests.kit.apps import OpenClient
from tests.kit.factories import HUMAN, table_body
from tests.kit.players import as_player, connect, registered
from tests.kit.sockets import next_of_type, next_state

DAY = 86_400.0
PEOPLE = [{"kind": "human"}, {"kind": "human"}]
RULES = {"first_round": 3, "last_round": 4}


def _turn_based(client: TestClient, maker: str, joiner: str | None, days: int) -> str:
    """A turn-based Three-Thirteen table of ``maker``'s, joined by ``joiner`` if given."""
    body = {"game": "three-thirteen", "rules": RULES, "seats": PEOPLE, "days_per_move": days}
    made = as_player(client, maker).post("/api/tables", json=body)
    assert made.status_code == 200, made.text
    table_id = str(made.json()["table_id"])
    if joiner is not None:
        joined = as_player(client, joiner).post(f"/api/tables/{table_id}/join", json={})
        assert joined.status_code == 200, joined.text
    return table_id


def _pass_turn(client: TestClient, table_id: str, cookie: str) -> None:
    """Play the whole turn of ``cookie``'s player at ``table_id`` (draw, discard)."""
    with connect(client, f"/ws/tables/{table_id}", cookie) as ws:
        state = next_state(ws, lambda m: m["status"] == "playing")
        seat = state["seat"]
        while state["turn"]["player"] == seat:
            legal = state["legal_actions"]
            action = "draw" if "draw" in legal else next(a for a in legal if a.startswith("disc"))
            number = state["state_number"]
            ws.send_json({"type": "action", "state_number": number, "action": action})
            state = next_state(ws, lambda m, n=number: m["state_number"] > n)


def test_current_games_put_your_turn_first_then_by_time_left(
    open_client: OpenClient, clock: FakeClock
) -> None:
    client = open_client()
    (ann, ann_id), (bob, _) = registered(client, "ann"), registered(client, "bob")
    made: dict[str, float] = {}
    ids = []
    for index, days in enumerate((7, 1, 3, 2, 14)):
        table_id = _turn_based(client, ann, bob, days)
        made[table_id] = clock.now()
        ids.append(table_id)
        summary = client.get(f"/api/tables/{table_id}").json()
        mover = summary["seats"][summary["turn_seat"]]["player_id"]
        # ann to move at the tables of even index, bob at the others
        if (mover == ann_id) != (index % 2 == 0):
            _pass_turn(client, table_id, ann if mover == ann_id else bob)
            made[table_id] = clock.now()
        clock.advance(600)
    live = as_player(client, ann).post("/api/tables", json=table_body("burraco", HUMAN, "greedy"))
    listed = as_player(client, ann).get("/api/current").json()
    assert len(listed) == 6
    mine = [t for t in listed if t["your_turn"]]
    assert {t["table_id"] for t in mine} == {ids[0], ids[2], ids[4]}
    for table in listed:
        if table["days_per_move"] is not None:
            since = made[table["table_id"]]
            assert table["turn_deadline"] == pytest.approx(since + table["days_per_move"] * DAY)
            assert table["vacation_until"] is None
    deadlines = [t["turn_deadline"] for t in listed if t["days_per_move"] is not None]
    assert [t["table_id"] for t in listed[:3]] == [t["table_id"] for t in mine]
    assert deadlines[:3] == sorted(deadlines[:3]) and deadlines[3:] == sorted(deadlines[3:])
    assert listed[3]["table_id"] == live.json()["table_id"] and not listed[3]["your_turn"]
    theirs = as_player(client, bob).get("/api/current").json()
    assert {t["table_id"] for t in theirs if t["your_turn"]} == {ids[1], ids[3]}


def test_the_limit_of_turn_based_games_holds_apart_from_live_tables(
    open_client: OpenClient,
) -> None:
    client = open_client(max_turn_based_per_player=3, max_tables_per_player=2)
    (ann, _), (bob, _), (cat, _) = (registered(client, n) for n in ("ann", "bob", "cat"))
    for _ in range(3):
        _turn_based(client, ann, None, 2)
    body = {"game": "three-thirteen", "seats": PEOPLE, "days_per_move": 2}
    refused = as_player(client, ann).post("/api/tables", json=body)
    assert refused.status_code == 429
    assert refused.json()["error"] == {
        "code": "too_many_turn_based",
        "message": "finish some turn-based games first",
        "params": {"limit": 3},
    }
    # live tables have their own limit, which the turn-based games do not fill
    for _ in range(2):
        live = as_player(client, ann).post("/api/tables", json={"game": "burraco", "seats": PEOPLE})
        assert live.status_code == 200, live.text
    third = as_player(client, ann).post("/api/tables", json={"game": "burraco", "seats": PEOPLE})
    assert third.json()["error"]["code"] == "too_many_tables"
    # a seat taken at another's turn-based table counts too
    for _ in range(2):
        _turn_based(client, bob, cat, 1)
    _turn_based(client, cat, None, 1)  # cat's own: three in all
    other = _turn_based(client, bob, None, 1)
    refused_seat = as_player(client, cat).post(f"/api/tables/{other}/join", json={})
    assert refused_seat.status_code == 429
    assert refused_seat.json()["error"]["code"] == "too_many_turn_based"
    waiting = client.get(f"/api/tables/{other}").json()
    assert waiting["status"] == "waiting" and not waiting["seats"][1]["taken"]


def test_nobody_claims_or_hands_over_at_another_table(
    open_client: OpenClient, clock: FakeClock
) -> None:
    """Ann's opponent is late at her table; at Cat and Dan's table Dan is late.  Ann may
    claim at her own table only: at theirs she is a watcher."""
    client = open_client(vacation_days_per_year=0)
    players = [registered(client, n)[0] for n in ("ann", "bob", "cat", "dan")]
    ann, bob, cat, dan = players
    mine = _turn_based(client, ann, bob, 1)
    theirs = _turn_based(client, cat, dan, 1)
    for table_id in (mine, theirs):  # the second seat to move at both
        summary = client.get(f"/api/tables/{table_id}").json()
        if summary["turn_seat"] == 0:
            _pass_turn(client, table_id, ann if table_id == mine else cat)
    clock.advance(DAY + 1)
    with (
        connect(client, f"/ws/tables/{theirs}", ann) as ws_theirs,
        connect(client, f"/ws/tables/{mine}", ann) as ws_mine,
    ):
        watched: dict[str, Any] = next_state(ws_theirs, lambda m: m["turn"]["expired"])
        assert watched["seat"] is None and watched["players"][1]["gone"]
        for kind, code in (("claim", "nothing_to_claim"), ("substitute", "nothing_to_substitute")):
            ws_theirs.send_json({"type": kind})
            assert next_of_type(ws_theirs, "error")["code"] == code
        next_state(ws_mine, lambda m: m["turn"]["expired"])
        ws_mine.send_json({"type": "claim"})
        assert next_of_type(ws_mine, "game_over")["winners"] == [0]
    assert client.get(f"/api/tables/{theirs}").json()["status"] == "playing"
    assert client.get(f"/api/tables/{mine}").json()["status"] == "over"
