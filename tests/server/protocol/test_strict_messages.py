"""Client messages are validated strictly: a number is a JSON integer, never text, a
boolean or a float, and anything else is the typed error ``invalid_message`` naming the
field, over a real (in-process) table socket as well as in the parser."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from rummykit.server.protocol.messages import (
    PROTOCOL_VERSION,
    ActionMessage,
    ProtocolError,
    json_schema,
    parse_client_message,
)
from tests.kit.players import guest

NOT_NUMBERS = ['"0"', "true", "false", "0.0", "1e0", "null", "[0]", '{"n": 0}']


@pytest.mark.parametrize("value", NOT_NUMBERS)
def test_a_state_number_that_is_not_an_integer_is_invalid(value: str) -> None:
    text = f'{{"type": "action", "state_number": {value}, "action": "draw"}}'
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(text)
    assert refused.value.code == "invalid_message"
    assert refused.value.params == {"field": "state_number"}


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"type": "action", "state_number": 0, "action": 7}, "action"),
        ({"type": "chat", "text": 12}, "text"),
        ({"type": "chat", "text": ["hi"]}, "text"),
    ],
)
def test_text_fields_take_only_text(message: dict[str, object], field: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(json.dumps(message))
    assert (refused.value.code, refused.value.params) == ("invalid_message", {"field": field})


def test_integers_and_texts_still_parse() -> None:
    parsed = parse_client_message('{"type": "action", "state_number": 12, "action": "draw"}')
    assert parsed == ActionMessage(state_number=12, action="draw")
    schema = json_schema()
    assert schema["protocol_version"] == PROTOCOL_VERSION == 2
    number = schema["client"]["$defs"]["ActionMessage"]["properties"]["state_number"]
    assert number["type"] == "integer"


def test_the_table_socket_refuses_numbers_as_text_and_goes_on(client: TestClient) -> None:
    guest(client)
    created = client.post("/api/play-now", json={"game": "burraco"}).json()
    with client.websocket_connect(created["ws_url"]) as ws:
        state = ws.receive_json()
        while not state["legal_actions"]:
            state = ws.receive_json()
        number = state["state_number"]
        for value in [f'"{number}"', "true" if number == 1 else "false", f"{number}.0"]:
            ws.send_text(f'{{"type": "action", "state_number": {value}, "action": "draw"}}')
            answer = ws.receive_json()
            assert answer["type"] == "error", (value, answer)
            assert answer["code"] == "invalid_message", (value, answer)
            assert answer["params"] == {"field": "state_number"}
            assert answer["state_number"] == number and answer["message"]
        ws.send_json({"type": "action", "state_number": number, "action": "draw"})
        after = ws.receive_json()
        assert after["type"] == "state" and after["state_number"] == number + 1
