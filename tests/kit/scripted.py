"""A scripted WebSocket player for tests: answers its turns with a policy (the first
legal move, a seeded random one) and keeps every message it receives; a watcher that
keeps every message until the game is over."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from rummykit.bots.reasons import Phrase, Reason
from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.bots.service import decide
from rummykit.server.protocol.messages import parse_server_message
from rummykit.server.table.committed_deal import bot_seed

Policy = Callable[[dict[str, Any]], str]


def first_legal(message: dict[str, Any]) -> str:
    return str(message["legal_actions"][0])


def random_policy(seed: int) -> Policy:
    """A seeded random legal move, seldom the pile."""
    rng = random.Random(seed)

    def choose(message: dict[str, Any]) -> str:
        legal = message["legal_actions"]
        # take the pile rarely, so that the scripted players' hands stay small
        preferred = [a for a in legal if a != "take"] or legal
        return str(rng.choice(preferred))

    return choose


def watch_to_end(ws: Any) -> list[dict[str, Any]]:
    """Every message the connection receives until ``game_over``, each checked against
    the protocol."""
    received = []
    while True:
        message = ws.receive_json()
        parse_server_message(message)
        received.append(message)
        if message["type"] == "game_over":
            return received


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


def choose(state_number: int, legal: list[str]) -> str:
    """The scripted player: a fixed pseudo-random legal action (seldom the pile)."""
    options = [a for a in legal if a != "take"] or legal
    digest = hashlib.sha256(f"scripted|{state_number}".encode()).digest()
    return options[int.from_bytes(digest[:4], "big") % len(options)]


def expected_actions(record: dict[str, Any], people: set[int]) -> list[str]:
    """The same players' game without any kill: the scripted choice for the seats of
    ``people``, the greedy bot's for the others."""
    game = game_named(record["game"])
    state = game.new_state(rules_from_json(game.rules_type, record["rules"]), int(record["seed"]))
    actions: list[str] = []
    while not state.game_over:
        number = len(actions)
        seat = state.current_player
        legal = [game.format_action(a) for a in state.legal_actions()]
        if seat in people:
            action = choose(number, legal)
        else:
            observation = state.observation(seat).to_json()
            action, _ = decide(
                game.name, "greedy", observation, legal, bot_seed(record["nonce"], number, seat)
            )
        state.apply(game.parse_action(action))
        actions.append(action)
    return actions
