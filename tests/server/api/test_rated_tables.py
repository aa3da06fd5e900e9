"""Rated and casual tables over HTTP: who may play rated, a rated game's end rating its
players (a leaver last, a substitute's game marked), the leaderboard and the profile."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from rummykit.rating.book import RatingBook
from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.storage.ratings import display_rating
from tests.kit.apps import app_client
from tests.kit.databases import make_settings
from tests.kit.players import connect, new_player, registered
from tests.kit.scripted import play_to_end

QUICK = {"first_round": 3, "last_round": 4}
TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def create(client: TestClient, cookie: str, **body: Any) -> Any:
    client.cookies.set("rummykit_session", cookie)
    return client.post("/api/tables", json={"game": "three-thirteen", **body})


def test_who_plays_rated_tables(client: TestClient) -> None:
    ann, ann_id = registered(client, "ann")
    guest = new_player(client, "guest")
    # a registered player's table of people is rated unless asked otherwise
    table = create(client, ann, seats=TWO_PEOPLE).json()
    summary = client.get(f"/api/tables/{table['table_id']}").json()
    assert summary["rated"] is True
    # the lobby names the seated person's profile
    assert [s["player_id"] for s in summary["seats"]] == [ann_id, None]
    casual = create(client, ann, seats=TWO_PEOPLE, rated=False).json()
    assert client.get(f"/api/tables/{casual['table_id']}").json()["rated"] is False
    against_bot = create(client, ann).json()
    assert client.get(f"/api/tables/{against_bot['table_id']}").json()["rated"] is False
    refused = create(client, ann, rated=True)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "rated_needs_people"
    # a guest's tables are casual, and a guest may not sit at a rated one
    assert create(client, guest, seats=TWO_PEOPLE).json()["seat"] == 0
    refused = create(client, guest, seats=TWO_PEOPLE, rated=True)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "rated_needs_account"
    client.cookies.set("rummykit_session", guest)
    joined = client.post(f"/api/tables/{table['table_id']}/join", json={})
    assert joined.status_code == 403
    assert joined.json()["error"]["code"] == "rated_needs_account"
    assert client.post(f"/api/tables/{casual['table_id']}/join", json={}).status_code == 200


def test_a_rated_game_rates_its_players_and_shows_on_the_boards(client: TestClient) -> None:
    ann, ann_id = registered(client, "ann")
    bob, bob_id = registered(client, "bob")
    created = create(client, ann, seats=TWO_PEOPLE, rules=QUICK, turn_seconds=None).json()
    table_id = created["table_id"]
    client.cookies.set("rummykit_session", bob)
    assert client.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    # bob leaves the game under way: the substitute plays his seat and he is rated last
    assert client.post(f"/api/tables/{table_id}/leave").status_code == 200
    with connect(client, created["ws_url"], ann) as ws:
        over = play_to_end(ws)[-1]
    assert over["type"] == "game_over"
    book = RatingBook()
    book.rate("three-thirteen/2", [ann_id, bob_id], [1, 2])
    # the table's summary gives what the game did to each seat's rating (the result's page)
    changes = client.get(f"/api/tables/{table_id}").json()["rating_changes"]
    assert [(c["seat"], c["provisional"]) for c in changes] == [(0, True), (1, True)]
    for change, player_id in zip(changes, [ann_id, bob_id], strict=True):
        after = display_rating(book.rating("three-thirteen/2", player_id).mu)
        assert change["rating"] == round(after)
        assert change["change"] == round(after - 1500)
    assert changes[0]["change"] > 0 > changes[1]["change"]

    board = client.get("/api/leaderboard", params={"game": "three-thirteen"}).json()
    assert board["period"] == "all"
    assert [b["pool"] for b in board["boards"]] == [
        "three-thirteen/2",
        "three-thirteen/3",
        "three-thirteen/4",
    ]
    two = board["boards"][0]["entries"]
    assert [(e["rank"], e["name"], e["games"]) for e in two] == [(1, "ann", 1), (2, "bob", 1)]
    assert two[0]["rating"] == round(display_rating(book.rating("three-thirteen/2", ann_id).mu), 1)
    assert two[0]["provisional"] is True
    recent = client.get(
        "/api/leaderboard", params={"game": "three-thirteen", "period": "30d"}
    ).json()
    assert [e["name"] for e in recent["boards"][0]["entries"]] == ["ann", "bob"]
    assert client.get("/api/leaderboard", params={"game": "burraco"}).json()["boards"] == [
        {"pool": "burraco", "players": 2, "entries": [], "turn_based": False},
        {"pool": "burraco/4", "players": 4, "entries": [], "turn_based": False},
    ]

    client.cookies.clear()  # a profile is public
    profile = client.get(f"/api/players/{bob_id}").json()
    assert profile["name"] == "bob" and profile["registered"] is True
    [rating] = profile["ratings"]
    assert rating["pool"] == "three-thirteen/2" and rating["games"] == 1
    assert rating["rating"] < 1500
    [point] = profile["history"]
    assert point["table_id"] == table_id and point["place"] == 2 and point["change"] < 0
    [game] = profile["recent"]
    assert game["table_id"] == table_id and game["rated"] is True
    assert game["left_early"] is True and game["substituted"] is True
    assert [s["name"] for s in game["seats"]] == ["ann", "bob"]
    ann_game = client.get(f"/api/players/{ann_id}").json()["recent"][0]
    assert ann_game["place"] == 1 and not ann_game["left_early"] and not ann_game["substituted"]


def test_bad_leaderboard_and_profile_requests_get_typed_errors(client: TestClient) -> None:
    for params in ({"game": "chess"}, {"game": "burraco", "period": "week"}, {}):
        answer = client.get("/api/leaderboard", params=params)
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "invalid_request"
    for player_id in ("0123456789abcdef01234567", "<script>", "x" * 40):
        answer = client.get(f"/api/players/{player_id}")
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "unknown_player"


def test_a_player_who_left_stays_away_after_a_restart(
    sqlite_url: str, bot_runner: BotRunner, clock: FakeClock
) -> None:
    settings = make_settings(sqlite_url)
    with app_client(settings, runner=bot_runner, clock=clock) as client:
        ann, _ = registered(client, "ann")
        bob, bob_id = registered(client, "bob")
        created = create(client, ann, seats=TWO_PEOPLE, rules=QUICK, turn_seconds=None).json()
        client.cookies.set("rummykit_session", bob)
        assert client.post(f"/api/tables/{created['table_id']}/join", json={}).status_code == 200
        assert client.post(f"/api/tables/{created['table_id']}/leave").status_code == 200
    with app_client(settings, runner=bot_runner, clock=clock) as client:
        with connect(client, created["ws_url"], ann) as ws:
            first = ws.receive_json()
            # the substitute plays bob's seat from the first view on (the fake clock never
            # reaches the end of a grace period: without the stored leave, bob's turns
            # would wait for him)
            assert first["type"] == "state"
            assert [p["substitute"] for p in first["players"]] == [False, True]
            if first["legal_actions"]:
                number, action = first["state_number"], first["legal_actions"][0]
                ws.send_json({"type": "action", "state_number": number, "action": action})
            assert play_to_end(ws)[-1]["type"] == "game_over"
        history = client.get(f"/api/players/{bob_id}").json()["history"]
        assert [p["place"] for p in history] == [2]


def test_a_private_rated_game_counts_but_is_not_named_on_the_profile(client: TestClient) -> None:
    ann, _ = registered(client, "ann")
    bob, bob_id = registered(client, "bob")
    created = create(
        client, ann, seats=TWO_PEOPLE, rules=QUICK, turn_seconds=None, private=True
    ).json()
    client.cookies.set("rummykit_session", bob)
    joined = client.post(
        f"/api/tables/{created['table_id']}/join", json={"token": created["invite_token"]}
    )
    assert joined.status_code == 200
    assert client.post(f"/api/tables/{created['table_id']}/leave").status_code == 200
    with connect(client, created["ws_url"], ann) as ws:
        assert play_to_end(ws)[-1]["type"] == "game_over"
    client.cookies.clear()
    # its rating changes are read only where the table is: by its players, or by link
    summary = client.get(f"/api/tables/{created['table_id']}")
    assert summary.status_code == 403
    assert summary.json()["error"]["code"] == "private_table"
    by_link = client.get(
        f"/api/tables/{created['table_id']}", params={"token": created["invite_token"]}
    ).json()
    assert [c["seat"] for c in by_link["rating_changes"]] == [0, 1]
    profile = client.get(f"/api/players/{bob_id}").json()
    assert [r["games"] for r in profile["ratings"]] == [1]
    assert [(p["table_id"], p["place"]) for p in profile["history"]] == [(None, 2)]
    # listed among the recent games with only what its history point shows
    [game] = profile["recent"]
    assert game["private"] and game["rated"] and game["place"] == 2 and game["change"] < 0
    assert game["table_id"] is None and game["seat"] is None and game["seats"] == []
    assert game["totals"] is None and game["winners"] is None
    assert game["finished_at"] == profile["history"][0]["at"]
    assert created["table_id"] not in json.dumps(profile) and "ann" not in json.dumps(profile)
