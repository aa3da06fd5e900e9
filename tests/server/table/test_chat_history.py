"""The chat comes back: a new connection (a reload, a watcher arriving, a server that
restarted) is sent the table's earlier lines after its first state."""

from __future__ import annotations

from typing import Any

from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.protocol.messages import parse_server_message
from tests.kit.apps import app_client
from tests.kit.databases import make_settings
from tests.kit.players import connect, new_player


def _first_messages(ws: Any) -> list[dict[str, Any]]:
    """What a connection is sent on arrival: the table host's first state and what it
    sends with it.  The socket answers a ping at once while the host may not have
    handled the arrival yet, so ping until a state has come (the host sends the state
    and the chat history together, both before the next pong)."""
    received: list[dict[str, Any]] = []
    for _ in range(100):
        ws.send_json({"type": "ping"})
        while (message := ws.receive_json())["type"] != "pong":
            parse_server_message(message)
            received.append(message)
        if any(m["type"] == "state" for m in received):
            return received
    raise AssertionError(f"no state came: {received}")


def test_a_reload_and_a_restart_bring_the_chat_back(sqlite_url: str, bot_runner: BotRunner) -> None:
    settings = make_settings(sqlite_url)
    with app_client(settings, runner=bot_runner, clock=FakeClock()) as client:
        ann = new_player(client, "ann")
        client.cookies.set("rummykit_session", ann)
        created = client.post("/api/play-now", json={"game": "three-thirteen"}).json()
        client.cookies.clear()
        with connect(client, created["ws_url"], ann) as ws:
            first = _first_messages(ws)
            assert [m["type"] for m in first].count("chat_history") == 0  # nothing said yet
            for text in ("hello", "good luck"):
                ws.send_json({"type": "chat", "text": text})
                while ws.receive_json()["type"] != "chat":
                    pass
        with connect(client, created["ws_url"], ann) as ws:  # the page reloads
            again = _first_messages(ws)
        kinds = [m["type"] for m in again]
        assert kinds.index("state") < kinds.index("chat_history")
        history = again[kinds.index("chat_history")]["messages"]
        assert [(line["text"], line["seat"], line["name"]) for line in history] == [
            ("hello", 0, "ann"),
            ("good luck", 0, "ann"),
        ]
        watcher = new_player(client, "watcher")
        with connect(client, created["ws_url"], watcher) as ws:
            seen = _first_messages(ws)
        lines = next(m for m in seen if m["type"] == "chat_history")["messages"]
        assert [line["text"] for line in lines] == ["hello", "good luck"]
    # a new server process on the same database: the table is rebuilt with its chat
    with app_client(settings, runner=bot_runner, clock=FakeClock()) as client:
        with connect(client, created["ws_url"], ann) as ws:
            restored = _first_messages(ws)
        lines = next(m for m in restored if m["type"] == "chat_history")["messages"]
        assert [line["text"] for line in lines] == ["hello", "good luck"]
