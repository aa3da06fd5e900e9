"""Hypothesis fuzz of a live table: random, malformed and mutated messages.

Each example sends a few messages (random text and bytes, JSON of random shape, and
real messages with mutated fields, some of them legal moves) to one connection at a
live Burraco table against a server bot, then a chat marker that the table answers only
after everything before it.  Every answer must be a valid protocol message, the
connection must stay open, and at the end the game, played out, must replay from its
stored record and verify.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.games.record import loads
from rummykit.server.protocol.messages import parse_server_message
from rummykit.server.table.verify import verify_record
from tests.kit.apps import OpenClient
from tests.kit.factories import HUMAN, table_body
from tests.kit.scripted import play_to_end

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
action_words = st.sampled_from(
    [
        "draw",
        "take",
        "meld",
        "extend",
        "discard",
        "out",
        "3h",
        "4h",
        "5h",
        "Jk",
        "2c",
        "Qs",
        "1",
        "99",
    ]
)


class Table:
    """What the fuzzing client knows of the table: the newest state message."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None


Plan = tuple[str, Any]

plans: st.SearchStrategy[Plan] = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 10_000)),
    st.tuples(st.just("legal"), st.integers(0, 10_000)),
    st.tuples(
        st.just("mutated"),
        st.tuples(
            st.one_of(st.just(0), st.integers(-5, 5), st.integers()),
            st.lists(action_words, min_size=0, max_size=5),
        ),
    ),
    st.tuples(
        st.just("raw"),
        st.builds(
            lambda kind, extra: json.dumps({"type": kind, **extra}),
            st.sampled_from(["action", "chat", "hint", "ping", "state", "error", "", "ACTION"]),
            st.dictionaries(st.sampled_from(["state_number", "action", "text", "x"]), json_values),
        ),
    ),
    st.tuples(st.just("raw"), st.text(max_size=50)),
    st.tuples(st.just("raw"), st.binary(max_size=50)),
    st.tuples(st.just("raw"), st.builds(json.dumps, json_values)),
    st.tuples(st.just("raw"), st.just('{"type": "hint"}')),
    st.tuples(st.just("raw"), st.just("[" * 5000)),
    st.tuples(
        st.just("raw"),
        st.builds(lambda t: json.dumps({"type": "chat", "text": t}), st.text(max_size=400)),
    ),
)


def render(plan: Plan, table: Table) -> str | bytes:
    """The message a plan makes against the table as last seen (a legal move, a move with
    mutated state number and words, or raw data)."""
    kind, value = plan
    number = table.state["state_number"] if table.state else 0
    if kind == "legal":
        legal = (table.state or {}).get("legal_actions") or ["draw"]
        action = legal[value % len(legal)]
        return json.dumps({"type": "action", "state_number": number, "action": action})
    if kind == "mutated":
        offset, words = value
        return json.dumps(
            {"type": "action", "state_number": number + offset, "action": " ".join(words)}
        )
    assert isinstance(value, (str, bytes))
    return value


def read_until_marker(ws: Any, marker: str, table: Table) -> list[dict[str, Any]]:
    received = []
    while True:
        message = ws.receive_json()
        parse_server_message(message)
        received.append(message)
        if message["type"] == "state":
            table.state = message
        if message["type"] == "chat" and message["text"] == marker:
            return received


def test_fuzzed_messages_leave_the_table_serving(open_client: OpenClient) -> None:
    client = open_client(clock=None, chat_per_minute=100_000)
    client.post("/api/session", json={"nickname": "fuzz"})
    body = table_body("burraco", HUMAN, "greedy", turn_seconds=None)
    created = client.post("/api/tables", json=body).json()
    table = Table()
    counter = [0]
    codes: set[str] = set()
    with client.websocket_connect(created["ws_url"]) as ws:

        @settings(
            max_examples=60,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(st.data())
        def fuzz(data: st.DataObject) -> None:
            for plan in data.draw(st.lists(plans, min_size=1, max_size=6)):
                sent = render(plan, table)
                if isinstance(sent, bytes):
                    ws.send_bytes(sent)
                else:
                    ws.send_text(sent)
            # and one legal move, so that the game goes on between the mutations
            legal_move = render(("legal", data.draw(st.integers(0, 10_000))), table)
            assert isinstance(legal_move, str)
            ws.send_text(legal_move)
            counter[0] += 1
            marker = f"marker {counter[0]}"
            ws.send_json({"type": "chat", "text": marker})
            for message in read_until_marker(ws, marker, table):
                if message["type"] == "error":
                    assert message["code"] and message["message"]
                    codes.add(message["code"])

        fuzz()
        assert table.state is not None and table.state["state_number"] >= 2  # moves were made
        assert {"bad_json", "invalid_message", "stale_state"} <= codes
        state = table.state
        if state is None or state["status"] != "over":
            if state is not None and state["legal_actions"]:
                number, action = state["state_number"], state["legal_actions"][0]
                ws.send_json({"type": "action", "state_number": number, "action": action})
            play_to_end(ws)
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    text = json.dumps(record)
    assert loads(text).totals == tuple(record["totals"])
    assert verify_record(text).ok
