"""Whole games over WebSockets against server bots, every message checked for leaks.

Each seat's every ``state`` message must carry exactly the engine's observation and
events for that seat at that state number (replayed here from the revealed seed); a
watcher's must show only what every seat sees alike, and must not change when the
cards hidden from any seat are shuffled.  Every text a message carries outside the
observation and events is audited too (:func:`check_texts`): a text field the audit does
not know fails it, a bot's reason may reach only the seat whose move it explains, and a
move's cards must be cards the receiver saw played.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi.testclient import TestClient

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from tests.kit.leak_audit import check_no_leak
from tests.kit.players import connect, new_player
from tests.kit.scripted import play_to_end, random_policy, watch_to_end
from tests.kit.threads import run_in_threads


def play_whole_game(
    client: TestClient, game: str, rules: dict[str, Any], seats: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[int | None, list[dict[str, Any]]]]:
    """A game of ``seats`` played to its end by scripted people (random moves) while a
    watcher watches: its record and what each seat (and ``None``, the watcher) received."""
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

    def play(seat: int, cookie: str) -> list[dict[str, Any]]:
        with connect(client, created["ws_url"], cookie) as ws:
            return play_to_end(ws, random_policy(seat))

    def watch() -> list[dict[str, Any]]:
        with connect(client, created["ws_url"], watcher_cookie) as ws:
            return watch_to_end(ws)

    people = list(zip(human_seats, cookies, strict=True))
    watched, *played = run_in_threads(
        watch, *(partial(play, seat, cookie) for seat, cookie in people)
    )
    messages: dict[int | None, list[dict[str, Any]]] = {None: watched}
    messages.update((seat, received) for (seat, _), received in zip(people, played, strict=True))
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
    # a game to 505 may end with its first hand: some 90 states or more
    assert check_no_leak(record, messages) > 50
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


def test_burraco_for_four_to_the_end_without_leaks(client: TestClient) -> None:
    """Three people and a bot in two partnerships: nobody, the partner included, sees a
    hand but their own (each seat's every state is the same with the partner's unseen
    cards dealt again), and a watcher sees no hand at all."""
    record, messages = play_whole_game(
        client,
        "burraco",
        {"players": 4},
        [
            {"kind": "human"},
            {"kind": "human"},
            {"kind": "human"},
            {"kind": "bot", "level": "random"},
        ],
    )
    assert len(record["players"]) == 4 and record["rules"]["players"] == 4
    assert check_no_leak(record, messages) > 50
    game = game_named("burraco")
    state = game.new_state(rules_from_json(game.rules_type, record["rules"]), int(record["seed"]))
    by_number = {
        (seat, m["state_number"]): m
        for seat in (0, 1, 2)
        for m in messages[seat]
        if m["type"] == "state"
    }
    partner_moved = 0
    for number in range(len(record["actions"]) + 1):
        for seat in (0, 1, 2):
            message = by_number.get((seat, number))
            if message is None:
                continue
            partner = (seat + 2) % 4
            shuffled = state.clone()
            shuffled.shuffle_hidden(seat, number)
            partner_moved += shuffled.observation(partner).hand != state.observation(partner).hand
            assert message["observation"] == shuffled.observation(seat).to_json()
            assert message["observation"]["hand_sizes"][partner] == len(
                state.observation(partner).hand
            )
        if number < len(record["actions"]):
            state.apply(game.parse_action(record["actions"][number]))
    assert partner_moved > 50
