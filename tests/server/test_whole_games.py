"""Whole games over WebSockets against server bots, every message checked for leaks.

Each seat's every ``state`` message must carry exactly the engine's observation and
events for that seat at that state number (replayed here from the revealed seed); a
watcher's must show only what every seat sees alike, and must not change when the
cards hidden from any seat are shuffled.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from fastapi.testclient import TestClient

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.protocol import parse_server_message
from rummykit.server.views import watcher_observation
from tests.server.scripted import play_to_end


def new_player(client: TestClient, name: str) -> str:
    client.cookies.clear()
    response = client.post("/api/session", json={"nickname": name})
    assert response.status_code == 200
    cookie = str(response.cookies["rummykit_session"])
    client.cookies.clear()
    return cookie


def connect(client: TestClient, path: str, cookie: str) -> Any:
    return client.websocket_connect(path, headers={"cookie": f"rummykit_session={cookie}"})


def watch_to_end(ws: Any) -> list[dict[str, Any]]:
    received = []
    while True:
        message = ws.receive_json()
        parse_server_message(message)
        received.append(message)
        if message["type"] == "game_over":
            return received


def random_policy(seed: int) -> Any:
    rng = random.Random(seed)

    def choose(message: dict[str, Any]) -> str:
        legal = message["legal_actions"]
        # take the pile rarely, so that the scripted players' hands stay small
        preferred = [a for a in legal if a != "take"] or legal
        return str(rng.choice(preferred))

    return choose


def leaves_agree(watched: Any, seen: Any) -> bool:
    """Every non-null value of ``watched`` is the same in ``seen``."""
    if watched is None:
        return True
    if isinstance(watched, dict):
        return isinstance(seen, dict) and all(
            leaves_agree(v, seen.get(k)) for k, v in watched.items()
        )
    if (
        isinstance(watched, list)
        and isinstance(seen, list)
        and len(watched) == len(seen)
        and all(item is None or isinstance(item, (list, dict)) for item in watched)
    ):
        return all(leaves_agree(a, b) for a, b in zip(watched, seen, strict=True))
    return bool(watched == seen)


def check_no_leak(record: dict[str, Any], messages: dict[int | None, list[dict[str, Any]]]) -> int:
    """Check every state message against a replay of ``record``; how many were checked."""
    game = game_named(record["game"])
    rules = rules_from_json(game.rules_type, record["rules"])
    state = game.new_state(rules, int(record["seed"]))
    by_number: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
    for seat, received in messages.items():
        for message in received:
            if message["type"] == "state":
                by_number.setdefault(message["state_number"], []).append((seat, message))
    checked = 0
    for number in range(len(record["actions"]) + 1):
        seats = range(state.num_players)
        for seat, message in by_number.get(number, []):
            start = message["events_start"]
            if seat is not None:
                assert message["seat"] == seat
                assert message["observation"] == state.observation(seat).to_json()
                expected = [e.to_json() for e in state.events_for(seat)]
                assert message["events"] == expected[start : start + len(message["events"])]
                if message["legal_actions"]:
                    assert state.current_player == seat
            else:
                assert message["seat"] is None and message["legal_actions"] == []
                observation = message["observation"]
                assert observation["hand"] is None
                for p in seats:
                    assert leaves_agree(observation, state.observation(p).to_json())
                    shuffled = state.clone()
                    shuffled.shuffle_hidden(p, number)
                    again = watcher_observation([shuffled.observation(q).to_json() for q in seats])
                    assert again == observation
                    seen = [e.to_json() for e in state.events_for(p)]
                    for i, event in enumerate(message["events"]):
                        assert leaves_agree(event, seen[start + i])
            checked += 1
        if number < len(record["actions"]):
            state.apply(game.parse_action(record["actions"][number]))
    assert state.game_over and list(state.totals) == record["totals"]
    return checked


def play_whole_game(
    client: TestClient, game: str, rules: dict[str, Any], seats: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[int | None, list[dict[str, Any]]]]:
    cookies = [new_player(client, f"p{i}") for i, s in enumerate(seats) if s["kind"] == "human"]
    watcher_cookie = new_player(client, "watcher")
    client.cookies.set("rummykit_session", cookies[0])
    created = client.post(
        "/api/tables", json={"game": game, "rules": rules, "seats": seats, "turn_seconds": None}
    ).json()
    table_id = created["table_id"]
    human_seats = [i for i, s in enumerate(seats) if s["kind"] == "human"]
    for cookie in cookies[1:]:
        client.cookies.set("rummykit_session", cookie)
        assert client.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    client.cookies.clear()
    messages: dict[int | None, list[dict[str, Any]]] = {}
    errors: list[BaseException] = []

    def seat_thread(seat: int, cookie: str) -> None:
        try:
            with connect(client, created["ws_url"], cookie) as ws:
                messages[seat] = play_to_end(ws, random_policy(seat))
        except BaseException as error:
            errors.append(error)

    def watcher_thread() -> None:
        try:
            with connect(client, created["ws_url"], watcher_cookie) as ws:
                messages[None] = watch_to_end(ws)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=watcher_thread)]
    threads += [
        threading.Thread(target=seat_thread, args=(seat, cookie))
        for seat, cookie in zip(human_seats, cookies, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not errors, errors
    client.cookies.set("rummykit_session", cookies[0])
    record = client.get(f"/api/tables/{table_id}/record").json()
    return record, messages


def test_burraco_target_game_to_the_end_without_leaks(client: TestClient) -> None:
    record, messages = play_whole_game(
        client,
        "burraco",
        {"mode": "target", "target": 505},
        [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
    )
    assert max(record["totals"]) >= 505
    assert check_no_leak(record, messages) > 100
    over = [m for m in messages[0] if m["type"] == "game_over"]
    assert over and over[0]["totals"] == record["totals"]


def test_three_thirteen_four_seats_to_the_end_without_leaks(client: TestClient) -> None:
    record, messages = play_whole_game(
        client,
        "three-thirteen",
        {},
        [
            {"kind": "human"},
            {"kind": "bot", "level": "greedy"},
            {"kind": "human"},
            {"kind": "bot", "level": "random"},
        ],
    )
    assert len(record["players"]) == 4
    assert check_no_leak(record, messages) > 100
