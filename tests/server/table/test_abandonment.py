"""A rated game abandoned: a person away past the grace period, or whose turns a stand-in
played ``abandon_turns`` times in a row, is gone; the other side may claim the win at
once (rated, the side that is gone last), a game every person left is aborted unrated,
and casual tables play on.  The table's summary, its record and the profile say how the
game ended.  On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.clock import FakeClock
from rummykit.server.settings import Settings
from tests.kit.apps import OpenClient
from tests.kit.players import connect, registered
from tests.kit.sockets import next_of_type, next_state, sent_before_pong
from tests.kit.wait import wait_until

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
RULES = {"first_round": 3, "last_round": 11}


@pytest.fixture
def quick(open_client: OpenClient, settings: Settings) -> TestClient:
    """A server on either database whose players have half a second's grace, gone after
    two turns of a stand-in's."""
    return open_client(settings, grace_seconds=0.5, abandon_turns=2)


def _table(client: TestClient, ann: str, bob: str, **body: Any) -> dict[str, Any]:
    """A table of ann's (seat 0) that bob joins (seat 1); its game under way."""
    client.cookies.set("rummykit_session", ann)
    fields = {"game": "three-thirteen", "rules": RULES, "seats": TWO_PEOPLE, **body}
    created = client.post("/api/tables", json=fields)
    assert created.status_code == 200, created.text
    client.cookies.set("rummykit_session", bob)
    assert client.post(f"/api/tables/{created.json()['table_id']}/join", json={}).status_code == 200
    client.cookies.clear()
    return dict(created.json())


def _claim_refused(ws: Any) -> None:
    ws.send_json({"type": "claim"})
    assert next_of_type(ws, "error")["code"] == "nothing_to_claim"


def test_the_win_is_claimed_over_a_player_who_is_gone(quick: TestClient, clock: FakeClock) -> None:
    client = quick
    (ann, ann_id), (bob, bob_id) = registered(client, "ann"), registered(client, "bob")
    table = _table(client, ann, bob, turn_seconds=None)
    with connect(client, table["ws_url"], ann) as ws:
        first = next_state(ws, lambda m: m["status"] == "playing")
        assert not first["players"][1]["gone"]
        _claim_refused(ws)  # bob is within his grace period: nothing to claim yet
        clock.advance(0.6)
        gone = next_state(ws, lambda m: m["players"][1]["gone"])
        assert not gone["players"][0]["gone"] and gone["players"][1]["substitute"]
        ws.send_json({"type": "claim"})
        over = next_of_type(ws, "game_over")
    assert (over["winners"], over["ended_by"]) == ([0], "abandoned")
    summary = client.get(f"/api/tables/{table['table_id']}").json()
    assert (summary["status"], summary["ended_by"], summary["winners"]) == (
        "over",
        "abandoned",
        [0],
    )
    changes = {c["seat"]: c["change"] for c in summary["rating_changes"]}
    assert changes[0] > 0 > changes[1]
    record = client.get(f"/api/tables/{table['table_id']}/record").json()
    assert (record["ended_by"], record["winners"]) == ("abandoned", [0])
    [game] = client.get(f"/api/players/{bob_id}").json()["recent"]
    assert game["ended_by"] == "abandoned" and game["left_early"]
    assert client.get(f"/api/players/{ann_id}").json()["recent"][0]["place"] == 1


def test_a_game_every_person_left_is_aborted_unrated(quick: TestClient, clock: FakeClock) -> None:
    client = quick
    (ann, ann_id), (bob, _) = registered(client, "ann"), registered(client, "bob")
    table = _table(client, ann, bob, turn_seconds=None)
    with connect(client, table["ws_url"], ann) as ws:
        next_state(ws, lambda m: m["status"] == "playing")
    clock.advance(0.6)  # both are away past their grace periods
    url = f"/api/tables/{table['table_id']}"
    summary = wait_until(lambda: (s := client.get(url).json())["status"] == "over" and s, 30,
                         what="the deserted game's end")  # fmt: skip
    assert (summary["ended_by"], summary["winners"], summary["rating_changes"]) == (
        "aborted",
        [],
        [],
    )
    assert client.get(f"/api/players/{ann_id}").json()["ratings"] == []


def test_a_player_whose_turns_a_stand_in_plays_is_gone_and_the_game_aborts(
    quick: TestClient, clock: FakeClock
) -> None:
    client = quick
    (ann, _), (bob, _) = registered(client, "ann"), registered(client, "bob")
    table = _table(client, ann, bob, turn_seconds=5, time_bank_seconds=0)
    with connect(client, table["ws_url"], ann) as ws_ann, connect(client, table["ws_url"], bob):
        state = next_state(ws_ann, lambda m: m["status"] == "playing")
        # both sit at their screens and never move: the turn timer's stand-in plays
        for _ in range(12):
            if any(p["gone"] for p in state["players"]):
                break
            deadline = state["turn"]["deadline"]
            clock.advance(5.1)
            state = next_state(ws_ann, lambda m, d=deadline: m["turn"]["deadline"] != d)
        mover = 1 - state["turn"]["player"]  # the seat whose turns ran out twice first
        assert state["players"][mover]["gone"] and not state["players"][1 - mover]["gone"]
        clock.advance(5.1)  # the other one's second turn runs out too: nobody plays
        over = next_of_type(ws_ann, "game_over")
    assert over["ended_by"] == "aborted" and over["winners"] == []


def test_a_casual_game_plays_on_and_nobody_claims_it(quick: TestClient, clock: FakeClock) -> None:
    client = quick
    (ann, _), (bob, _) = registered(client, "ann"), registered(client, "bob")
    table = _table(client, ann, bob, turn_seconds=None, rated=False)
    with connect(client, table["ws_url"], ann) as ws:
        next_state(ws, lambda m: m["status"] == "playing")
        clock.advance(0.6)
        away = next_state(ws, lambda m: m["players"][1]["substitute"])
        assert not away["players"][1]["gone"]
        _claim_refused(ws)
        # the stand-in may still be playing bob's turn, but nothing ends the game
        assert all(m["type"] != "game_over" for m in sent_before_pong(ws))
    assert client.get(f"/api/tables/{table['table_id']}").json()["status"] == "playing"


def test_only_a_present_player_of_another_side_claims(quick: TestClient, clock: FakeClock) -> None:
    client = quick
    (ann, _), (bob, _), (eve, _) = (registered(client, n) for n in ("ann", "bob", "eve"))
    table = _table(client, ann, bob, turn_seconds=None)
    with connect(client, table["ws_url"], ann) as ws_ann:
        next_state(ws_ann, lambda m: m["status"] == "playing")
        clock.advance(0.6)
        next_state(ws_ann, lambda m: m["players"][1]["gone"])
        with connect(client, table["ws_url"], eve) as ws_eve:  # a watcher
            next_state(ws_eve, lambda m: True)
            _claim_refused(ws_eve)
        with connect(client, table["ws_url"], bob) as ws_bob:  # bob comes back
            back = next_state(ws_bob, lambda m: True)
            assert not back["players"][1]["gone"]
            _claim_refused(ws_ann)  # nobody is gone now
            _claim_refused(ws_bob)
    assert client.get(f"/api/tables/{table['table_id']}").json()["status"] == "playing"
