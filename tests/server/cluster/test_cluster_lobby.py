"""Two workers of one site in this process (each its own uvicorn thread), sharing a
PostgreSQL schema and a Redis prefix: what one worker's players do reaches the other.

A table lives at the worker that created it; a second player who only ever talks to
the other worker joins it, is refused a taken seat with the owner's own error, plays
through a socket whose views come from the owner, and logs out there, which closes the
socket.  The lobby of either worker leaves out a waiting table whose players are all
away, although only its owner knows it.  Two players asking the two workers for a
rematch at the same moment get one rematch, offered to both.  A player of a rated table
who plays through the worker that does not own it claims the win over an opponent who
never came.  A vacation declared at one worker stops the clock at once at a turn-based
table of the other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.kit.databases import new_postgres_schema
from tests.kit.factories import HUMAN, table_body
from tests.kit.live import LiveServer, Player, play_out, seat_views_are_theirs
from tests.kit.players import PASSWORD
from tests.kit.wait import wait_until
from tests.kit.workers import running_workers


@pytest.fixture(scope="module")
def workers() -> Iterator[tuple[LiveServer, ...]]:
    """Two workers of one site, a grace of half a second for an absent player: one site
    for the module (each test makes its own players and tables, and looks at no other)."""
    with new_postgres_schema() as schema, running_workers(schema, grace_seconds=0.5) as both:
        yield both


def test_a_player_at_another_worker_joins_plays_and_logs_out(
    workers: tuple[LiveServer, LiveServer],
) -> None:
    owner_side, other_side = workers
    host = Player(owner_side, "ada")
    guest = Player(other_side, "bob")
    third = Player(other_side, "cy")
    created = host.post(
        "/api/tables",
        {"game": "three-thirteen", "rules": {"first_round": 1, "last_round": 2},
         "seats": [{"kind": "human"}] * 3, "turn_seconds": None},
    ).json()  # fmt: skip
    assert "table_id" in created, created
    table_id = created["table_id"]
    joined = guest.post(f"/api/tables/{table_id}/join", {"seat": 1})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    refused = third.post(f"/api/tables/{table_id}/join", {"seat": 1})
    assert refused.status_code == 409, refused.text  # the owner's refusal, typed
    assert refused.json()["error"]["code"] == "seat_taken"
    # everyone is connected before the game starts (cy watching until it sits), so no
    # grace period runs and nobody's seat is played by a substitute
    ada, bob, cy = (player.connect(table_id) for player in (host, guest, third))
    for sock in (ada, bob, cy):
        sock.wait_for(lambda m: m.get("type") == "state")
    assert third.post(f"/api/tables/{table_id}/join", {"seat": 2}).json()["seat"] == 2
    first = bob.wait_for(lambda m: m.get("type") == "state" and m["status"] == "playing")
    assert first["seat"] == 1 and first["observation"]["player"] == 1
    mover = (ada, bob, cy)[first["observation"]["current_player"]]
    state = mover.wait_for(lambda m: m.get("type") == "state" and m["legal_actions"])
    mover.send({"type": "action", "state_number": state["state_number"],
                "action": state["legal_actions"][0]})  # fmt: skip
    number = state["state_number"] + 1
    for sock in (ada, bob):  # both see the move, each from its own seat
        sock.wait_for(lambda m, n=number: m.get("type") == "state" and m["state_number"] == n)
    assert seat_views_are_theirs([ada, bob, cy]) >= 4
    assert guest.post("/api/logout").status_code == 200
    assert bob.closed.wait(10), "the logout at one worker did not close the socket"
    for sock in (ada, bob, cy):
        sock.close()
    for player in (host, guest, third):
        player.close()


def a_waiting_table(host: Player, looker: Player) -> tuple[str, Callable[[], bool]]:
    """A Burraco table of two people that ``host`` makes (at its worker, so it is that
    worker's), and whether the lobby of ``looker`` (at the other worker) lists it."""
    table_id = str(host.post("/api/tables", table_body("burraco", HUMAN, HUMAN)).json()["table_id"])

    def listed() -> bool:
        tables = looker.http.get("/api/tables").json()
        return any(t["table_id"] == table_id for t in tables)

    return table_id, listed


def test_the_lobby_of_every_worker_leaves_out_an_abandoned_table(
    workers: tuple[LiveServer, LiveServer],
) -> None:
    owner_side, other_side = workers
    host = Player(owner_side, "dee")
    looker = Player(other_side, "eve")
    table_id, listed = a_waiting_table(host, looker)
    sock = host.connect(table_id)
    sock.wait_for(lambda m: m.get("type") == "state")
    assert listed()
    sock.close()  # the only seated player goes away; after the grace period...
    wait_until(lambda: not listed(), 15, what="the abandoned table left out")
    again = host.connect(table_id)  # ...and back: listed again everywhere
    again.wait_for(lambda m: m.get("type") == "state")
    wait_until(listed, 15, what="the table listed again")
    again.close()
    host.close()
    looker.close()


def test_a_player_back_at_a_table_left_out_is_listed_everywhere_once_they_see_it(
    workers: tuple[LiveServer, LiveServer],
) -> None:
    """The owner marks a waiting table whose players are all away; the moment its
    player, back, has the table's state, the lobby of the other worker lists it again:
    the mark is gone then, not only once it lapses (seconds later).  So it does not
    matter how long after making it the player's page opens the table."""
    owner_side, other_side = workers
    host = Player(owner_side, "fay")
    looker = Player(other_side, "gus")
    table_id, listed = a_waiting_table(host, looker)
    # its maker has not come within the grace period: left out everywhere
    wait_until(lambda: not listed(), 15, what="the table nobody came to left out")
    sock = host.connect(table_id)
    sock.wait_for(lambda m: m.get("type") == "state")
    assert listed()
    sock.close()
    host.close()
    looker.close()


def test_two_players_asking_two_workers_for_a_rematch_get_one(
    workers: tuple[LiveServer, LiveServer],
) -> None:
    owner_side, other_side = workers
    ann, bob = Player(owner_side, "ann"), Player(other_side, "bob")
    created = ann.post(
        "/api/tables",
        {"game": "three-thirteen", "rules": {"first_round": 3, "last_round": 3},
         "seats": [{"kind": "human"}] * 2, "turn_seconds": None},
    ).json()  # fmt: skip
    table_id = created["table_id"]
    assert bob.post(f"/api/tables/{table_id}/join", {"seat": 1}).json()["seat"] == 1
    assert bob.post(f"/api/tables/{table_id}/leave").status_code == 200
    ann_sock = ann.connect(table_id)
    play_out(ann_sock)
    bob_sock = bob.connect(table_id)  # through the other worker
    bob_sock.wait_for(lambda m: m.get("type") == "game_over")
    start = threading.Barrier(2)
    answers: dict[str, httpx.Response] = {}

    def ask(player: Player) -> None:
        start.wait()
        answers[player.name] = player.post(f"/api/tables/{table_id}/rematch")

    threads = [threading.Thread(target=ask, args=(p,)) for p in (ann, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert answers["ann"].status_code == 200, answers["ann"].text
    assert answers["bob"].status_code == 200, answers["bob"].text
    made = {name: answer.json() for name, answer in answers.items()}
    assert made["ann"]["table_id"] == made["bob"]["table_id"]
    assert (made["ann"]["seat"], made["bob"]["seat"]) == (0, 1)
    for sock in (ann_sock, bob_sock):  # the offer reached both, whoever made it
        offer = sock.wait_for(lambda m: m.get("type") == "rematch")
        assert offer["table_id"] == made["ann"]["table_id"]
    started = ann.http.get(f"/api/tables/{made['ann']['table_id']}").json()
    assert started["status"] == "playing"
    assert [s["name"] for s in started["seats"]] == ["ann", "bob"]
    for sock in (ann_sock, bob_sock):
        sock.close()
    ann.close()
    bob.close()


def test_a_win_is_claimed_through_a_worker_that_does_not_own_the_table(
    workers: tuple[LiveServer, LiveServer],
) -> None:
    owner_side, other_side = workers
    ann, bob = Player(owner_side, "ann"), Player(other_side, "bob")
    for player in (ann, bob):
        made = player.post("/api/register", {"name": f"{player.name}_claims", "password": PASSWORD})
        assert made.status_code == 200, made.text
    created = ann.post(
        "/api/tables",
        {"game": "three-thirteen", "rules": {"first_round": 3, "last_round": 11},
         "seats": [{"kind": "human"}] * 2, "turn_seconds": None, "rated": True},
    ).json()  # fmt: skip
    table_id = created["table_id"]
    # ann waits at the table through the worker that does not own it; bob joins, and
    # never comes
    relayed = Player(other_side, "ann_relayed")
    relayed.cookie = ann.cookie
    sock = relayed.connect(table_id)
    sock.wait_for(lambda m: m.get("type") == "state")
    assert bob.post(f"/api/tables/{table_id}/join", {"seat": 1}).json()["seat"] == 1
    sock.wait_for(lambda m: m.get("type") == "state" and m["players"][1]["gone"])
    sock.send({"type": "claim"})
    over = sock.wait_for(lambda m: m.get("type") == "game_over")
    assert (over["ended_by"], over["winners"]) == ("abandoned", [0])
    summary = ann.http.get(f"/api/tables/{table_id}").json()
    assert summary["ended_by"] == "abandoned" and summary["rating_changes"]
    sock.close()
    for player in (ann, bob, relayed):
        player.close()


def test_a_vacation_declared_at_one_worker_stops_the_clock_at_the_tables_of_another(
    workers: tuple[LiveServer, LiveServer],
) -> None:
    """The table lives at the first worker; bob declares his vacation at the second, and
    the players at the table see it at once, not when his timer rings days later."""
    owner_side, other_side = workers
    ann, bob = Player(owner_side, "ann_days"), Player(other_side, "bob_days")
    created = ann.post(
        "/api/tables",
        {"game": "three-thirteen", "rules": {"first_round": 3, "last_round": 4},
         "seats": [{"kind": "human"}] * 2, "days_per_move": 1},
    ).json()  # fmt: skip
    table_id = created["table_id"]
    sock = ann.connect(table_id)
    sock.wait_for(lambda m: m.get("type") == "state")
    assert bob.post(f"/api/tables/{table_id}/join", {"seat": 1}).json()["seat"] == 1
    state = sock.wait_for(lambda m: m.get("type") == "state" and m["status"] == "playing")
    state = sock.play_until_seat_moves(state, 1)  # ann plays her turn first if the deal says so
    assert state["turn"]["vacation_until"] is None
    declared = bob.post("/api/vacation", {"days": 2})
    assert declared.status_code == 200, declared.text
    away_until = declared.json()["away_until"]
    away = sock.wait_for(
        lambda m: m.get("type") == "state" and (m["turn"] or {}).get("vacation_until")
    )
    assert away["turn"]["vacation_until"] == pytest.approx(away_until)
    assert away["turn"]["deadline"] > state["turn"]["deadline"]
    sock.close()
    for player in (ann, bob):
        player.close()
