"""Tournaments played fairly around their edges: an entrant who came is never made a
no-show by a restart, a round's tables follow the database once the round is over, a
round's results stay hidden until every table of it is over, and a tournament's tables
leave their creator's own table limit alone."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.settings import Settings
from rummykit.server.storage.tournaments import tables_of
from tests.kit.apps import app_client
from tests.kit.players import as_player, connect, new_player
from tests.kit.scripted import play_to_end
from tests.kit.sockets import receive_within
from tests.kit.tournaments import SHORT_313, tournament_body, until_over
from tests.kit.wait import wait_until


def _pair_event(client: TestClient, ann: str, bob: str) -> tuple[str, str]:
    """A one-round event of ann and bob (no bots): its id and their table."""
    body = tournament_body(name="Pair", rounds=1, capacity=2, bot_level=None)
    tournament_id = as_player(client, ann).post("/api/tournaments", json=body).json()["id"]
    joined = as_player(client, bob).post(f"/api/tournaments/{tournament_id}/register").json()
    assert joined["status"] == "running"
    return tournament_id, joined["your_table"]


def _seats(client: TestClient, table_id: str) -> list[Any]:
    storage = client.app.state.server.storage  # type: ignore[attr-defined]
    found = client.portal.call(storage.table_with_seats, table_id)  # type: ignore[union-attr]
    assert found is not None
    return list(found[1])


def _substitutes(client: TestClient, table_id: str) -> list[bool]:
    """Which seats of the live table a substitute plays (its grace period is over)."""
    host = client.app.state.server.tables.hosts[table_id]  # type: ignore[attr-defined]
    return [seat.away for seat in host.seating]


def _stored_totals(client: TestClient, tournament_id: str) -> int:
    """How many of the tournament's tables have their result stored."""
    storage = client.app.state.server.storage  # type: ignore[attr-defined]

    async def count() -> int:
        async with storage.reading() as session:
            rows = await tables_of(session, tournament_id)
        return sum(row.totals is not None for row in rows)

    return int(client.portal.call(count))  # type: ignore[union-attr]


def test_a_restart_does_not_make_an_entrant_who_came_a_no_show(
    settings: Settings, bot_runner: BotRunner
) -> None:
    """Ann comes to her table and closes the page; the server restarts; bob comes, and
    past ann's grace period a substitute plays for her: she is gone (bob could claim the
    game), but not a no-show, and nobody forfeits when bob plays the game out."""
    first_clock = FakeClock()
    with app_client(settings, runner=bot_runner, clock=first_clock) as client:
        ann, bob = new_player(client, "ann"), new_player(client, "bob")
        tournament_id, table_id = _pair_event(client, ann, bob)
        with connect(client, f"/ws/tables/{table_id}", ann) as ws:
            assert ws.receive_json()["type"] == "state"
        first_clock.advance(5)  # ann's page is closed; the server stops within her grace
    clock = FakeClock(first_clock.now() + 5)
    with app_client(settings, runner=bot_runner, clock=clock) as client:
        assert client.get("/healthz").json()["tables"] == 1  # restored at the start
        with connect(client, f"/ws/tables/{table_id}", bob) as ws:
            assert ws.receive_json()["type"] == "state"
            clock.advance(61)  # past ann's grace period
            wait_until(
                lambda: _substitutes(client, table_id) == [True, False], 20, what="a substitute"
            )
            assert [seat.left_at for seat in _seats(client, table_id)] == [None, None]
            play_to_end(ws)
        view = until_over(client, tournament_id)
    (only,) = view["round_list"][0]["tables"]
    assert only["forfeits"] == []  # ann came before the restart: never a no-show


def test_a_finished_rounds_table_in_memory_follows_the_database(
    any_client: TestClient, clock: FakeClock
) -> None:
    """While ann is still at her table after the round ended, the table is public and
    its deal shown as the stored record is: to a stranger's summary, watching and
    ``game_over``, and ann is told the seed too."""
    client = any_client
    ann, bob, carol = (new_player(client, n) for n in ("ann", "bob", "carol"))
    tournament_id, table_id = _pair_event(client, ann, bob)
    with connect(client, f"/ws/tables/{table_id}", ann) as ws:
        ws.receive_json()
        clock.advance(61)  # bob never comes
        first = play_to_end(ws)[-1]
        assert first["seed"] is None  # held while the round may still be played elsewhere
        until_over(client, tournament_id)
        record = as_player(client, carol).get(f"/api/tables/{table_id}/record").json()
        assert record["format"] == "rummykit-record"
        told = receive_within(ws)  # the round is over: ann learns the deal
        assert (told["type"], told["seed"]) == ("game_over", record["seed"])
        summary = as_player(client, carol).get(f"/api/tables/{table_id}")
        assert summary.status_code == 200, summary.text
        watching = as_player(client, carol).post(f"/api/tables/{table_id}/watch", json={})
        assert watching.status_code == 200, watching.text
        with connect(client, watching.json()["ws_url"], carol) as stranger:
            message = stranger.receive_json()
            while message["type"] != "game_over":
                message = stranger.receive_json()
            assert message["seed"] == record["seed"]
            assert message["nonce"] == record["nonce"]


def test_a_rounds_results_stay_hidden_until_the_round_is_over(
    any_client: TestClient, clock: FakeClock
) -> None:
    """Two tables play the same deal; one ends while the other plays on: the event's
    page shows neither its totals nor its points, nor standings moved by it."""
    client = any_client
    ann, bob, carol, dave = (new_player(client, n) for n in ("ann", "bob", "carol", "dave"))
    body = tournament_body(name="Four", rounds=1, capacity=4, bot_level=None)
    tournament_id = as_player(client, ann).post("/api/tournaments", json=body).json()["id"]
    for cookie in (bob, carol, dave):
        as_player(client, cookie).post(f"/api/tournaments/{tournament_id}/register")
    url = f"/api/tournaments/{tournament_id}"
    view = as_player(client, ann).get(url).json()
    ann_table = view["your_table"]
    other = next(
        t["table_id"] for t in view["round_list"][0]["tables"] if t["table_id"] != ann_table
    )
    partner = next(
        c
        for c in (bob, carol, dave)
        if as_player(client, c).get(url).json()["your_table"] == ann_table
    )
    with connect(client, f"/ws/tables/{ann_table}", ann) as ws:
        ws.receive_json()
        # ann's partner gives the game up at once: a substitute plays it to the end
        assert as_player(client, partner).post(f"/api/tables/{ann_table}/leave").status_code == 200
        play_to_end(ws)
    wait_until(lambda: _stored_totals(client, tournament_id) == 1, 20, what="ann's result stored")
    assert client.get(f"/api/tables/{other}").status_code == 403  # still private
    for cookie in (ann, carol, ""):
        if not cookie:
            client.cookies.clear()
        else:
            as_player(client, cookie)
        view = client.get(url).json()
        assert view["status"] == "running"
        tables = view["round_list"][0]["tables"]
        assert all(t["totals"] is None and t["points"] is None for t in tables), tables
        assert all(not t["forfeits"] for t in tables), tables
        assert {s["points"] for s in view["standings"]} == {0.0}
        assert {s["place"] for s in view["standings"]} == {1}


def test_a_tournaments_tables_leave_its_creators_table_limit_alone(
    settings: Settings, bot_runner: BotRunner, clock: FakeClock
) -> None:
    """Ann's event of four people runs two tables at once without her: she may still
    make her own two tables, and only a third is refused."""
    limited = settings.model_copy(update={"max_tables_per_player": 2})
    with app_client(limited, runner=bot_runner, clock=clock) as client:
        ann = new_player(client, "ann")
        body = tournament_body(name="People", rounds=1, capacity=4, bot_level=None)
        tournament_id = as_player(client, ann).post(
            "/api/tournaments", json={**body, "enter": False}
        )
        url = f"/api/tournaments/{tournament_id.json()['id']}/register"
        for name in ("bob", "carol", "dave", "erin"):
            assert as_player(client, new_player(client, name)).post(url).status_code == 200
        assert (
            as_player(client, ann).get(url.removesuffix("/register")).json()["status"] == "running"
        )
        assert as_player(client, ann).get("/api/current").json() == []
        own = {**SHORT_313, "seats": [{"kind": "human"}, {"kind": "human"}]}
        made = [as_player(client, ann).post("/api/tables", json=own) for _ in range(2)]
        assert [m.status_code for m in made] == [200, 200], made[-1].text
        refused = as_player(client, ann).post("/api/tables", json=own)
        assert (refused.status_code, refused.json()["error"]["code"]) == (
            429,
            "too_many_tables",
        )


def test_the_sweep_makes_a_table_follow_a_round_ended_elsewhere(
    any_client: TestClient, clock: FakeClock
) -> None:
    """A round that ended in another process: this process's live table still holds
    the deal until its own sweep reads the database."""
    client = any_client
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    tournament_id, table_id = _pair_event(client, ann, bob)
    server = client.app.state.server  # type: ignore[attr-defined]
    with connect(client, f"/ws/tables/{table_id}", ann) as ws:
        ws.receive_json()
        clock.advance(61)
        play_to_end(ws)
        until_over(client, tournament_id)
        assert receive_within(ws)["seed"] is not None
        host = server.tables.hosts[table_id]
        host.row.reveal_held, host.row.private = True, True  # as if told nothing here
        assert (
            as_player(client, new_player(client, "carol"))
            .get(f"/api/tables/{table_id}")
            .status_code
            == 403
        )
        client.portal.call(server.tournaments.sweep)  # type: ignore[union-attr]
        assert (host.row.reveal_held, host.row.private) == (False, False)
        assert receive_within(ws)["seed"] is not None
