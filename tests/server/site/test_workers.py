"""Three server processes as workers of one site (PostgreSQL and Redis on 127.0.0.1).

Players connect to workers picked at random, and to another one whenever their socket
closes; tables are created on any worker.  While they play whole games of both games
(two people at one table, people against bots at others, two people at a turn-based
table), a worker is killed (SIGKILL) several times and started again.  At the end every
game is over, no acknowledged action is missing, each game equals the same deterministic
players' game replayed here without any kill (so no two owners ever both played a
table), and every seat's view a client received was its own.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from typing import Any

from tests.kit import http_clients
from tests.kit.scripted import expected_actions
from tests.kit.site import WORKERS, Seat, Site
from tests.kit.wait import wait_until

KILLS = 3


LIVE = {"turn_seconds": None}
TURN_BASED = {"days_per_move": 1}  # its clock of days is stored, never only in memory

TABLES: list[tuple[str, dict[str, Any], list[str], dict[str, Any]]] = [
    ("burraco", {"mode": "quick"}, ["human", "bot"], LIVE),
    ("three-thirteen", {"first_round": 1, "last_round": 5}, ["human", "human"], LIVE),
    ("three-thirteen", {"first_round": 1, "last_round": 5}, ["human", "bot", "bot"], LIVE),
    ("burraco", {"mode": "quick"}, ["human", "human"], LIVE),
    ("three-thirteen", {"first_round": 1, "last_round": 5}, ["human", "human"], TURN_BASED),
]


def test_tables_go_on_across_workers_killed_mid_game(site: Site) -> None:
    rng = random.Random(7)
    games: list[tuple[str, list[Seat]]] = []
    for index, (game, rules, kinds, time_control) in enumerate(TABLES):
        seats = [
            Seat(site, f"p{index}s{i}", seed=100 * index + i)
            for i, kind in enumerate(kinds)
            if kind == "human"
        ]
        seat_requests = [
            {"kind": "human"} if kind == "human" else {"kind": "bot", "level": "greedy"}
            for kind in kinds
        ]
        created = seats[0].post(
            "/api/tables",
            {"game": game, "rules": rules, "seats": seat_requests, **time_control},
        )
        table_id = created["table_id"]
        for seat_number, person in enumerate(seats[1:], start=1):  # the others join
            joined = person.post(f"/api/tables/{table_id}/join", {"seat": seat_number})
            assert joined["seat"] == seat_number
        games.append((table_id, seats))
    threads = [
        threading.Thread(target=person.play, args=(table_id, seat), daemon=True)
        for table_id, seats in games
        for seat, person in enumerate(seats)
    ]
    for thread in threads:
        thread.start()
    people = [person for _, seats in games for person in seats]

    def acknowledged() -> int:
        return sum(len(person.acknowledged) for person in people)

    def played_on(goal: int) -> bool:
        return acknowledged() >= goal or not any(t.is_alive() for t in threads)

    kills = 0
    while kills < KILLS and any(t.is_alive() for t in threads):
        # each kill lands mid-game, after a chance number of further acknowledged moves
        goal = acknowledged() + rng.randint(10, 30)
        wait_until(functools.partial(played_on, goal), 120, what="the games' progress")
        victim = site.busiest()
        with site.lock:
            victim.kill()
        kills += 1
        time.sleep(rng.uniform(0.2, 1.0))  # the worker stays down this long in wall time
        victim.start()
    for thread in threads:
        thread.join(timeout=300)
    for person in people:
        assert person.failure is None, f"{person.name}: {person.failure!r}"
        assert person.over is not None
    assert kills == KILLS, "every game ended before the kills: make them longer"
    for (table_id, seats), (_, _, kinds, _) in zip(games, TABLES, strict=True):
        port = site.any_port(rng)
        record = http_clients.get(f"http://127.0.0.1:{port}/api/tables/{table_id}/record").json()
        human_seats = {i for i, kind in enumerate(kinds) if kind == "human"}
        assert record["totals"] == seats[0].over["totals"]  # type: ignore[index]
        for person in seats:
            for number in person.acknowledged:
                assert record["actions"][number] == person.sent[number]
        assert record["actions"] == expected_actions(record, human_seats)
    assert sum(person.reconnects for person in people) > 0  # the kills reached the players
    logs = site.logs()
    assert logs.count("event=server_started") == WORKERS + KILLS
    # each kill took tables with it, and a live worker took them over
    assert logs.count("event=taken_over") >= KILLS
    assert "event=remote_client" in logs  # clients were served through other workers
