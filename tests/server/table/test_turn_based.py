"""Turn-based tables (games over days) played with a fake clock of days: the time per move
checked at creation, no grace period or substitute for a player who is simply not
connected, a time out that lets the others claim the win or hand the move to a stand-in,
the listeners told of each turn and of time running low, a restart in the middle, whole
games against a bot, and Burraco for four with its teams."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.settings import Settings
from tests.kit.apps import OpenClient, app_client
from tests.kit.databases import make_settings
from tests.kit.factories import HUMAN, table_body
from tests.kit.players import as_player, connect, registered
from tests.kit.scripted import play_to_end
from tests.kit.sockets import next_of_type, next_state, nothing_happens
from tests.kit.wait import wait_until

DAY = 86_400.0
RULES = {"first_round": 3, "last_round": 4}


@pytest.fixture
def days_client(open_client: OpenClient) -> TestClient:
    """A server on the test's SQLite file whose live players would have a second's grace,
    and whose players have no vacation days (a time out is one at once)."""
    return open_client(grace_seconds=1.0, vacation_days_per_year=0)


def _table(client: TestClient, cookies: list[str], **fields: Any) -> dict[str, Any]:
    """A turn-based Three-Thirteen table of the first cookie's player that the others
    join, under way; its creation answer."""
    body = {
        "game": "three-thirteen",
        "rules": RULES,
        "seats": [{"kind": "human"}] * len(cookies),
        "days_per_move": 1,
        **fields,
    }
    created = as_player(client, cookies[0]).post("/api/tables", json=body)
    assert created.status_code == 200, created.text
    for cookie in cookies[1:]:
        joined = as_player(client, cookie).post(
            f"/api/tables/{created.json()['table_id']}/join", json={}
        )
        assert joined.status_code == 200, joined.text
    client.cookies.clear()
    return dict(created.json())


def _play_turn(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Play the connection's whole turn (draw, then discard the first card that may go);
    the first state after it."""
    seat = state["seat"]
    while state["turn"] is not None and state["turn"]["player"] == seat:
        legal = state["legal_actions"]
        action = "draw" if "draw" in legal else next(a for a in legal if a.startswith("disc"))
        number = state["state_number"]
        ws.send_json({"type": "action", "state_number": number, "action": action})
        state = next_state(ws, lambda m, n=number: m["state_number"] > n)
    return state


def test_the_time_per_move_is_checked(days_client: TestClient) -> None:
    client = days_client
    cookie, _ = registered(client, "ann")
    as_player(client, cookie)
    catalog = client.get("/api/games/catalog").json()
    assert catalog["days_per_move"] == [1, 2, 3, 5, 7, 14]
    people = [{"kind": "human"}, {"kind": "human"}]
    for days in (0, 4, 15, -1, 10**9):
        refused = client.post(
            "/api/tables", json={"game": "burraco", "seats": people, "days_per_move": days}
        )
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"]["code"] == "bad_days_per_move"
        assert refused.json()["error"]["params"] == {"days": days}
    for wrong in ("2", True, 2.5, [2]):
        refused = client.post(
            "/api/tables", json={"game": "burraco", "seats": people, "days_per_move": wrong}
        )
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["code"] == "invalid_request"
        assert refused.json()["error"]["params"]["field"].startswith("days_per_move")
    for extra in ({"turn_seconds": 30}, {"time_bank_seconds": 60}):
        body = {"game": "burraco", "seats": people, "days_per_move": 2, **extra}
        refused = client.post("/api/tables", json=body)
        assert refused.json()["error"]["code"] == "bad_days_per_move", refused.text
    bots = table_body("burraco", "greedy", "greedy", days_per_move=2, sit=False)
    assert client.post("/api/tables", json=bots).json()["error"]["code"] == "bad_days_per_move"
    made = client.post(
        "/api/tables", json={"game": "burraco", "seats": people, "days_per_move": 14}
    ).json()
    summary = client.get(f"/api/tables/{made['table_id']}").json()
    assert (summary["days_per_move"], summary["turn_seconds"], summary["rated"]) == (14, None, True)
    assert summary["time_bank_seconds"] is None and summary["turn_deadline"] is None
    live = client.post("/api/tables", json={"game": "burraco", "seats": people}).json()
    assert client.get(f"/api/tables/{live['table_id']}").json()["days_per_move"] is None


def test_a_player_away_for_hours_keeps_their_seat(
    days_client: TestClient, clock: FakeClock
) -> None:
    """Nobody plays for a person who is not connected: the turn waits for them, with the
    days left shown, and the others see no substitute."""
    client = days_client
    (ann, _), (bob, _) = registered(client, "ann"), registered(client, "bob")
    table = _table(client, [ann, bob], days_per_move=2)
    with connect(client, table["ws_url"], ann) as ws:
        state = next_state(ws, lambda m: m["status"] == "playing")
        assert state["days_per_move"] == 2
        if state["turn"]["player"] == 0:
            state = _play_turn(ws, state)
        assert state["turn"]["player"] == 1
        deadline = state["turn"]["deadline"]
        assert state["turn"]["seconds_left"] == pytest.approx(2 * DAY, abs=1)
        clock.advance(10 * 3600)  # ten hours: far past any live grace period
        nothing_happens(ws)
    with connect(client, table["ws_url"], ann) as ws:
        again = next_state(ws, lambda m: True)
        assert not any(p["substitute"] or p["gone"] for p in again["players"])
        assert again["turn"]["deadline"] == deadline
        assert again["turn"]["seconds_left"] == pytest.approx(2 * DAY - 10 * 3600, abs=1)
        assert not again["turn"]["expired"]
    listed = client.get("/api/tables").json()
    assert all(t["table_id"] != table["table_id"] for t in listed)  # started: not open


def test_time_out_then_the_win_is_claimed(days_client: TestClient, clock: FakeClock) -> None:
    client = days_client
    (ann, ann_id), (bob, bob_id) = registered(client, "ann"), registered(client, "bob")
    table = _table(client, [ann, bob])
    with connect(client, table["ws_url"], ann) as ws_ann, connect(client, table["ws_url"], bob):
        state = next_state(ws_ann, lambda m: m["status"] == "playing")
        assert state["hints"] is False  # rated: no hints, as at a live rated table
        ws_ann.send_json({"type": "hint"})
        assert next_of_type(ws_ann, "error")["code"] == "hint_not_allowed"
        if state["turn"]["player"] == 0:
            state = _play_turn(ws_ann, state)
        ws_ann.send_json({"type": "claim"})  # bob still has time
        assert next_of_type(ws_ann, "error")["code"] == "nothing_to_claim"
        clock.advance(DAY + 1)
        late = next_state(ws_ann, lambda m: m["turn"]["expired"])
        assert late["players"][1]["gone"] and not late["players"][0]["gone"]
        assert late["turn"]["seconds_left"] == 0 and late["legal_actions"] == []
        ws_ann.send_json({"type": "claim"})
        over = next_of_type(ws_ann, "game_over")
    assert (over["winners"], over["ended_by"]) == ([0], "abandoned")
    summary = client.get(f"/api/tables/{table['table_id']}").json()
    assert summary["status"] == "over" and summary["ended_by"] == "abandoned"
    changes = {c["seat"]: c["change"] for c in summary["rating_changes"]}
    assert changes[0] > 0 > changes[1]
    for player_id in (ann_id, bob_id):  # rated in the pool of games over days only
        pools = [r["pool"] for r in client.get(f"/api/players/{player_id}").json()["ratings"]]
        assert pools == ["three-thirteen/2+days"]
    boards = client.get("/api/leaderboard", params={"game": "three-thirteen"}).json()["boards"]
    [days_board] = [b for b in boards if b["turn_based"]]
    assert days_board["pool"] == "three-thirteen/2+days" and days_board["players"] == 2
    assert {e["player_id"] for e in days_board["entries"]} == {ann_id, bob_id}
    assert all(not b["entries"] for b in boards if not b["turn_based"])


def test_time_out_then_a_stand_in_plays_the_move(days_client: TestClient, clock: FakeClock) -> None:
    client = days_client
    (ann, _), (bob, _), (eve, _) = (registered(client, n) for n in ("ann", "bob", "eve"))
    table = _table(client, [ann, bob], rated=False)
    with (
        connect(client, table["ws_url"], ann) as ws_ann,
        connect(client, table["ws_url"], bob) as ws_bob,
        connect(client, table["ws_url"], eve) as ws_eve,
    ):
        state = next_state(ws_ann, lambda m: m["status"] == "playing")
        if state["turn"]["player"] == 0:
            state = _play_turn(ws_ann, state)
        ws_ann.send_json({"type": "substitute"})  # bob still has time
        assert next_of_type(ws_ann, "error")["code"] == "nothing_to_substitute"
        clock.advance(DAY + 1)
        late = next_state(ws_bob, lambda m: m["turn"]["expired"])
        assert late["legal_actions"]  # the late player may still move meanwhile
        next_state(ws_eve, lambda m: m["turn"]["expired"])
        for ws in (ws_bob, ws_eve):  # not the late player, not a watcher
            ws.send_json({"type": "substitute"})
            assert next_of_type(ws, "error")["code"] == "nothing_to_substitute"
        ws_ann.send_json({"type": "substitute"})
        handed = next_state(ws_bob, lambda m: m["last_action"] and m["last_action"]["seat"] == 1)
        assert handed["last_action"]["actor"] == "timeout"
        number = handed["state_number"]
        ws_bob.send_json({"type": "action", "state_number": number, "action": "discard 2c"})
        refusal = next_of_type(ws_bob, "error")
        assert refusal["code"] in ("turn_timed_out", "stale_state", "not_your_turn")
        mine = next_state(ws_ann, lambda m: m["turn"]["player"] == 0 and m["legal_actions"])
        assert not mine["turn"]["expired"] and not any(p["gone"] for p in mine["players"])
        assert mine["turn"]["seconds_left"] == pytest.approx(DAY, abs=1)
        ws_ann.send_json({"type": "substitute"})  # nothing to hand over any more
        assert next_of_type(ws_ann, "error")["code"] == "nothing_to_substitute"
    assert client.get(f"/api/tables/{table['table_id']}").json()["status"] == "playing"


def test_the_listeners_hear_each_turn_and_time_running_low(
    days_client: TestClient, clock: FakeClock
) -> None:
    client = days_client
    tables = client.app.state.server.tables  # type: ignore[attr-defined]
    turns: list[tuple[str, int, str]] = []
    lows: list[tuple[str, int, str]] = []
    tables.turn_listeners.append(lambda row, seat, player: turns.append((row.id, seat, player)))
    tables.low_time_listeners.append(lambda row, seat, player: lows.append((row.id, seat, player)))
    (ann, ann_id), (bob, bob_id) = registered(client, "ann"), registered(client, "bob")
    as_player(client, ann)
    live = client.post("/api/tables", json=table_body("three-thirteen", HUMAN, "greedy"))
    assert live.status_code == 200
    table = _table(client, [ann, bob], days_per_move=2)
    table_id = table["table_id"]
    player = {0: ann_id, 1: bob_id}
    with connect(client, table["ws_url"], ann) as ws:
        state = next_state(ws, lambda m: m["status"] == "playing")
        first = state["turn"]["player"]
        assert turns == [(table_id, first, player[first])]  # the start: the first mover
        if first == 0:
            state = _play_turn(ws, state)
            assert turns[-1] == (table_id, 1, bob_id)
        clock.advance(2 * DAY - 12 * 3600 - 1)  # 12 h and a second left: not low yet
        nothing_happens(ws)
        assert lows == []
        clock.advance(2)  # a quarter of two days is 12 h (less than 24 h)
        wait_until(lambda: lows, 10, what="time running low")
        assert lows == [(table_id, 1, bob_id)]
    assert all(t[0] == table_id for t in turns + lows)  # nothing of the live table


def test_a_restarted_server_keeps_the_clock_of_days(sqlite_url: str, bot_runner: BotRunner) -> None:
    settings = make_settings(sqlite_url, vacation_days_per_year=0)
    clock = FakeClock()
    with app_client(settings, runner=bot_runner, clock=clock) as client:
        (ann, _), (bob, _) = registered(client, "ann"), registered(client, "bob")
        table = _table(client, [ann, bob], days_per_move=3)
        with connect(client, table["ws_url"], ann) as ws:
            state = next_state(ws, lambda m: m["status"] == "playing")
            if state["turn"]["player"] == 0:
                state = _play_turn(ws, state)
            before = state["turn"]
        clock.advance(2 * DAY)
    later = FakeClock(clock.now())
    with app_client(settings, runner=bot_runner, clock=later) as client:
        with connect(client, table["ws_url"], bob) as ws_bob:
            again = next_state(ws_bob, lambda m: m["turn"] is not None)
            assert again["turn"]["deadline"] == before["deadline"]
            assert again["turn"]["seconds_left"] == pytest.approx(DAY, abs=1)
            assert not again["turn"]["expired"]
            later.advance(DAY + 1)
            late = next_state(ws_bob, lambda m: m["turn"]["expired"])
            assert late["players"][1]["gone"]
        summary = as_player(client, ann).get("/api/current").json()[0]
        assert summary["turn_seat"] == 1 and summary["turn_deadline"] == before["deadline"]
    # a server started after the time ran out finds the turn expired at once
    last = FakeClock(later.now() + DAY)
    with (
        app_client(settings, runner=bot_runner, clock=last) as client,
        connect(client, table["ws_url"], ann) as ws_ann,
    ):
        expired = next_state(ws_ann, lambda m: m["turn"] and m["turn"]["expired"])
        assert expired["players"][1]["gone"]
        ws_ann.send_json({"type": "substitute"})
        handed = next_state(ws_ann, lambda m: m["turn"]["player"] == 0)
        assert handed["last_action"]["actor"] == "timeout"


def test_a_whole_game_against_a_bot(days_client: TestClient, clock: FakeClock) -> None:
    """The bot moves within the bot pause (seconds, not days); the person plays every
    move of theirs over days of the fake clock."""
    client = days_client
    cookie, _ = registered(client, "ann")
    body = table_body("three-thirteen", HUMAN, "greedy", rules=RULES, days_per_move=1)
    created = as_player(client, cookie).post("/api/tables", json=body).json()
    summary = client.get(f"/api/tables/{created['table_id']}").json()
    assert summary["days_per_move"] == 1 and not summary["rated"]
    with connect(client, created["ws_url"], cookie) as ws:
        received = play_to_end(ws)
    states = [m for m in received if m["type"] == "state" and m["turn"]]
    assert all(m["days_per_move"] == 1 for m in states)
    assert {m["last_action"]["actor"] for m in states if m["last_action"]} == {"human", "bot"}
    assert received[-1]["ended_by"] is None and states[0]["hints"] is True
    assert client.get(f"/api/tables/{created['table_id']}").json()["status"] == "over"
    # afterwards, as any game: the full record, the replay of every hand, a review
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    assert record["format"] == "rummykit-record" and record["seed"] == received[-1]["seed"]
    replay = client.get(f"/api/tables/{created['table_id']}/replay", params={"full": "true"})
    assert replay.status_code == 200, replay.text
    review = client.post(f"/api/tables/{created['table_id']}/review", json={})
    assert review.status_code == 200 and review.json()["seat"] == 0


def test_burraco_for_four_the_late_sides_team_loses(
    open_client: OpenClient, settings: Settings, clock: FakeClock
) -> None:
    """At four, the late player's partner may hand the move over but not claim; the
    other side's claim wins for both of its seats, on either database."""
    client = open_client(settings, vacation_days_per_year=0)
    people = [registered(client, name) for name in ("ann", "bob", "cat", "dan")]
    cookies = [cookie for cookie, _ in people]
    body = {
        "game": "burraco",
        "rules": {"mode": "quick"},
        "seats": [{"kind": "human"}] * 4,
        "days_per_move": 5,
    }
    created = as_player(client, cookies[0]).post("/api/tables", json=body).json()
    for cookie in cookies[1:]:
        as_player(client, cookie).post(f"/api/tables/{created['table_id']}/join", json={})
    client.cookies.clear()
    url = created["ws_url"]
    with (
        connect(client, url, cookies[0]) as ws0,
        connect(client, url, cookies[1]) as ws1,
        connect(client, url, cookies[2]) as ws2,
    ):
        sockets = {0: ws0, 1: ws1, 2: ws2}
        state = next_state(ws0, lambda m: m["status"] == "playing")
        late = state["turn"]["player"]
        clock.advance(5 * DAY + 1)
        partner = (late + 2) % 4  # dan (seat 3) never connects
        opponent = next(seat for seat in sockets if seat % 2 != late % 2)
        expired = next_state(sockets[opponent], lambda m: m["turn"]["expired"])
        assert [p["gone"] for p in expired["players"]] == [s == late for s in range(4)]
        if partner in sockets:
            sockets[partner].send_json({"type": "claim"})
            assert next_of_type(sockets[partner], "error")["code"] == "nothing_to_claim"
        sockets[opponent].send_json({"type": "claim"})
        over = next_of_type(sockets[opponent], "game_over")
    assert over["ended_by"] == "abandoned"
    assert sorted(over["winners"]) == sorted([opponent, (opponent + 2) % 4])
    summary = client.get(f"/api/tables/{created['table_id']}").json()
    changes = {c["seat"]: c["change"] for c in summary["rating_changes"]}
    assert changes[late] < 0 and changes[(late + 2) % 4] < 0 and changes[opponent] > 0
