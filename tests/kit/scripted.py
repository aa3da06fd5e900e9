"""A scripted WebSocket player for tests: answers its turns with a fixed policy and
keeps every message it receives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummykit.bots.reasons import Phrase, Reason
from rummykit.server.protocol.messages import parse_server_message

Policy = Callable[[dict[str, Any]], str]


def first_legal(message: dict[str, Any]) -> str:
    return str(message["legal_actions"][0])


def play_to_end(
    ws: Any, policy: Policy = first_legal, *, limit: int = 20_000
) -> list[dict[str, Any]]:
    """Play the connection's seat until ``game_over``; every received message, in order."""
    received: list[dict[str, Any]] = []
    acted = -1
    for _ in range(limit):
        message = ws.receive_json()
        parse_server_message(message)  # every message matches the protocol
        received.append(message)
        if message["type"] == "game_over":
            return received
        if message["type"] == "error":
            raise AssertionError(f"refused: {message}")
        if message["type"] == "state" and message["legal_actions"]:
            number = message["state_number"]
            if number == acted:
                continue  # the same state again (someone connected): answered already
            acted = number
            ws.send_json({"type": "action", "state_number": number, "action": policy(message)})
    raise AssertionError("the game did not end")


def phrases_reason(phrases: list[dict[str, Any]]) -> Reason:
    """The bot reason that a message's ``reason_phrases`` describe."""
    return Reason(tuple(Phrase(p["code"], tuple(p["params"].items())) for p in phrases))
