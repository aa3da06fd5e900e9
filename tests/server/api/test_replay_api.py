"""The replay endpoint: a running game replayed for its own players, seat by seat, with
nothing hidden shown; a finished one for anyone, from any seat and with every hand."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.protocol.messages import parse_server_message
from tests.kit.players import connect, new_player
from tests.kit.scripted import Policy, play_to_end, random_policy

RULES = {"first_round": 3, "last_round": 4}


def _play_until(ws: Any, policy: Policy, state_number: int) -> None:
    """Answer the seat's turns until it has acted at or past ``state_number``."""
    while True:
        message = ws.receive_json()
        parse_server_message(message)
        if message["type"] == "state" and message["legal_actions"]:
            number = message["state_number"]
            ws.send_json({"type": "action", "state_number": number, "action": policy(message)})
            if number >= state_number:
                return


def _engine_steps(record: dict[str, Any], count: int) -> list[Any]:
    """The engine's state after each of the record's first ``count - 1`` actions, and
    before the first, as clones."""
    game = game_named(record["game"])
    state = game.new_state(rules_from_json(game.rules_type, record["rules"]), int(record["seed"]))
    states = [state.clone()]
    for text in record["actions"][: count - 1]:
        state.apply(game.parse_action(text))
        states.append(state.clone())
    return states


def _refusal(client: TestClient, path: str, status: int) -> str:
    answer = client.get(path)
    assert answer.status_code == status, answer.text
    code: str = answer.json()["error"]["code"]
    return code


def test_a_running_game_is_replayed_for_its_players_then_for_anyone(
    client: TestClient,
) -> None:
    ada = new_player(client, "Ada")
    client.cookies.set("rummykit_session", ada)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    created = client.post(
        "/api/tables",
        json={"game": "three-thirteen", "rules": RULES, "seats": seats, "turn_seconds": None},
    ).json()
    table_id = created["table_id"]
    path = f"/api/tables/{table_id}/replay"
    client.cookies.clear()
    policy = random_policy(5)
    with connect(client, created["ws_url"], ada) as ws:
        _play_until(ws, policy, 8)
        # while the game runs: Ada's own seat, and no one else's
        client.cookies.set("rummykit_session", ada)
        running = client.get(path, params={"full": "true"}).json()
        assert running["over"] is False and running["seat"] == running["own_seat"] == 0
        assert _refusal(client, f"{path}?seat=1", 403) == "not_your_seat"
        assert _refusal(client, f"{path}?seat=2", 400) == "no_such_seat"
        stranger = new_player(client, "Stranger")
        client.cookies.set("rummykit_session", stranger)
        assert _refusal(client, path, 403) == "not_a_player"
        assert _refusal(client, f"{path}?seat=0", 403) == "not_your_seat"
        client.cookies.clear()
        play_to_end(ws, policy)

    client.cookies.set("rummykit_session", ada)
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["format"] == "rummykit-record"
    states = _engine_steps(record, len(running["steps"]))
    # the running game's replay was exactly Ada's observations: no hidden card, no hands
    assert len(running["steps"]) > 8
    for number, (step, state) in enumerate(zip(running["steps"], states, strict=True)):
        assert step["state_number"] == number
        assert step["action"] == (record["actions"][number - 1] if number else None)
        assert step["observation"] == state.observation(0).to_json()
        assert "hands" not in step

    # once over: anyone, any seat, every hand
    client.cookies.set("rummykit_session", new_player(client, "Later"))
    finished = client.get(path, params={"seat": 1, "full": "true"}).json()
    assert finished["over"] is True and finished["seat"] == 1 and finished["own_seat"] is None
    steps = finished["steps"]
    assert len(steps) == len(record["actions"]) + 1
    states = _engine_steps(record, len(steps))
    for step, state in zip(steps, states, strict=True):
        assert step["observation"] == state.observation(1).to_json()
        assert step["hands"] == [state.observation(p).to_json()["hand"] for p in (0, 1)]
    assert any(step["hands"][0] and step["hands"][1] for step in steps)
    assert _refusal(client, f"{path}?seat=-1", 400) == "no_such_seat"
    assert "hands" not in client.get(path).json()["steps"][0]
