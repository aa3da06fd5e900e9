"""Vacations from turn-based games, with a fake clock of days: a day of the yearly
allowance taken when a turn's time would run out (one day for all the games whose time
runs out at once), days declared in advance that stop the clocks and that the others
see, the time out once the allowance is spent, and the refusals of a vacation that does
not fit."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.clock import FakeClock
from rummykit.server.settings import Settings
from tests.kit.apps import OpenClient
from tests.kit.players import as_player, connect, registered
from tests.kit.sockets import next_of_type, next_state, nothing_happens
from tests.kit.wait import wait_until

DAY = 86_400.0
PEOPLE = [{"kind": "human"}, {"kind": "human"}]
RULES = {"first_round": 3, "last_round": 4}


def _bob_to_move(client: TestClient, ann: str, bob: str) -> dict[str, Any]:
    """A turn-based table of ann's (one day a move) that bob joins, at bob's turn (ann
    plays her turn first if the deal makes her start); its summary."""
    body = {"game": "three-thirteen", "rules": RULES, "seats": PEOPLE, "days_per_move": 1}
    table_id = as_player(client, ann).post("/api/tables", json=body).json()["table_id"]
    assert as_player(client, bob).post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    with connect(client, f"/ws/tables/{table_id}", ann) as ws:
        state = next_state(ws, lambda m: m["status"] == "playing")
        while state["turn"]["player"] == 0:
            legal = state["legal_actions"]
            action = "draw" if "draw" in legal else next(a for a in legal if a.startswith("disc"))
            number = state["state_number"]
            ws.send_json({"type": "action", "state_number": number, "action": action})
            state = next_state(ws, lambda m, n=number: m["state_number"] > n)
    summary: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    assert summary["turn_seat"] == 1
    return summary


def test_days_are_taken_when_time_would_run_out_then_the_time_runs_out(
    open_client: OpenClient, settings: Settings, clock: FakeClock
) -> None:
    """On either database: the day is taken under the player's lock."""
    client = open_client(settings, vacation_days_per_year=2)
    (ann, _), (bob, _) = registered(client, "ann"), registered(client, "bob")
    first = _bob_to_move(client, ann, bob)
    second = _bob_to_move(client, ann, bob)  # at the same moment: both run out together
    deadline = first["turn_deadline"]
    assert second["turn_deadline"] == deadline
    with connect(client, f"/ws/tables/{first['table_id']}", ann) as ws:
        next_state(ws, lambda m: m["status"] == "playing")
        clock.advance(DAY + 1)
        away = next_state(ws, lambda m: m["turn"]["vacation_until"])
        assert away["turn"]["vacation_until"] == pytest.approx(deadline + DAY)
        assert away["turn"]["deadline"] == pytest.approx(deadline + DAY)
        assert not away["turn"]["expired"] and not away["players"][1]["gone"]
        status = as_player(client, bob).get("/api/vacation").json()
        # one day for both games, however many tables ran out at that moment
        assert (status["allowance_days"], status["days_left"]) == (2, 1), status
        assert status["vacations"] == [
            {"starts_at": deadline, "ends_at": deadline + DAY, "declared": False}
        ]
        assert status["away_until"] == pytest.approx(deadline + DAY)
        listed = as_player(client, ann).get("/api/current").json()
        assert [t["turn_deadline"] for t in listed] == pytest.approx([deadline + DAY] * 2)
        assert all(t["vacation_until"] == pytest.approx(deadline + DAY) for t in listed)
        clock.advance(DAY)  # the second day
        next_state(ws, lambda m: m["turn"]["deadline"] == pytest.approx(deadline + 2 * DAY))
        assert as_player(client, bob).get("/api/vacation").json()["days_left"] == 0
        clock.advance(DAY)  # no day left: the others choose
        late = next_state(ws, lambda m: m["turn"]["expired"])
        assert late["players"][1]["gone"] and late["turn"]["vacation_until"] is None
        ws.send_json({"type": "claim"})
        assert next_of_type(ws, "game_over")["winners"] == [0]
    url = f"/api/tables/{second['table_id']}"
    assert client.get(url).json()["status"] == "playing"


def test_a_declared_vacation_stops_the_clock_and_the_others_see_it(
    open_client: OpenClient, clock: FakeClock
) -> None:
    client = open_client(vacation_days_per_year=5)
    (ann, _), (bob, _) = registered(client, "ann"), registered(client, "bob")
    table = _bob_to_move(client, ann, bob)
    deadline = table["turn_deadline"]
    with connect(client, f"/ws/tables/{table['table_id']}", ann) as ws:
        next_state(ws, lambda m: m["status"] == "playing")
        clock.advance(3600)
        now = clock.now()
        declared = as_player(client, bob).post("/api/vacation", json={"days": 3})
        assert declared.status_code == 200, declared.text
        status = declared.json()
        assert status["days_left"] == 2 and status["away_until"] == now + 3 * DAY
        assert status["vacations"] == [
            {"starts_at": now, "ends_at": now + 3 * DAY, "declared": True}
        ]
        away = next_state(ws, lambda m: m["turn"]["vacation_until"])
        assert away["turn"]["vacation_until"] == now + 3 * DAY
        assert away["turn"]["deadline"] == pytest.approx(deadline + 3 * DAY)
        clock.advance(3 * DAY + DAY - 3600 - 1)  # a second before the time runs out
        nothing_happens(ws)
        clock.advance(2)  # a day of the allowance is taken (two were left)
        wait_until(
            lambda: as_player(client, bob).get("/api/vacation").json()["days_left"] == 1,
            10,
            what="a day taken",
        )
    summary = as_player(client, ann).get(f"/api/tables/{table['table_id']}").json()
    assert summary["status"] == "playing"
    assert summary["turn_deadline"] == pytest.approx(deadline + 4 * DAY)


def test_a_vacation_that_does_not_fit_is_refused(open_client: OpenClient, clock: FakeClock) -> None:
    client = open_client(vacation_days_per_year=4)
    cookie, _ = registered(client, "ann")
    as_player(client, cookie)
    for body in ({"days": 0}, {"days": "2"}, {"days": 1.5}, {"days": True}, {}):
        refused = client.post("/api/vacation", json=body)
        assert refused.status_code == 422, (body, refused.text)
        assert refused.json()["error"]["code"] == "invalid_request"
    now = clock.now()
    for body in ({"days": 5}, {"days": 1, "starts_at": now - DAY}):
        refused = client.post("/api/vacation", json=body)
        assert refused.status_code == 400, (body, refused.text)
        assert refused.json()["error"]["code"] == "bad_vacation"
        assert refused.json()["error"]["params"] == {"days_left": 4}
    assert client.post("/api/vacation", json={"days": 2, "starts_at": now + DAY}).status_code == 200
    overlap = client.post("/api/vacation", json={"days": 1, "starts_at": now + 2 * DAY})
    assert overlap.json()["error"]["params"] == {"days_left": 2}
    later = client.post("/api/vacation", json={"days": 2, "starts_at": now + 10 * DAY})
    assert later.status_code == 200 and later.json()["days_left"] == 0
    assert client.post("/api/vacation", json={"days": 1}).json()["error"]["code"] == "bad_vacation"
    status = client.get("/api/vacation").json()
    assert status["away_until"] is None and len(status["vacations"]) == 2
    client.cookies.clear()
    assert client.get("/api/vacation").status_code == 401
