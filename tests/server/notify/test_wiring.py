"""What queues a notification: a game's end (stored by the table's host), a rematch (to
the players whose seats it keeps, not its maker), a tournament's new round (to its
seated players), a pair's invitation, and a turn-based table's turn and its time running
low (to the player to move); each recorded once, each only for a
player the game is about, and only on the channels the player chose; a turn's notice
the database refused is queued once it is back."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.notify.turns import RETRY_SECONDS
from rummykit.server.settings import Settings
from rummykit.server.storage.notifications import Writes
from tests.kit.apps import app_client
from tests.kit.players import as_player, connect, new_player, registered
from tests.kit.scripted import play_to_end
from tests.kit.sockets import next_state
from tests.kit.tournaments import QUICK_BURRACO, SHORT_313, tournament_body
from tests.kit.wait import wait_until

SHORT = {"first_round": 3, "last_round": 3}


def player_id(client: TestClient, cookie: str) -> str:
    return str(as_player(client, cookie).get("/api/me").json()["player_id"])


def choose(client: TestClient, player: str, channels: dict[str, list[str]]) -> None:
    """Set a player's choices in storage (the channels need not be offered to be
    queued: the sender skips what its host does not offer)."""
    storage = client.app.state.server.storage  # type: ignore[attr-defined]
    client.portal.call(  # type: ignore[union-attr]
        storage.save_notification_choices, player, channels, "en", False
    )


def outbox(client: TestClient, player: str) -> list[tuple[str, str, str | None]]:
    storage = client.app.state.server.storage  # type: ignore[attr-defined]
    rows: Any = client.portal.call(storage.outbox_of, player)  # type: ignore[union-attr]
    return [(r.kind, r.channel, r.table_id) for r in rows]


def params_of(client: TestClient, player: str, kind: str) -> dict[str, Any]:
    storage = client.app.state.server.storage  # type: ignore[attr-defined]
    rows: Any = client.portal.call(storage.outbox_of, player)  # type: ignore[union-attr]
    return dict(next(r.params for r in rows if r.kind == kind))


def test_a_games_end_and_its_rematch_notify_the_players_at_the_table(client: TestClient) -> None:
    ann, bob, eve = (new_player(client, n) for n in ("ann", "bob", "eve"))
    ids = {name: player_id(client, c) for name, c in (("ann", ann), ("bob", bob), ("eve", eve))}
    every = {"game_ended": ["push", "email"], "invitation": ["email"]}
    for each in ids.values():
        choose(client, each, every)
    body = {"game": "three-thirteen", "rules": SHORT, "seats": [{"kind": "human"}] * 2}
    old = as_player(client, ann).post("/api/tables", json={**body, "turn_seconds": None}).json()
    table_id = old["table_id"]
    assert as_player(client, bob).post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 1
    assert client.post(f"/api/tables/{table_id}/leave").status_code == 200  # a stand-in plays
    with connect(client, old["ws_url"], ann) as ws:
        play_to_end(ws)
    ended = [("game_ended", "push", table_id), ("game_ended", "email", table_id)]
    wait_until(lambda: outbox(client, ids["ann"]) == ended, what="ann's end of game")
    assert outbox(client, ids["bob"]) == ended
    assert outbox(client, ids["eve"]) == []  # eve is not at the table
    assert params_of(client, ids["ann"], "game_ended") == {"game": "three-thirteen"}

    made = as_player(client, ann).post(f"/api/tables/{table_id}/rematch").json()
    assert outbox(client, ids["bob"]) == [*ended, ("invitation", "email", made["table_id"])]
    assert params_of(client, ids["bob"], "invitation") == {
        "game": "three-thirteen",
        "source": "rematch",
        "invite_token": made["invite_token"],
    }
    assert outbox(client, ids["ann"]) == ended  # its maker is not invited
    assert outbox(client, ids["eve"]) == []
    as_player(client, bob).post(f"/api/tables/{table_id}/rematch")  # asked again: made once
    assert len(outbox(client, ids["bob"])) == 3


def test_a_tournaments_round_and_a_pairs_invitation_notify_their_players(
    client: TestClient,
) -> None:
    ann, ann_id = registered(client, "ann_notify")
    cyd, cyd_id = registered(client, "cyd_notify")
    eve, eve_id = registered(client, "eve_notify")
    for each in (ann_id, cyd_id, eve_id):
        choose(client, each, {"tournament_round": ["push"], "invitation": ["push"]})
    # a pair's invitation, by name
    body = tournament_body(
        QUICK_BURRACO, name="Pairs", format="swiss", rounds=1, table_size=4, capacity=4
    )
    made = as_player(client, ann).post("/api/tournaments", json=body).json()
    url = f"/api/tournaments/{made['id']}"
    assert (
        as_player(client, ann).post(f"{url}/invite", json={"name": "cyd_notify"}).status_code == 200
    )
    assert (
        as_player(client, ann).post(f"{url}/invite", json={"name": "cyd_notify"}).status_code == 200
    )
    assert outbox(client, cyd_id) == [("invitation", "push", None)]  # once per pair
    assert params_of(client, cyd_id, "invitation") == {
        "source": "pair",
        "tournament_id": made["id"],
        "game": "burraco",
        "name": "ann_notify",
    }
    assert outbox(client, eve_id) == [] and outbox(client, ann_id) == []

    # a tournament of two people: its first round's table notifies both, and nobody else
    duel = tournament_body(SHORT_313, name="Duel", capacity=2)
    event = as_player(client, eve).post("/api/tournaments", json=duel).json()
    entered = as_player(client, cyd).post(f"/api/tournaments/{event['id']}/register", json={})
    assert entered.status_code == 200, entered.text

    def round_rows(player: str) -> list[tuple[str, str, str | None]]:
        return [row for row in outbox(client, player) if row[0] == "tournament_round"]

    [(_, _, table_id)] = wait_until(lambda: round_rows(eve_id), what="eve's round")
    assert round_rows(cyd_id) == [("tournament_round", "push", table_id)]
    assert round_rows(ann_id) == []
    assert params_of(client, eve_id, "tournament_round") == {
        "game": "three-thirteen",
        "tournament_id": event["id"],
    }


def test_a_turn_based_turn_and_its_time_running_low_notify_the_player_to_move(
    client: TestClient, clock: FakeClock
) -> None:
    """Two people at a turn-based table: the first mover is told it is their turn (the
    table's start), the second once the turn passes, and the second again when their
    time runs low; each once, only the player to move."""
    ann, bob, eve = (new_player(client, n) for n in ("ann", "bob", "eve"))
    ids = {name: player_id(client, c) for name, c in (("ann", ann), ("bob", bob), ("eve", eve))}
    for each in ids.values():
        choose(client, each, {"your_turn": ["email"], "time_low": ["push"]})
    body = {"game": "three-thirteen", "rules": SHORT, "seats": [{"kind": "human"}] * 2}
    made = as_player(client, ann).post("/api/tables", json={**body, "days_per_move": 1})
    assert made.status_code == 200, made.text
    table_id = made.json()["table_id"]
    assert as_player(client, bob).post(f"/api/tables/{table_id}/join", json={}).status_code == 200
    by_seat = {0: (ann, ids["ann"]), 1: (bob, ids["bob"])}
    with connect(client, made.json()["ws_url"], ann) as ws:
        state = next_state(ws, lambda m: m["status"] == "playing")
    first = state["turn"]["player"]
    mover, mover_id = by_seat[first]
    other_id = by_seat[1 - first][1]
    told = ("your_turn", "email", table_id)
    wait_until(lambda: outbox(client, mover_id) == [told], what="the first mover told")
    assert outbox(client, other_id) == []
    with connect(client, made.json()["ws_url"], mover) as ws:
        state = next_state(ws, lambda m: m["status"] == "playing")
        while state["turn"]["player"] == first:  # the whole turn: draw, then discard
            legal = state["legal_actions"]
            action = "draw" if "draw" in legal else next(a for a in legal if a.startswith("disc"))
            number = state["state_number"]
            ws.send_json({"type": "action", "state_number": number, "action": action})
            state = next_state(ws, lambda m, n=number: m["state_number"] > n)
    wait_until(lambda: outbox(client, other_id) == [told], what="the next mover told")
    clock.advance(19 * 3600)  # a quarter of the day (6 h) left
    low = ("time_low", "push", table_id)
    wait_until(lambda: outbox(client, other_id) == [told, low], what="time running low")
    assert outbox(client, mover_id) == [told]
    assert outbox(client, ids["eve"]) == []
    assert params_of(client, other_id, "your_turn") == {"game": "three-thirteen"}


def _days_table(client: TestClient, channels: dict[str, list[str]]) -> tuple[str, str, str]:
    """A turn-based table of two registered players who chose ``channels``, started:
    its id, the id of the player to move first and the other's."""
    (ann, ann_id), (bob, bob_id) = registered(client, "ann"), registered(client, "bob")
    for each in (ann_id, bob_id):
        choose(client, each, channels)
    body = {"game": "three-thirteen", "rules": SHORT, "seats": [{"kind": "human"}] * 2}
    made = as_player(client, ann).post("/api/tables", json={**body, "days_per_move": 1})
    table_id = str(made.json()["table_id"])
    assert as_player(client, bob).post(f"/api/tables/{table_id}/join", json={}).is_success
    with connect(client, made.json()["ws_url"], ann) as ws:
        first = next_state(ws, lambda m: m["status"] == "playing")["turn"]["player"]
    return table_id, (ann_id, bob_id)[first], (ann_id, bob_id)[1 - first]


def test_a_turn_whose_notice_was_never_queued_is_told_by_the_tables_next_host(
    settings: Settings, bot_runner: BotRunner
) -> None:
    """A process stores the moves that start a turn-based game and stops before its
    listeners queue the notice; the next process to host the table queues it when it
    restores the table, with the time running low by then, and a third queues nothing
    more."""
    clock = FakeClock()
    with app_client(settings, runner=bot_runner, clock=clock) as client:
        client.app.state.server.tables.turn_listeners.clear()  # type: ignore[attr-defined]
        client.app.state.server.tables.low_time_listeners.clear()  # type: ignore[attr-defined]
        table_id, mover_id, other_id = _days_table(
            client, {"your_turn": ["email"], "time_low": ["push"]}
        )
        clock.advance(19 * 3600)  # a quarter of the day (6 h) left, nobody told
        assert outbox(client, mover_id) == []
    told = [("time_low", "push", table_id), ("your_turn", "email", table_id)]
    with app_client(settings, runner=bot_runner, clock=FakeClock(clock.now())) as client:
        wait_until(lambda: sorted(outbox(client, mover_id)) == told, what="the notices")
        assert outbox(client, other_id) == []
    with app_client(settings, runner=bot_runner, clock=FakeClock(clock.now())):
        pass  # restores the table and tells its turn again; stopping waits for the queueing
    with app_client(settings, runner=bot_runner, clock=FakeClock(clock.now())) as client:
        assert sorted(outbox(client, mover_id)) == told


class Refusing:
    """A database that refuses the next ``refusals`` transactions asked of it."""

    def __init__(self, storage: Writes, refusals: int) -> None:
        self.storage = storage
        self.refusals = refusals
        self.refused = 0

    def writing(self) -> AbstractAsyncContextManager[AsyncSession]:
        if self.refused < self.refusals:
            self.refused += 1
            raise OSError("the database is away")
        return self.storage.writing()


def test_a_turns_notice_the_database_refused_is_queued_when_it_is_back(
    settings: Settings, bot_runner: BotRunner
) -> None:
    """The notice of the table's first turn is refused twice by the database, and queued
    at the second attempt after that, by the fake clock's waits."""
    clock = FakeClock()
    with app_client(settings, runner=bot_runner, clock=clock) as client:
        tables = client.app.state.server.tables  # type: ignore[attr-defined]
        notices = tables.turn_listeners[0].__self__
        database = notices._storage = Refusing(notices._storage, refusals=2)
        table_id, mover_id, _ = _days_table(client, {"your_turn": ["email"]})
        wait_until(lambda: database.refused == 1, what="the first attempt")
        clock.advance(RETRY_SECONDS[0])
        wait_until(lambda: database.refused == 2, what="the second attempt")
        assert outbox(client, mover_id) == []
        clock.advance(RETRY_SECONDS[1])
        told = [("your_turn", "email", table_id)]
        wait_until(lambda: outbox(client, mover_id) == told, what="the notice queued")
