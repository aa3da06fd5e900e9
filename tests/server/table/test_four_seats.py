"""Burraco for four over HTTP and WebSockets: people pick their partner by the seat
they take (partners sit opposite), a rated game rates both partners by their side's
result in the four-player pool (the two-player pool keeps its name), each seat's
replay, the rematch and the list of current games."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi.testclient import TestClient

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from tests.kit.players import as_player, connect, registered
from tests.kit.scripted import play_to_end, random_policy
from tests.kit.threads import run_in_threads

FOUR_PEOPLE = [{"kind": "human"}] * 4


def test_four_people_partners_by_seat_rated_as_teams_replayed_and_rematched(
    client: TestClient,
) -> None:
    people = [registered(client, name) for name in ("ann", "bob", "cyd", "dee")]
    (ann, ann_id), (bob, _), (cy, cy_id), (dee, _) = people
    created = (
        as_player(client, ann)
        .post(
            "/api/tables",
            json={
                "game": "burraco",
                "rules": {"players": 4},
                "seats": FOUR_PEOPLE,
                "turn_seconds": None,
            },
        )
        .json()
    )
    table_id = created["table_id"]
    assert created["seat"] == 0
    # cy sits opposite ann, her partner; bob and dee take the seats left
    joined = as_player(client, cy).post(f"/api/tables/{table_id}/join", json={"seat": 2})
    assert joined.json()["seat"] == 2
    taken = as_player(client, bob).post(f"/api/tables/{table_id}/join", json={"seat": 2})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    assert as_player(client, bob).post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    assert as_player(client, dee).post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "playing" and summary["rated"] is True
    assert [s["name"] for s in summary["seats"]] == ["ann", "bob", "cyd", "dee"]
    # under way, a player's replay is their own seat's: not even the partner's
    replay = f"/api/tables/{table_id}/replay"
    refused = as_player(client, ann).get(replay, params={"seat": 2})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_seat"
    assert [t["table_id"] for t in client.get("/api/current").json()] == [table_id]

    client.cookies.clear()

    def play(seat: int, cookie: str) -> list[dict[str, Any]]:
        with connect(client, created["ws_url"], cookie) as ws:
            return play_to_end(ws, random_policy(seat))

    received = run_in_threads(
        *(partial(play, seat, cookie) for seat, (cookie, _) in enumerate(people))
    )
    totals = received[0][-1]["totals"]
    assert totals[0] == totals[2] and totals[1] == totals[3]  # a seat's total is its team's

    # both partners move by their side's result, in the four-player pool
    changes = as_player(client, ann).get(f"/api/tables/{table_id}").json()["rating_changes"]
    assert [c["seat"] for c in changes] == [0, 1, 2, 3]
    assert changes[0]["change"] == changes[2]["change"]
    assert changes[1]["change"] == changes[3]["change"]
    if totals[0] != totals[1]:
        winners, losers = (0, 1) if totals[0] > totals[1] else (1, 0)
        assert changes[winners]["change"] > 0 > changes[losers]["change"]
    boards = client.get("/api/leaderboard", params={"game": "burraco"}).json()["boards"]
    assert [(b["pool"], b["players"]) for b in boards] == [("burraco", 2), ("burraco/4", 4)]
    assert boards[0]["entries"] == []
    assert sorted(e["name"] for e in boards[1]["entries"]) == ["ann", "bob", "cyd", "dee"]
    [rating] = client.get(f"/api/players/{cy_id}").json()["ratings"]
    assert (rating["pool"], rating["game"], rating["players"]) == ("burraco/4", "burraco", 4)

    # once over: every seat's replay, with all four hands
    record = client.get(f"/api/tables/{table_id}/record").json()
    game = game_named("burraco")
    rules = rules_from_json(game.rules_type, record["rules"])
    for seat in range(4):
        steps = client.get(replay, params={"seat": seat, "full": "true"}).json()["steps"]
        assert len(steps) == len(record["actions"]) + 1
        state = game.new_state(rules, int(record["seed"]))
        for step, action in zip(steps, [*record["actions"], None], strict=True):
            assert step["observation"] == state.observation(seat).to_json()
            assert step["hands"] == [state.observation(p).to_json()["hand"] for p in range(4)]
            if action is not None:
                state.apply(game.parse_action(action))

    # the rematch: four seats again, each player kept their own; it is ann's current game
    again = client.post(f"/api/tables/{table_id}/rematch").json()
    assert again["seat"] == 0
    new = client.get(f"/api/tables/{again['table_id']}").json()
    assert new["rules"]["players"] == 4 and len(new["seats"]) == 4
    assert new["status"] == "waiting"
    assert [t["table_id"] for t in client.get("/api/current").json()] == [again["table_id"]]
    rejoined = as_player(client, cy).post(
        f"/api/tables/{again['table_id']}/join", json={"token": again["invite_token"]}
    )
    assert rejoined.json()["seat"] == 2
    assert ann_id != cy_id
