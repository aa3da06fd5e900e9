"""The seat's own arrangement in its state messages: the engine's, from that seat's own
observation; a watcher is sent none, and Burraco has none."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rummykit.games.three_thirteen import GAME
from rummykit.server.protocol.messages import parse_server_message
from tests.kit.players import connect, new_player


def test_a_seat_is_sent_its_own_arrangement_and_a_watcher_none(client: TestClient) -> None:
    player = new_player(client, "ann")
    watcher = new_player(client, "bob")
    client.cookies.set("rummykit_session", player)
    created = client.post(
        "/api/tables",
        json={
            "game": "three-thirteen",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        },
    ).json()
    client.cookies.clear()
    assert GAME.own_arrangement is not None
    discard_phases = 0
    with connect(client, created["ws_url"], player) as ws:
        with connect(client, created["ws_url"], watcher) as watching:
            seen = watching.receive_json()
            assert seen["seat"] is None and seen["arrangement"] is None
        acted = -1
        while discard_phases < 3:
            message = ws.receive_json()
            parse_server_message(message)
            if message["type"] != "state":
                continue
            observation = GAME.observation_from_json(message["observation"])
            assert message["arrangement"] == GAME.own_arrangement(observation)
            if message["legal_actions"] and message["state_number"] != acted:
                acted = message["state_number"]
                if observation.phase == "discard":
                    discard_phases += 1
                    assert message["arrangement"]["discards"]
                action = message["legal_actions"][0]
                ws.send_json({"type": "action", "state_number": acted, "action": action})


def test_burraco_sends_no_arrangement(client: TestClient) -> None:
    player = new_player(client, "ann")
    client.cookies.set("rummykit_session", player)
    created = client.post(
        "/api/tables",
        json={"game": "burraco", "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]},
    ).json()
    client.cookies.clear()
    with connect(client, created["ws_url"], player) as ws:
        message = ws.receive_json()
        assert message["seat"] == 0 and message["arrangement"] is None
