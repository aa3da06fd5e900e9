"""Playing over the WebSocket: whole games against server bots, refusals, chat, hints."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rummykit.cli.app import app
from rummykit.games.record import loads
from tests.kit.players import guest
from tests.kit.scripted import phrases_reason, play_to_end


def test_three_thirteen_against_a_bot_to_the_end(client: TestClient) -> None:
    guest(client)
    created = client.post("/api/play-now", json={"game": "three-thirteen", "players": 2}).json()
    with client.websocket_connect(created["ws_url"]) as ws:
        received = play_to_end(ws)
    over = received[-1]
    assert over["type"] == "game_over"
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    assert record["format"] == "rummykit-record" and record["totals"] == over["totals"]
    assert record["seed"] == over["seed"] and record["commitment"] == created["commitment"]
    history = client.get("/api/history").json()
    assert [h["table_id"] for h in history] == [created["table_id"]]


def test_refusals_are_typed_and_the_table_goes_on(client: TestClient) -> None:
    guest(client)
    created = client.post(
        "/api/tables",
        json={"game": "burraco", "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]},
    ).json()
    with client.websocket_connect(created["ws_url"]) as ws:
        state = ws.receive_json()
        while not state["legal_actions"]:
            state = ws.receive_json()
        number = state["state_number"]

        def action(state_number: int, text: str) -> str:
            return json.dumps({"type": "action", "state_number": state_number, "action": text})

        sent = [
            ("{not json", "bad_json"),
            ('{"type": "dance"}', "unknown_type"),
            (action(-1, "draw"), "invalid_message"),
            ('{"type": "action", "state_number": 0, "action": "draw", "x": 1}', "invalid_message"),
            (action(number, "fly away"), "bad_notation"),
            (action(number + 5, "draw"), "stale_state"),
            (action(number, "discard 2c"), None),
            (json.dumps({"type": "chat", "text": "x" * 400}), "invalid_message"),
            ("x" * 5000, "message_too_large"),
        ]
        for text, code in sent:
            ws.send_text(text)
            answer = ws.receive_json()
            assert answer["type"] == "error", (text, answer)
            if code is not None:
                assert answer["code"] == code, (text, answer)
            assert answer["state_number"] == number
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_json({"type": "chat", "text": "good luck"})
        chat = ws.receive_json()
        assert chat["type"] == "chat" and chat["text"] == "good luck" and chat["seat"] == 0
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["action"] in state["legal_actions"]
        # the reason in English and as phrases a client translates: the same words
        assert hint["reason"] == phrases_reason(hint["reason_phrases"]).text
        ws.send_json({"type": "action", "state_number": number, "action": "draw"})
        after = ws.receive_json()
        assert after["type"] == "state" and after["state_number"] == number + 1
        assert after["last_action"] == {
            "seat": 0,
            "action": "draw",
            "actor": "human",
            "reason": None,
        }


def test_verify_checks_the_commitment_and_the_actions(client: TestClient, tmp_path: Path) -> None:
    guest(client)
    created = client.post("/api/play-now", json={"game": "three-thirteen"}).json()
    with client.websocket_connect(created["ws_url"]) as ws:
        play_to_end(ws)
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    runner = CliRunner()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output and created["commitment"] in result.output
    assert isinstance(record["seed"], str) and loads(path.read_text()).seed == int(record["seed"])
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0 and "Game over" in replayed.output
    forged_nonce = dict(record, nonce="0" * 32)
    forged_seed = dict(record, seed=str(int(record["seed"]) ^ 1))
    forged_action = dict(record, actions=[*record["actions"][:-1], "discard Jk"])
    for forged in (forged_nonce, forged_seed, forged_action):
        path.write_text(json.dumps(forged))
        result = runner.invoke(app, ["verify", str(path)])
        assert result.exit_code == 1 and "NOT verified" in result.output
