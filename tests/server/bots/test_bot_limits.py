"""What a player may create: bad bot levels are a typed 400 ``bad_bot`` (never a 500),
tables made without sitting count toward the table limit, a guest's bots think at most
``guest_bot_seconds`` a move, and one player's bots at unfinished tables think at most
``bot_seconds_per_player`` (``bot_seconds_per_guest``) a move in all.  On SQLite and on
PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.bots.limits import check_bot_level
from rummykit.server.protocol.refusals import TableError
from rummykit.server.settings import Settings
from tests.kit.apps import OpenClient
from tests.kit.progress import table_over

LIMITS = {
    "max_tables_per_player": 3,
    "guest_bot_seconds": 1.0,
    "guest_bot_iterations": 500,
    "bot_seconds_per_guest": 4.0,
    "bot_seconds_per_player": 12.0,
}
BAD_LEVELS = [
    "ismcts:seconds=nan",
    "ismcts:iterations=nan",
    "ismcts:seconds=inf",
    "ismcts:iterations=inf",
    "ismcts:seconds=-inf",
    "ismcts:seconds=1e400",
    "ismcts:seconds=-1",
    "ismcts:seconds=0",
    "ismcts:iterations=0.5",
    "ismcts:seconds=abc",
    "ismcts:seconds=",
    "ismcts:seconds=0.5:seconds=50",
    "ismcts:iterations=1e300",
    "ismcts:seconds=11",
    "ismcts:budget=3",
    "greedy:seconds=1",
    "wizard",
]


@pytest.fixture
def client(settings: Settings, open_client: OpenClient) -> TestClient:
    """A server on either kind of database, with the limits of :data:`LIMITS`."""
    return open_client(settings, clock=None, **LIMITS)


def guest(client: TestClient, name: str) -> None:
    client.cookies.clear()
    assert client.post("/api/session", json={"nickname": name}).status_code == 200


def registered(client: TestClient, name: str) -> None:
    client.cookies.clear()
    answer = client.post("/api/register", json={"name": name, "password": "correct-horse-9"})
    assert answer.status_code == 200, answer.text


def waiting_table(*bots: str, sit: bool = True) -> dict[str, Any]:
    """A Three-Thirteen table that waits for a second player (its bots never move)."""
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": b} for b in bots]
    return {"game": "three-thirteen", "seats": seats, "sit": sit}


def create(client: TestClient, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    answer = client.post("/api/tables", json=body)
    return answer.status_code, answer.json()


def refused(answer: tuple[int, dict[str, Any]], status: int, code: str) -> bool:
    return answer[0] == status and answer[1]["error"]["code"] == code


@pytest.mark.parametrize("level", BAD_LEVELS)
def test_check_bot_level_refuses_every_bad_level_with_bad_bot(level: str) -> None:
    with pytest.raises(TableError) as error:
        check_bot_level("three-thirteen", level)
    assert error.value.code == "bad_bot"


def test_bad_levels_are_a_typed_400(client: TestClient) -> None:
    registered(client, "levels")
    for level in BAD_LEVELS:
        answer = create(client, waiting_table(level))
        assert refused(answer, 400, "bad_bot"), (level, answer)
        assert answer[1]["error"]["params"] == {"level": level}
        now = client.post("/api/play-now", json={"game": "burraco", "level": level})
        assert now.status_code == 400 and now.json()["error"]["code"] == "bad_bot", level
    assert create(client, waiting_table("ismcts:seconds=10", "ismcts:iterations=20"))[0] == 200


def test_tables_made_without_sitting_count_toward_the_limit(client: TestClient) -> None:
    guest(client, "maker")
    for _ in range(2):
        assert create(client, waiting_table("greedy", sit=False))[0] == 200
    assert create(client, waiting_table("greedy"))[0] == 200  # seated at this one
    assert refused(create(client, waiting_table("greedy", sit=False)), 429, "too_many_tables")
    assert refused(create(client, waiting_table("greedy")), 429, "too_many_tables")
    guest(client, "other")  # the limit is the player's own
    assert create(client, waiting_table("greedy", sit=False))[0] == 200


def test_a_guests_bots_think_at_most_a_second_a_move(client: TestClient) -> None:
    guest(client, "guest")
    for level in ("ismcts:seconds=1.5", "ismcts:iterations=501", "ismcts:seconds=10"):
        answer = create(client, waiting_table(level))
        assert refused(answer, 400, "bad_bot"), level
        assert answer[1]["error"]["params"] == {"level": level}
    play_now = client.post("/api/play-now", json={"game": "burraco", "level": "ismcts:seconds=2"})
    assert play_now.status_code == 400 and play_now.json()["error"]["code"] == "bad_bot"
    assert create(client, waiting_table("ismcts:seconds=1", "ismcts:iterations=500"))[0] == 200
    registered(client, "member")
    assert create(client, waiting_table("ismcts:seconds=5", "ismcts:iterations=1000"))[0] == 200


def test_a_guests_bots_share_a_budget_of_thinking_time(client: TestClient) -> None:
    guest(client, "thinker")
    # 1 + 1 + 0.5 (ismcts's own 0.5 s) = 2.5 s of the guest's 4
    made = create(client, waiting_table("ismcts:seconds=1", "ismcts:seconds=1", sit=False))
    assert made[0] == 200
    assert create(client, waiting_table("ismcts", "greedy"))[0] == 200
    over = create(client, waiting_table("ismcts:seconds=1", "ismcts:seconds=1"))
    assert refused(over, 400, "bad_bot") and "4 s" in over[1]["error"]["message"]
    assert create(client, waiting_table("ismcts:seconds=1", "greedy"))[0] == 200  # 3.5 s
    assert create(client, waiting_table("greedy"))[0] == 429  # now the table limit (3)


def test_a_registered_players_budget(client: TestClient) -> None:
    registered(client, "budget")
    assert create(client, waiting_table("ismcts:seconds=5", "ismcts:seconds=5"))[0] == 200
    # 10 s used of 12: 2.5 s more (5,000 iterations at the slowest speed) is too much
    assert refused(create(client, waiting_table("ismcts:iterations=1250")), 400, "bad_bot")
    assert create(client, waiting_table("ismcts:iterations=1000"))[0] == 200


def test_finished_tables_no_longer_count(client: TestClient) -> None:
    """A bot-only table made without sitting plays to its end at once and is then no
    longer one of the player's unfinished tables."""
    guest(client, "finisher")
    bots = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    body = {"game": "three-thirteen", "rules": {"last_round": 3}, "seats": bots, "sit": False}
    status, made = create(client, body)
    assert status == 200
    table_over(client, made["table_id"])
    for _ in range(3):
        assert create(client, waiting_table("greedy", sit=False))[0] == 200


def tournament(bot_level: str | None, capacity: int = 4) -> dict[str, Any]:
    return {
        "game": "burraco",
        "rules": {"mode": "quick"},
        "name": "Bots",
        "capacity": capacity,
        "bot_level": bot_level,
        "enter": False,
    }


def make_tournament(client: TestClient, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    answer = client.post("/api/tournaments", json=body)
    return answer.status_code, answer.json()


def test_tournament_bots_are_held_to_the_creators_limits(client: TestClient) -> None:
    """A tournament's bots are checked as a table's are: a guest's at most 500
    iterations and a second a move, anyone's at most a second (many tables play at
    once), a level in iterations alone counted at the slowest search speed."""
    guest(client, "organiser")
    for level in ("ismcts:iterations=100000", "ismcts:iterations=501", "ismcts:seconds=1.5"):
        answer = make_tournament(client, tournament(level))
        assert refused(answer, 400, "bad_bot"), (level, answer)
        assert answer[1]["error"]["params"] == {"level": level}
    assert make_tournament(client, tournament("ismcts:iterations=500"))[0] == 200
    registered(client, "member")
    for level in ("ismcts:iterations=100000", "ismcts:iterations=600", "ismcts:seconds=2"):
        answer = make_tournament(client, tournament(level))
        assert refused(answer, 400, "bad_bot"), (level, answer)
        assert answer[1]["error"]["params"] == {"level": level}
    allowed = tournament("ismcts:iterations=5000:seconds=1")
    assert make_tournament(client, allowed)[0] == 200


def test_tournament_bots_count_against_the_creators_budget(client: TestClient) -> None:
    """A guest's 4 s: a tournament of eight one-second bots is too much; one of four
    takes it all, and a table's searching bot is then refused (and the other way)."""
    guest(client, "spender")
    over = make_tournament(client, tournament("ismcts:seconds=1", capacity=8))
    assert refused(over, 400, "bad_bot") and "4 s" in over[1]["error"]["message"]
    assert make_tournament(client, tournament("ismcts:seconds=1", capacity=4))[0] == 200
    assert refused(create(client, waiting_table("ismcts:seconds=0.5")), 400, "bad_bot")
    assert create(client, waiting_table("greedy"))[0] == 200
    guest(client, "table-first")
    assert create(client, waiting_table("ismcts:seconds=1", "ismcts:seconds=1"))[0] == 200
    half = make_tournament(client, tournament("ismcts:seconds=0.5", capacity=6))
    assert refused(half, 400, "bad_bot")
    assert make_tournament(client, tournament("ismcts:seconds=0.5", capacity=4))[0] == 200
