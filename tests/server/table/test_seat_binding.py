"""A connection speaks and sees only for the seat its player holds at that moment.

Against a real server over real sockets: a socket opened while its player leaves the
seat, another player taking that seat, re-joins and reconnects in every order
(Hypothesis's stateful testing), and a whole game with seat changes audited for leaks.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    invariant,
    rule,
    run_state_machine_as_test,
)

from tests.kit.databases import make_settings, sqlite_url_in
from tests.kit.leak_audit import check_no_leak
from tests.kit.live import LiveServer, Player, Socket, seat_views_are_theirs
from tests.kit.scripted import random_policy
from tests.kit.wait import wait_until


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    database = sqlite_url_in(tmp_path_factory.mktemp("seats"))
    server_settings = make_settings(
        database, max_tables_per_player=10_000, sockets_per_player=1_000
    )
    with LiveServer(server_settings) as server:
        yield server


def new_table(owner: Player, seats: list[dict[str, Any]], game: str = "three-thirteen") -> str:
    body: dict[str, Any] = {"game": game, "seats": seats, "turn_seconds": None}
    if game == "three-thirteen":
        body["rules"] = {"last_round": 3}
    response = owner.post("/api/tables", body)
    assert response.status_code == 200, response.text
    return str(response.json()["table_id"])


def test_a_socket_opened_while_its_player_leaves_never_gets_the_next_players_hand(
    live: LiveServer,
) -> None:
    """The audit's race: the socket is opened 0-10 ms after ``POST /leave``; the seat's
    next occupant takes it and the game starts.  The stale socket must watch, and
    cannot play."""
    rng = random.Random(15)
    names = ("ann", "bob", "carl", "dora")
    ann, bob, carl, dora = (Player(live, f"{name}-race") for name in names)

    def leave(path: str) -> int:
        return ann.post(path).status_code

    sockets: list[Socket] = []
    try:
        for _ in range(24):
            table_id = new_table(ann, [{"kind": "human"}] * 3)
            assert carl.post(f"/api/tables/{table_id}/join").json()["seat"] == 1
            delay = rng.uniform(0.0, 0.010)
            left: list[int] = []
            path = f"/api/tables/{table_id}/leave"
            leaving = threading.Thread(target=lambda p=path, out=left: out.append(leave(p)))
            leaving.start()
            time.sleep(delay)  # the race itself: a socket opened 0-10 ms into the leave
            stale = ann.connect(table_id)
            sockets.append(stale)
            leaving.join()
            assert left == [200]
            assert bob.post(f"/api/tables/{table_id}/join").json()["seat"] == 0
            assert dora.post(f"/api/tables/{table_id}/join").json()["seat"] == 2
            watched = stale.wait_for(
                lambda m: m.get("type") == "state" and m["status"] == "playing"
            )
            assert watched["seat"] is None and watched["players"][0]["name"] == "bob-race"
            number = watched["state_number"]
            stale.send({"type": "action", "state_number": number, "action": "draw"})
            refused = stale.wait_for(lambda m: m.get("type") == "error")
            assert refused["code"] == "not_seated"
        seat_views_are_theirs(sockets)
        assert all(m["seat"] in (None, 0) for s in sockets for m in s.states())
    finally:
        for sock in sockets:
            sock.close()
        for player in (ann, bob, carl, dora):
            player.close()


def flush(sock: Socket) -> None:
    """Wait until the socket has every message the table sent it so far (unless it is
    closed): a chat line goes through the table in order, and its echo (or its refusal,
    past the chat's limit) comes back after all the table sent before it."""
    if sock.closed.is_set():
        return
    marker = secrets.token_hex(8)
    cursor = len(sock.received)
    sock.send({"type": "chat", "text": "flush", "client_id": marker})

    def answer(message: dict[str, Any]) -> bool:
        echo = message.get("type") == "chat" and message.get("client_id") == marker
        return echo or message.get("code") == "chat_rate"

    try:
        sock.next_index(cursor, answer, timeout=30)
    except AssertionError:
        if not sock.closed.is_set():  # (closed meanwhile: it has all it will get)
            raise


class SeatChanges(RuleBasedStateMachine):
    """Players join, leave, connect, disconnect and race a leave against a connect at a
    four-seat table; no socket is ever sent a seat that is not its player's."""

    server: LiveServer
    players: list[Player]
    sockets = Bundle("sockets")

    def __init__(self) -> None:
        super().__init__()
        self.table_id = new_table(self.players[0], [{"kind": "human"}] * 4)
        self.opened: list[Socket] = []

    def _connect(self, player: Player) -> Socket:
        sock = player.connect(self.table_id)
        self.opened.append(sock)
        return sock

    @rule(target=sockets, who=st.integers(0, 3))
    def connect(self, who: int) -> Socket:
        return self._connect(self.players[who])

    @rule(sock=consumes(sockets))
    def disconnect(self, sock: Socket) -> None:
        sock.close()

    @rule(who=st.integers(0, 3), seat=st.none() | st.integers(0, 3))
    def join(self, who: int, seat: int | None) -> None:
        body = {} if seat is None else {"seat": seat}
        response = self.players[who].post(f"/api/tables/{self.table_id}/join", body)
        assert response.status_code in (200, 409), response.text

    @rule(who=st.integers(0, 3))
    def leave(self, who: int) -> None:
        response = self.players[who].post(f"/api/tables/{self.table_id}/leave")
        assert response.status_code in (200, 400), response.text

    @rule(target=sockets, who=st.integers(0, 3), other=st.integers(0, 3), delay=st.integers(0, 10))
    def race(self, who: int, other: int, delay: int) -> Socket:
        """``who`` leaves while opening a socket ``delay`` ms later; ``other`` joins."""
        player = self.players[who]
        leaving = threading.Thread(target=lambda: player.post(f"/api/tables/{self.table_id}/leave"))
        leaving.start()
        time.sleep(delay / 1000)  # the race itself: the socket opened ``delay`` ms later
        sock = self._connect(player)
        leaving.join()
        self.players[other].post(f"/api/tables/{self.table_id}/join")
        return sock

    @rule(sock=sockets)
    def act(self, sock: Socket) -> None:
        """Whatever a socket sends, it acts for its own player's seat only."""
        states = sock.states()
        if states:
            last = states[-1]
            action = last["legal_actions"][0] if last["legal_actions"] else "draw"
            sock.send({"type": "action", "state_number": last["state_number"], "action": action})
            sock.send({"type": "hint"})

    @invariant()
    def every_view_is_its_players(self) -> None:
        seat_views_are_theirs(self.opened)

    def teardown(self) -> None:
        try:
            for sock in self.opened:
                flush(sock)
            seat_views_are_theirs(self.opened)
        finally:
            for sock in self.opened:
                sock.close()


def test_seat_changes_in_any_order_never_show_a_seat_to_another_player(
    live: LiveServer,
) -> None:
    players = [Player(live, f"p{i}-machine") for i in range(4)]
    SeatChanges.server = live
    SeatChanges.players = players
    try:
        run_state_machine_as_test(
            SeatChanges,
            settings=settings(
                max_examples=12,
                stateful_step_count=15,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            ),
        )
    finally:
        for player in players:
            player.close()


def test_a_whole_game_with_seat_changes_leaks_nothing(live: LiveServer) -> None:
    """Ann sits and leaves, Carl (watching) takes her seat, Ann comes back to another
    one, and the game is played to the end: every seat view any socket received is
    exactly the engine's for a seat its player held, and no watcher view shows a card."""
    ann, bob, carl = (Player(live, f"{name}-audit") for name in ("ann", "bob", "carl"))
    table_id = new_table(ann, [{"kind": "human"}] * 3)
    sockets = [ann.connect(table_id), carl.connect(table_id)]
    try:
        assert bob.post(f"/api/tables/{table_id}/join", {"seat": 1}).json()["seat"] == 1
        sockets.append(bob.connect(table_id))
        sockets[0].wait_for(lambda m: m.get("type") == "state" and m["seat"] == 0)
        assert ann.post(f"/api/tables/{table_id}/leave").status_code == 200
        sockets[0].wait_for(lambda m: m.get("type") == "state" and m["seat"] is None)
        assert carl.post(f"/api/tables/{table_id}/join", {"seat": 0}).json()["seat"] == 0
        sockets[1].wait_for(lambda m: m.get("type") == "state" and m["seat"] == 0)
        assert ann.post(f"/api/tables/{table_id}/join", {"seat": 2}).json()["seat"] == 2
        policies = {sock.player.name: random_policy(i) for i, sock in enumerate(sockets)}
        acted: dict[str, int] = {}

        def play_turns() -> bool:
            """Each player whose socket shows a turn not yet answered plays it; whether
            the game is over."""
            for sock in sockets:
                states = sock.states()
                if not states or not states[-1]["legal_actions"]:
                    continue
                last = states[-1]
                if acted.get(sock.player.name) == last["state_number"]:
                    continue
                acted[sock.player.name] = last["state_number"]
                action = policies[sock.player.name](last)
                sock.send(
                    {"type": "action", "state_number": last["state_number"], "action": action}
                )
            return any(m.get("type") == "game_over" for m in sockets[2].received)

        wait_until(play_turns, 300, what="the game's end", interval=0.002)
        record = ann.http.get(f"/api/tables/{table_id}/record").json()
        for sock in sockets:  # every socket is at the table to the end: all it was sent
            sock.wait_for(lambda m: m.get("type") == "game_over")
        assert seat_views_are_theirs(sockets) > 50
        by_seat: dict[int | None, list[dict[str, Any]]] = {}
        for sock in sockets:
            for message in sock.states():
                by_seat.setdefault(message["seat"], []).append(message)
        assert check_no_leak(record, by_seat) > 50
        assert not [m for s in sockets for m in s.received if m.get("code") == "not_seated"]
    finally:
        for sock in sockets:
            sock.close()
        for player in (ann, bob, carl):
            player.close()
