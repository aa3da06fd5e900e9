"""Fair play at the table, against hostile clients on a real server (uvicorn, real
sockets) and whole games on the test client.

- No hints while a rated or tournament game is played: a client that asks anyway, at
  every turn of a whole game, hears ``hint_not_allowed`` and never a hint, and every
  ``state`` says ``hints: false``; a casual table still answers with its hint, and the
  rated game is reviewed once it is over.
- A bot's reason for a move is worked out from its seat's hand, so it reaches that
  seat's own player only: whole games with a substitute, a bot seat and a watcher are
  audited text by text (``check_no_leak``), and a timed-out turn's reason reaches the
  player whose turn it was and nobody else.

Each runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.clock import FakeClock
from rummykit.server.settings import Settings
from tests.kit.apps import OpenClient
from tests.kit.databases import make_settings
from tests.kit.leak_audit import check_no_leak
from tests.kit.live import LiveServer, Player, Socket
from tests.kit.players import PASSWORD, connect, new_player
from tests.kit.progress import finished_review
from tests.kit.scripted import play_to_end, random_policy, watch_to_end
from tests.kit.sockets import next_state
from tests.kit.threads import run_in_threads
from tests.kit.tournaments import tournament_body

QUICK_313 = {"first_round": 3, "last_round": 4}


@pytest.fixture(scope="module")
def live(module_database: dict[str, Any]) -> Iterator[LiveServer]:
    """A real server shared by the module's tests, on either kind of database."""
    with LiveServer(make_settings(**module_database)) as server:
        yield server


def registered(server: LiveServer, name: str) -> Player:
    """A player who registered an account (only such players sit at rated tables)."""
    player = Player(server, name)
    response = player.post("/api/register", {"name": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    player.cookie = str(response.cookies.get("rummykit_session") or player.cookie)
    return player


def table_of_two(ann: Player, bob: Player, *, rated: bool) -> str:
    created = ann.post(
        "/api/tables",
        {
            "game": "three-thirteen",
            "rules": QUICK_313,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "rated": rated,
            "turn_seconds": None,
        },
    )
    assert created.status_code == 200, created.text
    table_id = str(created.json()["table_id"])
    assert bob.post(f"/api/tables/{table_id}/join").status_code == 200
    assert ann.http.get(f"/api/tables/{table_id}").json()["rated"] is rated
    return table_id


def play_asking_for_hints(sock: Socket) -> None:
    """Play the socket's seat to the end, asking for a hint at every state it is sent
    (its own turns and the others'), each refused with ``hint_not_allowed`` at that
    state; no hint may ever come."""
    cursor = 0
    acted = -1
    for _ in range(5_000):
        cursor = sock.next_index(
            cursor, lambda m: m.get("type") in ("state", "game_over", "hint"), timeout=60
        )
        message = sock.received[cursor]
        cursor += 1
        assert message["type"] != "hint", f"{sock.player.name} was sent a hint: {message}"
        if message["type"] == "game_over":
            return
        if message["status"] != "playing":
            continue
        number = int(message["state_number"])
        sock.send({"type": "hint"})
        answer = sock.next_index(cursor, lambda m: m.get("type") in ("error", "hint"), timeout=60)
        refusal = sock.received[answer]
        assert refusal["type"] == "error", f"{sock.player.name} was sent a hint: {refusal}"
        assert refusal["code"] == "hint_not_allowed", refusal
        assert refusal["message"] == "no hints while a rated or tournament game is played"
        assert message["hints"] is False, message  # and the client was told so
        if message["legal_actions"] and number > acted:
            acted = number
            action = message["legal_actions"][0]
            sock.send({"type": "action", "state_number": number, "action": action})
    raise AssertionError("the game did not end")


def both_play_asking_for_hints(players: list[Player], table_id: str) -> None:
    """The players, each on a socket of their own, play the table's game to its end
    asking for hints all the while (:func:`play_asking_for_hints`)."""
    sockets = [player.connect(table_id) for player in players]
    try:
        run_in_threads(*(partial(play_asking_for_hints, sock) for sock in sockets), timeout=300)
    finally:
        for sock in sockets:
            sock.close()
    for sock in sockets:
        assert not [m for m in sock.received if m.get("type") == "hint"]
        assert sum(m.get("code") == "hint_not_allowed" for m in sock.received) >= 3


def test_no_hint_at_a_rated_table_however_often_asked(live: LiveServer) -> None:
    ann, bob = registered(live, "ann-rated"), registered(live, "bob-rated")
    table_id = table_of_two(ann, bob, rated=True)
    both_play_asking_for_hints([ann, bob], table_id)
    # once the game is over, the review of it is there for each player
    assert_reviewed(ann, table_id)


def assert_reviewed(player: Player, table_id: str) -> None:
    """``player`` has their finished game reviewed: every decision of theirs is there,
    with the strongest bot's move wherever there was a choice."""
    started = player.post(f"/api/tables/{table_id}/review")
    assert started.status_code == 200, started.text
    review, _ = finished_review(player.http, table_id, timeout=300)
    assert review["status"] == "done" and review["items"], review
    assert any(item["suggested"] for item in review["items"]), review["items"][:3]


def test_no_hint_at_a_tournament_table(live: LiveServer) -> None:
    ann, bob = Player(live, "ann-event"), Player(live, "bob-event")
    body = tournament_body(
        {"game": "three-thirteen", "rules": {"first_round": 3, "last_round": 4}},
        name="No hints",
        rounds=1,
        capacity=2,
        bot_level=None,
    )
    made = ann.post("/api/tournaments", body)
    assert made.status_code == 200, made.text
    joined = bob.post(f"/api/tournaments/{made.json()['id']}/register").json()
    table_id = joined["your_table"]
    assert table_id and ann.http.get(f"/api/tables/{table_id}").json()["rated"] is False
    both_play_asking_for_hints([ann, bob], table_id)


def test_a_casual_table_still_gives_hints(live: LiveServer) -> None:
    ann, bob = registered(live, "ann-casual"), registered(live, "bob-casual")
    table_id = table_of_two(ann, bob, rated=False)
    sockets = [ann.connect(table_id), bob.connect(table_id)]
    try:
        states = [s.wait_for(lambda m: m.get("status") == "playing") for s in sockets]
        assert all(state["hints"] is True for state in states)
        mover, state = next(
            (s, m) for s, m in zip(sockets, states, strict=True) if m["legal_actions"]
        )
        mover.send({"type": "hint"})
        hint = mover.wait_for(lambda m: m.get("type") in ("hint", "error"), timeout=60)
        assert hint["type"] == "hint", hint
        assert hint["state_number"] == state["state_number"]
        assert hint["action"] in state["legal_actions"]
    finally:
        for sock in sockets:
            sock.close()


# ---------------------------------------------------------------------------------------
# Reasons


@pytest.fixture
def quick_client(settings: Settings, open_client: OpenClient) -> TestClient:
    """A server on either kind of database whose turns time out after 30 s (no bank)."""
    return open_client(settings, default_turn_seconds=30.0, default_time_bank_seconds=0.0)


@pytest.mark.parametrize(
    ("game", "rules"),
    [("three-thirteen", {"first_round": 3, "last_round": 6}), ("burraco", {"mode": "quick"})],
)
def test_whole_games_with_a_substitute_and_a_bot_tell_nobody_a_reason(
    any_client: TestClient, clock: FakeClock, game: str, rules: dict[str, Any]
) -> None:
    """Ann plays; Bob joined and never came, so a substitute plays his seat; a bot seat
    plays its own; a watcher watches.  Every text Ann and the watcher are sent is
    audited: neither the substitute's reasons nor the bot's reach them."""
    client = any_client
    three = game == "three-thirteen"
    seats = [{"kind": "human"}, {"kind": "human"}]
    if three:
        seats.append({"kind": "bot", "level": "greedy"})
    ann, bob, watcher = (new_player(client, name) for name in ("ann", "bob", "watcher"))
    client.cookies.set("rummykit_session", ann)
    created = client.post(
        "/api/tables", json={"game": game, "rules": rules, "seats": seats, "turn_seconds": None}
    ).json()
    table_id = created["table_id"]
    client.cookies.set("rummykit_session", bob)
    assert client.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    client.cookies.clear()
    messages: dict[int | None, list[dict[str, Any]]] = {}
    errors: list[BaseException] = []
    watching = threading.Event()

    def watch() -> None:
        try:
            with connect(client, created["ws_url"], watcher) as ws:
                first = ws.receive_json()
                watching.set()
                messages[None] = [first, *watch_to_end(ws)]
        except BaseException as error:
            watching.set()
            errors.append(error)

    thread = threading.Thread(target=watch)
    thread.start()
    assert watching.wait(60)
    with connect(client, created["ws_url"], ann) as ws:
        first = ws.receive_json()
        clock.advance(61)  # past the grace period: a substitute plays Bob's seat
        messages[0] = [first, *play_to_end(ws, random_policy(0))]
    thread.join(timeout=300)
    assert not errors, errors
    client.cookies.set("rummykit_session", ann)
    record = client.get(f"/api/tables/{table_id}/record").json()
    actors = {m["last_action"]["actor"] for m in messages[0] if m.get("last_action")}
    assert "substitute" in actors and (not three or "bot" in actors), actors
    assert check_no_leak(record, messages) > 50


def test_a_timed_out_turn_s_reason_reaches_its_own_player_only(
    quick_client: TestClient, clock: FakeClock
) -> None:
    client = quick_client
    ann, bob, watcher = (new_player(client, name) for name in ("ann", "bob", "watcher"))
    client.cookies.set("rummykit_session", ann)
    created = client.post(
        "/api/tables",
        json={"game": "three-thirteen", "rules": QUICK_313, "seats": [{"kind": "human"}] * 2},
    ).json()
    client.cookies.set("rummykit_session", bob)
    assert client.post(f"/api/tables/{created['table_id']}/join", json={}).status_code == 200
    client.cookies.clear()
    url = created["ws_url"]
    with (
        connect(client, url, ann) as a,
        connect(client, url, bob) as b,
        connect(client, url, watcher) as w,
    ):
        sockets = {0: a, 1: b, None: w}
        first = {
            seat: next_state(ws, lambda m: m["status"] == "playing") for seat, ws in sockets.items()
        }
        mover = first[0]["turn"]["player"]
        number = first[0]["state_number"]
        clock.advance(31)  # the mover's turn time runs out: greedy plays that turn
        timed_out = {
            seat: next_state(ws, lambda m: m["state_number"] > number)
            for seat, ws in sockets.items()
        }
    for seat, state in timed_out.items():
        last = state["last_action"]
        assert last["seat"] == mover and last["actor"] == "timeout", last
        if seat == mover:
            assert isinstance(last["reason"], str) and last["reason"], last
        else:
            assert last["reason"] is None, (seat, last)
