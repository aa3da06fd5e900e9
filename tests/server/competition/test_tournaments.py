"""Tournaments on the server: bots-only events run to the end with standings that the
stored games confirm, every table of a round on one deal (hidden until the round is
over), people seated by the server, no-shows forfeiting, and registration that holds
under races and refuses what it must."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.pairings.standings import EventRecord, TableResult
from rummykit.server.clock import FakeClock
from tests.kit.apps import OpenClient
from tests.kit.databases import POSTGRES_URL, make_settings
from tests.kit.players import as_player, connect, new_player
from tests.kit.scripted import play_to_end
from tests.kit.sockets import next_of_type, next_state
from tests.kit.tournaments import (
    QUICK_BURRACO,
    SHORT_313,
    played_event,
    tournament_body,
    until_over,
)


def _records(client: TestClient, view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        table["table_id"]: client.get(f"/api/tables/{table['table_id']}/record").json()
        for rnd in view["round_list"]
        for table in rnd["tables"]
        if table["table_id"] is not None
    }


def test_a_swiss_event_of_four_bots_runs_to_the_end(client: TestClient) -> None:
    ann = new_player(client, "ann")
    body = tournament_body(
        QUICK_BURRACO,
        name="Friday <b>Swiss</b>",
        format="swiss",
        rounds=2,
        capacity=4,
        bot_level="greedy",
        enter=False,
    )
    made = as_player(client, ann).post("/api/tournaments", json=body)
    assert made.status_code == 200, made.text
    tournament_id = made.json()["id"]
    assert made.json()["status"] == "registering" and made.json()["creator"]
    listed = client.get("/api/tournaments").json()
    assert [t["id"] for t in listed] == [tournament_id]
    assert listed[0]["name"] == "Friday <b>Swiss</b>"  # stored and sent as text
    assert client.post(f"/api/tournaments/{tournament_id}/start").status_code == 200
    view = until_over(client, tournament_id)
    assert [e["name"] for e in view["entries"]] == [f"Computer {n} (Medium)" for n in range(1, 5)]
    _check_swiss(client, view, game="burraco", rounds=2)


def _check_swiss(client: TestClient, view: dict[str, Any], *, game: str, rounds: int) -> None:
    """The event's tables and standings against the stored games: one deal a round,
    no pairing repeated, and the standings the simulator's for the stored totals."""
    entrants = len(view["entries"])
    assert len(view["round_list"]) == rounds
    records = _records(client, view)
    record = EventRecord(game, entrants)
    met: set[frozenset[int]] = set()
    for rnd in view["round_list"]:
        assert rnd["over"] and len(rnd["tables"]) == entrants // 2
        seeds = {records[t["table_id"]]["seed"] for t in rnd["tables"]}
        assert len(seeds) == 1  # every table of the round played the same deal
        for table in rnd["tables"]:
            stored = records[table["table_id"]]
            assert stored["format"] == "rummykit-record"  # over, and the deal shown
            assert table["totals"] == [float(t) for t in stored["totals"]]
            assert stored["players"] == [view["entries"][e]["name"] for e in table["entries"]]
            pair = frozenset(table["entries"])
            assert pair not in met  # no repeat pairing while one can be avoided
            met.add(pair)
            record.add_table(TableResult(tuple(table["entries"]), tuple(table["totals"])))
    expected = [
        (line.place, line.player, line.points, line.buchholz, line.points_difference)
        for line in record.standings()
    ]
    shown = [
        (s["place"], s["entry"], s["points"], s["buchholz"], s["points_difference"])
        for s in view["standings"]
    ]
    assert shown == expected


@pytest.fixture
def pg_client(postgres_schema: str, open_client: OpenClient) -> TestClient:
    """A server on a fresh schema of the PostgreSQL test database."""
    return open_client(make_settings(POSTGRES_URL, database_schema=postgres_schema))


def test_a_swiss_event_of_sixteen_bots_on_postgresql(pg_client: TestClient) -> None:
    ann = new_player(pg_client, "ann")
    body = tournament_body(
        QUICK_BURRACO, name="Sixteen", rounds=4, capacity=16, bot_level="greedy", enter=False
    )
    view = played_event(pg_client, ann, body, timeout=300)
    _check_swiss(pg_client, view, game="burraco", rounds=4)


def test_an_elimination_event_of_three_player_tables(client: TestClient) -> None:
    ann = new_player(client, "ann")
    body = tournament_body(
        SHORT_313,
        name="Knockout",
        format="knockout",
        table_size=3,
        capacity=5,
        bot_level="random",
        enter=False,
    )
    view = played_event(client, ann, body)
    first, final = view["round_list"]
    # a bracket of nine slots for five: two tables and a bye, then a final of three
    assert sorted(len(t["entries"]) for t in first["tables"]) == [1, 2, 2]
    assert len(final["tables"]) == 1 and len(final["tables"][0]["entries"]) == 3
    champion = view["standings"][0]
    assert champion["out"] is None and champion["entry"] in final["tables"][0]["entries"]
    assert all(s["out"] is not None for s in view["standings"][1:])


def test_people_are_seated_by_the_server_and_a_no_show_forfeits(
    client: TestClient, clock: FakeClock
) -> None:
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    body = tournament_body(SHORT_313, name="Two people", rounds=1, capacity=2, bot_level=None)
    made = as_player(client, ann).post("/api/tournaments", json=body).json()
    tournament_id = made["id"]
    assert made["registered"] and made["status"] == "registering"
    # the second entrant fills it: the server makes the table and seats both
    joined = as_player(client, bob).post(f"/api/tournaments/{tournament_id}/register").json()
    assert joined["status"] == "running" and joined["your_table"]
    table_id = joined["your_table"]
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["status"] == "playing"
    assert [s["name"] for s in table["seats"]] == ["ann", "bob"]
    assert as_player(client, ann).get(f"/api/tournaments/{tournament_id}").json()["your_table"] == (
        table_id
    )
    # the deal of a round is hidden while the round is played, and its tables are the
    # players' alone: what a player holds tells what is hidden at the round's other tables
    assert as_player(client, ann).get(f"/api/tables/{table_id}/record").json()["format"] == (
        "rummykit-view"
    )
    carol = new_player(client, "carol")
    watching = as_player(client, carol).post(f"/api/tables/{table_id}/watch", json={})
    assert (watching.status_code, watching.json()["error"]["code"]) == (403, "private_table")
    assert client.get(f"/api/tables/{table_id}/record").status_code == 403
    # ann comes and plays; bob never comes: past the grace period he forfeits
    ws_url = f"/ws/tables/{table_id}"
    with connect(client, ws_url, ann) as ws:
        ws.receive_json()
        clock.advance(61)
        play_to_end(ws)
    view = until_over(client, tournament_id)
    (only,) = view["round_list"][0]["tables"]
    bob_entry = next(e["entry"] for e in view["entries"] if e["name"] == "bob")
    assert only["forfeits"] == [bob_entry]
    assert [s["name"] for s in view["standings"]] == ["ann", "bob"]
    assert view["standings"][0]["points"] == 1.0
    # a tournament's table has no rematch: the tournament deals its next round
    again = as_player(client, ann).post(f"/api/tables/{table_id}/rematch")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "tournament_table")
    # the round is over: anyone may read the table's record, its deal shown
    assert as_player(client, carol).get(f"/api/tables/{table_id}/record").json()["format"] == (
        "rummykit-record"
    )


def test_registration_refuses_what_it_must(client: TestClient) -> None:
    ann, bob, carol = (new_player(client, n) for n in ("ann", "bob", "carol"))
    body = tournament_body(QUICK_BURRACO, name="Small", capacity=2, bot_level=None)
    tournament_id = as_player(client, ann).post("/api/tournaments", json=body).json()["id"]
    url = f"/api/tournaments/{tournament_id}"
    assert as_player(client, bob).post(f"{url}/start").json()["error"]["code"] == "not_creator"
    assert (
        as_player(client, carol).post(f"{url}/withdraw").json()["error"]["code"] == "not_registered"
    )
    assert client.post("/api/tournaments/0123456789abcdef/register").status_code == 404
    assert client.post("/api/tournaments/../register").status_code in (404, 422)
    bad = {**body, "table_size": 5}
    assert client.post("/api/tournaments", json=bad).status_code == 422
    odd = {**body, "table_size": 3}
    assert client.post("/api/tournaments", json=odd).json()["error"]["code"] == "bad_rules"
    # only a tournament of pairs (Burraco for four) takes a partner
    alone = as_player(client, carol).post(f"{url}/register", json={"partner": "0123456789abcdef"})
    assert alone.json()["error"]["code"] == "bad_rules"
    for hidden in ("Cup\x00", "Cup\u200b", "Cup\u2028two"):  # NUL, invisible, separator
        refused = client.post("/api/tournaments", json={**body, "name": hidden})
        assert (refused.status_code, refused.json()["error"]["code"]) == (422, "bad_nickname")
    slow = {**body, "bot_level": "ismcts:seconds=9"}
    assert client.post("/api/tournaments", json=slow).json()["error"]["code"] == "bad_bot"
    # withdrawing and entering again; the last place starts it; then it is closed
    assert as_player(client, ann).post(f"{url}/withdraw").json()["registered"] is False
    assert as_player(client, ann).post(f"{url}/register").json()["registered"] is True
    assert as_player(client, bob).post(f"{url}/register").json()["status"] == "running"
    late = as_player(client, carol).post(f"{url}/register")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "tournament_started")
    assert as_player(client, ann).post(f"{url}/withdraw").json()["error"]["code"] == (
        "tournament_started"
    )


def test_a_player_makes_only_a_few_tournaments(client: TestClient) -> None:
    ann = new_player(client, "ann")
    body = tournament_body(QUICK_BURRACO, name="Mine", capacity=4)
    codes = [
        as_player(client, ann).post("/api/tournaments", json=body).status_code for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]


def test_racing_registrations_never_overfill(any_client: TestClient) -> None:
    client = any_client
    ann = new_player(client, "ann")
    players = [new_player(client, f"p{n}") for n in range(12)]
    body = tournament_body(QUICK_BURRACO, name="Race", capacity=6, bot_level=None, enter=False)
    tournament_id = as_player(client, ann).post("/api/tournaments", json=body).json()["id"]
    client.cookies.clear()

    def enter(cookie: str) -> int:
        response = client.post(
            f"/api/tournaments/{tournament_id}/register",
            headers={"cookie": f"rummykit_session={cookie}"},
        )
        return int(response.status_code)

    with ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(enter, players + players))
    view = client.get(f"/api/tournaments/{tournament_id}").json()
    assert len(view["entries"]) == 6
    assert codes.count(200) >= 6 and set(codes) <= {200, 409}
    assert view["status"] == "running"
    assert sorted(len(t["entries"]) for t in view["round_list"][0]["tables"]) == [2, 2, 2]


def test_a_round_stored_before_a_crash_gets_its_tables_once(client: TestClient) -> None:
    """The process dies after a round is stored and before its tables are made: the
    next sweep makes them, and making them twice at once makes each table once."""
    tournaments = client.app.state.server.tournaments  # type: ignore[attr-defined]
    made_tables = tournaments._open_tables

    async def died(_tournament_id: str) -> None:
        return None

    ann = new_player(client, "ann")
    body = tournament_body(SHORT_313, name="Crash", capacity=4, rounds=1, bot_level="greedy")
    body["enter"] = False
    tournament_id = as_player(client, ann).post("/api/tournaments", json=body).json()["id"]
    tournaments._open_tables = died
    try:
        started = client.post(f"/api/tournaments/{tournament_id}/start").json()
    finally:
        del tournaments._open_tables  # the instance's own method again
    table_ids = [t["table_id"] for t in started["round_list"][0]["tables"]]
    assert len(table_ids) == 2
    assert all(client.get(f"/api/tables/{i}").status_code == 404 for i in table_ids)

    async def twice() -> None:
        await asyncio.gather(made_tables(tournament_id), tournaments.sweep())

    client.portal.call(twice)  # type: ignore[union-attr]
    # made now: private to their players while the round is played (403, not 404)
    assert all(client.get(f"/api/tables/{i}").status_code == 403 for i in table_ids)
    view = until_over(client, tournament_id)
    assert [t["table_id"] for t in view["round_list"][0]["tables"]] == table_ids
    assert len(view["standings"]) == 4


def test_a_tournament_game_is_claimed_over_a_player_who_went_away(
    client: TestClient, clock: FakeClock
) -> None:
    """bob plays, then walks away: past the grace period ann may claim the game at once;
    bob forfeits it (placed last), and the event goes on."""
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    body = tournament_body(SHORT_313, name="Walk-out", rounds=1, capacity=2, bot_level=None)
    tournament_id = as_player(client, ann).post("/api/tournaments", json=body).json()["id"]
    table_id = (
        as_player(client, bob)
        .post(f"/api/tournaments/{tournament_id}/register")
        .json()["your_table"]
    )
    ws_url = f"/ws/tables/{table_id}"
    with connect(client, ws_url, ann) as ann_ws:
        with connect(client, ws_url, bob) as bob_ws:
            next_state(bob_ws, lambda m: m["status"] == "playing")
        next_state(ann_ws, lambda m: not m["players"][1]["gone"])
        ann_ws.send_json({"type": "claim"})  # bob is within his grace: nothing to claim
        assert next_of_type(ann_ws, "error")["code"] == "nothing_to_claim"
        clock.advance(61)
        next_state(ann_ws, lambda m: m["players"][1]["gone"])
        ann_ws.send_json({"type": "claim"})
        over = next_of_type(ann_ws, "game_over")
    assert (over["ended_by"], over["winners"]) == ("abandoned", [0])
    view = until_over(client, tournament_id)
    (only,) = view["round_list"][0]["tables"]
    bob_entry = next(e["entry"] for e in view["entries"] if e["name"] == "bob")
    assert only["forfeits"] == [bob_entry]
    assert [s["name"] for s in view["standings"]] == ["ann", "bob"]


def test_a_tournament_game_every_person_left_is_forfeited_by_both(
    client: TestClient, clock: FakeClock
) -> None:
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    body = tournament_body(SHORT_313, name="Empty", rounds=1, capacity=2, bot_level=None)
    tournament_id = as_player(client, ann).post("/api/tournaments", json=body).json()["id"]
    as_player(client, bob).post(f"/api/tournaments/{tournament_id}/register")
    clock.advance(61)  # neither ever comes
    view = until_over(client, tournament_id)
    (only,) = view["round_list"][0]["tables"]
    assert sorted(only["forfeits"]) == sorted(e["entry"] for e in view["entries"])
    table = client.get(f"/api/tables/{only['table_id']}").json()
    assert table["ended_by"] == "aborted"


def test_an_event_starts_when_the_servers_clock_reaches_its_start(
    open_client: OpenClient, clock: FakeClock
) -> None:
    """The sweep keeps the server's clock (an hour here, never reached in wall time): the
    event of bots starts once the fake clock passes its start and a sweep comes."""
    client = open_client(tournament_sweep_seconds=3600.0)
    ann = new_player(client, "ann")
    body = tournament_body(
        capacity=4, bot_level="random", enter=False, starts_at=clock.now() + 1800
    )
    made = as_player(client, ann).post("/api/tournaments", json=body)
    assert made.status_code == 200, made.text
    url = f"/api/tournaments/{made.json()['id']}"
    assert client.get(url).json()["status"] == "registering"
    clock.advance(3600)
    until_over(client, made.json()["id"])
