"""Turn clocks: none against the computer by default, a turn time and a time bank at
tables of people, the bank drawn on by a long turn, and the stand-in's caution."""

from __future__ import annotations

from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.table.stand_in import LARGE_PILE, cautious_moves
from tests.kit.apps import OpenClient, app_client
from tests.kit.databases import make_settings
from tests.kit.factories import HUMAN, table_body
from tests.kit.players import connect, new_player
from tests.kit.runners import RecordingRunner
from tests.kit.sockets import next_state, next_state_or_end, nothing_happens


@pytest.fixture
def clock_client(open_client: OpenClient) -> TestClient:
    """A server whose tables of people have 30 s a turn and a bank of 90 s by default."""
    return open_client(default_turn_seconds=30.0, default_time_bank_seconds=90.0)


def test_play_now_against_the_computer_has_no_clock(clock_client: TestClient) -> None:
    client = clock_client
    client.post("/api/session", json={"nickname": "solo"})
    created = client.post("/api/play-now", json={"game": "burraco"}).json()
    summary = client.get(f"/api/tables/{created['table_id']}").json()
    assert summary["turn_seconds"] is None and summary["time_bank_seconds"] is None
    with client.websocket_connect(created["ws_url"]) as ws:
        state = next_state(ws, lambda m: m["turn"] is not None)
        assert state["turn"]["deadline"] is None and state["turn"]["seconds_left"] is None
        assert state["turn"]["banks"] is None


def test_a_table_of_people_gets_the_default_turn_time_and_bank(clock_client: TestClient) -> None:
    client = clock_client
    client.post("/api/session", json={"nickname": "host"})
    people = client.post(
        "/api/tables", json={"game": "burraco", "seats": [{"kind": "human"}] * 2}
    ).json()
    summary = client.get(f"/api/tables/{people['table_id']}").json()
    assert (summary["turn_seconds"], summary["time_bank_seconds"]) == (30.0, 90.0)
    chosen = client.post(
        "/api/tables",
        json={
            "game": "burraco",
            "seats": [{"kind": "human"}] * 2,
            "turn_seconds": 20,
            "time_bank_seconds": 0,
        },
    ).json()
    summary = client.get(f"/api/tables/{chosen['table_id']}").json()
    assert (summary["turn_seconds"], summary["time_bank_seconds"]) == (20.0, None)
    too_long = client.post(
        "/api/tables",
        json={"game": "burraco", "seats": [{"kind": "human"}] * 2, "time_bank_seconds": 1e6},
    )
    assert too_long.status_code == 400 and too_long.json()["error"]["code"] == "bad_turn_seconds"
    catalog = client.get("/api/games/catalog").json()
    assert catalog["default_time_bank_seconds"] == 90.0


def _stand_in_turn(
    client: TestClient, clock: FakeClock, game: str, rules: dict[str, Any], seats: int
) -> dict[str, Any] | None:
    """At a new table whose person lets their first turn run out: the state at their
    next turn, or ``None`` when the game ended before it (a deal can let the stand-in,
    or another seat, close at once).  Checks on the way that the bank was drawn on
    before the stand-in played, and that it played the whole turn."""
    others = ["greedy"] * (seats - 1)
    body = table_body(game, HUMAN, *others, rules=rules, turn_seconds=5, time_bank_seconds=3)
    created = client.post("/api/tables", json=body).json()
    with client.websocket_connect(created["ws_url"]) as ws:
        mine = next_state(ws, lambda m: m["legal_actions"])
        turn: dict[str, Any] = mine["turn"]
        assert turn["player"] == 0 and turn["banks"] == [3.0] * seats
        assert turn["seconds_left"] == 8  # the turn time, then the bank
        clock.advance(7.9)
        nothing_happens(ws)  # into the bank, not yet out of time
        clock.advance(0.2)
        actors: list[str] = []
        while True:  # until the next turn (a bot's, or a new round's), or the game's end
            message = next_state_or_end(ws, lambda m: m["last_action"] is not None)
            if message is None:
                break
            if message["last_action"]["seat"] == 0:
                actors.append(message["last_action"]["actor"])
            if message["turn"] is not None and message["turn"]["deadline"] != turn["deadline"]:
                break
        assert actors and set(actors) == {"timeout"}
        if message is None:
            return None
        turns = [message["turn"]["player"]]
        while not (message["legal_actions"] and message["turn"]["player"] == 0):
            message = next_state_or_end(ws, lambda m: m["turn"] is not None)
            if message is None:
                return None
            if message["turn"]["player"] != turns[-1]:
                turns.append(message["turn"]["player"])
        if turns[0] != 0:  # the turn went round the table, each seat in order
            assert turns == [*range(1, seats), 0]
        return message


@pytest.mark.parametrize(
    ("game", "rules", "seats"),
    [("three-thirteen", {}, 2), ("burraco", {"players": 4}, 4)],
    ids=["three-thirteen", "burraco-for-four"],
)
def test_a_long_turn_draws_on_the_bank_then_the_stand_in_plays(
    clock_client: TestClient, clock: FakeClock, game: str, rules: dict[str, Any], seats: int
) -> None:
    client = clock_client
    client.post("/api/session", json={"nickname": "slow"})
    # a new deal while the game ends before the person's next turn (a deal in hundreds)
    for _deal in range(5):
        message = _stand_in_turn(client, clock, game, rules, seats)
        if message is not None:
            break
    assert message is not None, "five deals in a row ended before the person's next turn"
    # the bank was spent: this turn has its turn time only
    assert message["turn"]["banks"] == [0.0] + [3.0] * (seats - 1)
    assert message["turn"]["seconds_left"] == pytest.approx(5.0)


def test_a_stand_in_leaves_a_large_burraco_pile() -> None:
    legal = ["draw", "take"]
    small = {"discard_pile": ["3h"] * LARGE_PILE}
    large = {"discard_pile": ["3h"] * (LARGE_PILE + 1)}
    assert cautious_moves(small, legal, whole_pile=True) == legal
    assert cautious_moves(large, legal, whole_pile=True) == ["draw"]
    # a Three-Thirteen take is one card, whatever the pile
    assert cautious_moves(large, legal, whole_pile=False) == legal
    # never left without a move
    assert cautious_moves(large, ["take"], whole_pile=True) == ["take"]


def test_a_restarted_server_keeps_the_banks(sqlite_url: str, bot_runner: BotRunner) -> None:
    """The banks come from stored action times: a new process sees the same."""
    settings = make_settings(sqlite_url)
    clock = FakeClock()
    with app_client(settings, runner=bot_runner, clock=clock) as client:
        client.post("/api/session", json={"nickname": "slow"})
        cookie = str(client.cookies.get("rummykit_session"))
        body = table_body("three-thirteen", HUMAN, "greedy", turn_seconds=5, time_bank_seconds=10)
        created = client.post("/api/tables", json=body).json()
        with client.websocket_connect(created["ws_url"]) as ws:
            state = next_state(ws, lambda m: m["legal_actions"])
            clock.advance(8.0)  # 3 s into the bank
            while state["turn"]["player"] == 0:
                action = "draw" if "draw" in state["legal_actions"] else None
                action = action or next(a for a in state["legal_actions"] if a.startswith("disc"))
                number = state["state_number"]
                ws.send_json({"type": "action", "state_number": number, "action": action})
                state = next_state(ws, lambda m, n=number: m["state_number"] > n)
            mine = next_state(ws, lambda m: m["legal_actions"] and m["turn"]["player"] == 0)
            assert mine["turn"]["banks"][0] == pytest.approx(7.0)
    later = FakeClock(clock.now())
    with app_client(settings, runner=bot_runner, clock=later) as client:
        client.cookies.set("rummykit_session", cookie)
        with client.websocket_connect(created["ws_url"]) as ws:
            again = next_state(ws, lambda m: m["turn"] is not None)
            assert again["turn"]["banks"] == mine["turn"]["banks"]
            assert again["turn"]["deadline"] == mine["turn"]["deadline"]


def test_a_substitute_never_takes_a_large_burraco_pile(
    open_client: OpenClient, bot_runner: BotRunner
) -> None:
    runner = RecordingRunner(bot_runner)
    # (create_app asks for a BotRunner; this one hands every call to the shared one)
    client = open_client(runner=cast(BotRunner, runner), clock=None)

    def asked() -> list[tuple[int, list[str]]]:
        """What each decision was asked to choose among: the pile's size, the moves."""
        return [(len(a.observation["discard_pile"]), a.legal) for a in runner.asked]

    def met_a_large_pile() -> bool:
        return any(size > LARGE_PILE and "draw" in legal for size, legal in asked())

    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    # ann always draws and throws her first card: the pile grows, unless the substitute
    # takes it while it is small (the deal is new each run), so she plays on, game after
    # game, until the substitute has met a large pile
    for _ in range(3):
        if met_a_large_pile():
            break
        client.cookies.set("rummykit_session", ann)
        created = client.post(
            "/api/tables", json=table_body("burraco", HUMAN, HUMAN, turn_seconds=None)
        ).json()
        client.cookies.set("rummykit_session", bob)
        client.post(f"/api/tables/{created['table_id']}/join", json={})
        client.post(f"/api/tables/{created['table_id']}/leave")  # a substitute plays bob
        client.cookies.clear()
        with connect(client, created["ws_url"], ann) as ws:
            while not met_a_large_pile():
                message = ws.receive_json()
                if message["type"] == "game_over":
                    break
                legal = message.get("legal_actions") if message["type"] == "state" else None
                if not legal:
                    continue
                action = "draw" if "draw" in legal else next(a for a in legal if "discard" in a)
                number = message["state_number"]
                ws.send_json({"type": "action", "state_number": number, "action": action})
    # the substitute's draws: a small pile may be taken, a large one never
    draws = [(size, legal) for size, legal in asked() if "draw" in legal]
    assert any(size > LARGE_PILE for size, _ in draws), "the substitute never met a large pile"
    for size, legal in draws:
        assert ("take" in legal) == (size <= LARGE_PILE), (size, legal)
