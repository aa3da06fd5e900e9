"""Reviews of finished games: a seat's decisions searched in the bot workers, progress,
legal suggestions, and the typed refusals."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.bots.three_thirteen.evaluate import ThreeThirteenSearch
from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.competition.review import ReviewError, decision_points, review_decision
from tests.kit.apps import OpenClient
from tests.kit.factories import HUMAN, table_body
from tests.kit.players import connect, new_player
from tests.kit.progress import finished_review
from tests.kit.scripted import phrases_reason, play_to_end, random_policy

ITERATIONS = 16


@pytest.fixture
def review_client(open_client: OpenClient) -> TestClient:
    """A server whose reviews search few iterations a decision (on the real clock)."""
    return open_client(hint_iterations=ITERATIONS, clock=None)


def finished_game(
    client: TestClient, game: str, rules: dict[str, Any]
) -> tuple[str, str, dict[str, Any]]:
    """A game of a human (seat 0, a random player) against greedy, played to the end:
    the table id, the player's cookie and the full record."""
    cookie = new_player(client, "reviewed")
    client.cookies.set("rummykit_session", cookie)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    created = client.post(
        "/api/tables", json={"game": game, "rules": rules, "seats": seats, "turn_seconds": None}
    ).json()
    client.cookies.clear()
    with connect(client, created["ws_url"], cookie) as ws:
        play_to_end(ws, random_policy(3))
    client.cookies.set("rummykit_session", cookie)
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    assert record["format"] != "rummykit-view"  # the full record: the game is over
    return created["table_id"], cookie, record


def check_review(record: dict[str, Any], review: dict[str, Any], seat: int) -> int:
    """Items cover exactly the seat's decisions, in order, each with the played action
    and a legal suggestion; how many suggestions differed from the played move."""
    game = game_named(record["game"])
    state = game.new_state(rules_from_json(game.rules_type, record["rules"]), int(record["seed"]))
    items = iter(review["items"])
    differing = compared = 0
    decision = 0
    for number, text in enumerate(record["actions"]):
        if state.current_player == seat:
            item = next(items)
            assert item["decision"] == decision and item["state_number"] == number
            assert item["played"] == text
            legal = list(state.legal_actions())
            if item["suggested"] is not None:
                differing += 1
                assert item["suggested"] != text
                assert game.parse_action(item["suggested"]) in legal
                compared += item["simulations"] > 0
            else:
                assert item["simulations"] == 0
            if item["simulations"] == 0:
                assert item["value"] == item["points"] == 0.0 and item["error"] is None
            assert item["reason"] == phrases_reason(item["reason_phrases"]).text
            decision += 1
        state.apply(game.parse_action(text))
    assert next(items, None) is None
    assert review["total"] == decision == review["done"]
    assert compared > 0  # some values come from simulations
    return differing


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("three-thirteen", {"first_round": 3, "last_round": 4}),
        ("burraco", {"mode": "quick"}),
    ],
)
def test_review_of_a_finished_game(review_client: TestClient, game: str, rules: Any) -> None:
    table_id, _cookie, record = finished_game(review_client, game, rules)
    assert review_client.get(f"/api/tables/{table_id}/review").json()["error"]["code"] == (
        "no_review"
    )
    started = review_client.post(f"/api/tables/{table_id}/review", json={})
    assert started.status_code == 200, started.text
    body = started.json()
    assert body["seat"] == 0 and body["status"] == "running"
    assert body["done"] == 0 < body["total"]
    again = review_client.post(f"/api/tables/{table_id}/review").json()
    assert again["total"] == body["total"]  # the same review, not a second one
    review, seen = finished_review(review_client, table_id)
    assert review["status"] == "done"
    assert seen == sorted(seen) and seen[-1] == review["total"]
    differing = check_review(record, review, 0)
    # random play against the searching bot: it disagrees somewhere
    assert differing > 0


def test_review_refusals(review_client: TestClient) -> None:
    client = review_client
    table_id, cookie, _record = finished_game(
        client, "three-thirteen", {"first_round": 3, "last_round": 3}
    )
    client.cookies.set("rummykit_session", cookie)
    for answer in (
        client.post(f"/api/tables/{table_id}/review", json={"seat": 1}),
        client.get(f"/api/tables/{table_id}/review?seat=1"),
    ):
        assert answer.status_code == 403
        assert answer.json()["error"]["code"] == "not_your_seat"
    stranger = new_player(client, "stranger")
    client.cookies.set("rummykit_session", stranger)
    answer = client.post(f"/api/tables/{table_id}/review", json={})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_a_player"
    body = table_body("burraco", HUMAN, "greedy", turn_seconds=None)
    unfinished = client.post("/api/tables", json=body).json()
    path = f"/api/tables/{unfinished['table_id']}/review"
    for answer in (client.post(path, json={}), client.get(path)):
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "game_not_over"
    answer = client.post("/api/tables/nosuchtable/review", json={})
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    client.cookies.clear()
    answer = client.post(f"/api/tables/{table_id}/review", json={})
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "no_session"


def test_the_played_move_is_compared_even_where_the_search_would_skip_it() -> None:
    """A discard the bot's search leaves out at the root (far more deadwood than the
    best) is still played on the same deals as the bot's move and measured."""
    game = game_named("three-thirteen")
    rules = {"first_round": 3, "last_round": 3}
    state = game.new_state(rules_from_json(game.rules_type, rules), 2)
    seat = state.current_player
    assert seat is not None
    state.apply(game.parse_action("draw"))
    legal = list(state.legal_actions())
    searched = ThreeThirteenSearch().playout(state.observation(seat)).root_candidates(legal)
    skipped = [action for action in legal if action not in searched]
    assert skipped
    actions = ["draw", game.format_action(skipped[0])]
    points = decision_points("three-thirteen", rules, 2, actions, seat)
    assert [p["state_number"] for p in points] == [0, 1]
    item = review_decision("three-thirteen", points[1], iterations=60)
    assert item["suggested"] is not None and item["simulations"] >= 8
    assert item["error"] is not None and item["error"] > 0


def test_a_record_that_is_not_the_seats_is_refused() -> None:
    game = game_named("three-thirteen")
    mover = game.new_state(rules_from_json(game.rules_type, {}), 1).current_player
    assert mover is not None
    with pytest.raises(ReviewError):
        decision_points("three-thirteen", {}, 1, ["draw"], 1 - mover, chosen=[0])
    with pytest.raises(ReviewError):
        decision_points("three-thirteen", {}, 1, [], 5)
    with pytest.raises(ReviewError):
        decision_points("gin", {}, 1, [], 0)


def test_review_endpoints_and_models_in_the_openapi_page(review_client: TestClient) -> None:
    schema = review_client.get("/openapi.json").json()
    paths = schema["paths"]["/api/tables/{table_id}/review"]
    assert set(paths) == {"get", "post"}
    for operation in paths.values():
        answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert answer == {"$ref": "#/components/schemas/Review"}
    item = schema["components"]["schemas"]["ReviewItem"]["properties"]
    assert {"played", "suggested", "value", "points", "error", "simulations"} <= set(item)
