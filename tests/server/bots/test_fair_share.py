"""The bot workers' time is shared between players, not between tables: every decision
of a player's tables, and of a tournament's, is queued on that player's share; and a
bot level stored past today's limits (a table or tournament made under older ones) is
clamped when the server takes it up again after a restart, never searched at its old
budget.  On SQLite and on PostgreSQL."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.bots.limits import think_seconds
from rummykit.server.bots.service import BotRunner
from rummykit.server.settings import Settings
from rummykit.server.storage.models import SeatRow, TournamentRow
from tests.kit.apps import OpenClient, app_client
from tests.kit.factories import store_table, three_thirteen_row
from tests.kit.players import new_player
from tests.kit.runners import RecordingRunner
from tests.kit.tournaments import tournament_body, until_over
from tests.kit.wait import wait_until


@pytest.fixture
def recording(bot_runner: BotRunner) -> RecordingRunner:
    """The shared workers, noting each decision's level and owner; every decision is
    made by the greedy bot (a clamped search would still take its second a move)."""
    return RecordingRunner(bot_runner, level="greedy")


@pytest.fixture
def client(settings: Settings, open_client: OpenClient, recording: RecordingRunner) -> TestClient:
    """A server on either kind of database whose bots decide through ``recording``."""
    return open_client(settings, runner=recording, clock=None)


def specs_and_owners(recording: RecordingRunner) -> list[tuple[str, str | None]]:
    """Each decision's level, as asked, and its owner."""
    return [(asked.spec, asked.owner) for asked in recording.asked]


def _me(client: TestClient, cookie: str) -> str:
    me = client.get("/api/me", headers={"cookie": f"rummykit_session={cookie}"}).json()
    return str(me["player_id"])


BOTS_ONLY = {
    "game": "three-thirteen",
    "rules": {"first_round": 3, "last_round": 3},
    "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "greedy"}],
    "sit": False,
}


def test_a_players_tables_and_tournament_think_on_that_players_share(
    client: TestClient, recording: RecordingRunner
) -> None:
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    ann_id, bob_id = _me(client, ann), _me(client, bob)
    as_ann = {"cookie": f"rummykit_session={ann}"}
    as_bob = {"cookie": f"rummykit_session={bob}"}
    for _ in range(3):
        assert client.post("/api/tables", json=BOTS_ONLY, headers=as_ann).status_code == 200
    assert client.post("/api/tables", json=BOTS_ONLY, headers=as_bob).status_code == 200
    body = tournament_body(name="Ann's cup", capacity=4, rounds=1, bot_level="greedy", enter=False)
    made = client.post("/api/tournaments", json=body, headers=as_ann).json()
    assert client.post(f"/api/tournaments/{made['id']}/start", headers=as_ann).status_code == 200
    until_over(client, made["id"], timeout=60)
    owners = {owner for _, owner in specs_and_owners(recording)}
    # five tables of ann's (three and the tournament's two), one of bob's: two owners
    assert owners == {ann_id, bob_id}


def _store_guest_table(client: TestClient, creator_id: str, level: str) -> str:
    """A bots-only table under way, stored as a server with older limits stored it: a
    game of eleven rounds, still going when the test reads its summary (a finished
    table's summary comes from its stored rows, which keep the level they were made with)."""
    rules = {"first_round": 1, "last_round": 11, "players": 2}
    row = three_thirteen_row(creator_id=creator_id, rules=rules, seed=7)
    seats = [
        SeatRow(table_id=row.id, seat=0, kind="bot", level=level),
        SeatRow(table_id=row.id, seat=1, kind="bot", level=level),
    ]
    return store_table(client, row, seats)


def test_a_restart_does_not_resume_a_search_over_its_budget(
    settings: Settings, recording: RecordingRunner
) -> None:
    with app_client(settings, runner=recording) as first:
        guest = new_player(first, "old-guest")
        guest_id = _me(first, guest)
        # the server stops before the table is hosted: stored, never played
        table_id = _store_guest_table(first, guest_id, "ismcts:iterations=100000")
    assert recording.asked == []
    with app_client(settings, runner=recording) as second:
        wait_until(lambda: len(recording.asked) >= 2, 60, what="the restored table's decisions")
        # the table shows the level its bots play at now
        seats = second.get(f"/api/tables/{table_id}").json()["seats"]
        assert {seat["level"] for seat in seats} == {"ismcts:iterations=500:seconds=1"}
    specs = {spec for spec, _ in specs_and_owners(recording)}
    assert specs == {"ismcts:iterations=500:seconds=1"}  # a guest's limits now


def test_a_stored_tournament_seats_its_bots_within_a_tournaments_limits(
    client: TestClient, recording: RecordingRunner
) -> None:
    """A tournament stored with a level past today's limits (as an older server let a
    guest make it) starts with its bots clamped to a second a move."""
    ann = new_player(client, "ann")
    server: Any = client.app.state.server  # type: ignore[attr-defined]
    row = TournamentRow(
        id=secrets.token_hex(8),
        name="Old cup",
        game="three-thirteen",
        rules={"first_round": 3, "last_round": 3, "players": 2},
        format="swiss",
        rounds=1,
        table_size=2,
        capacity=2,
        bot_level="ismcts:iterations=100000",
        turn_seconds=None,
        time_bank_seconds=None,
        starts_at=None,
        status="registering",
        round=-1,
        creator_id=_me(client, ann),
        created_at=1.0,
        finished_at=None,
    )

    async def store() -> None:
        async with server.storage.writing() as session:
            session.add(row)

    client.portal.call(store)  # type: ignore[union-attr]
    as_ann = {"cookie": f"rummykit_session={ann}"}
    assert client.post(f"/api/tournaments/{row.id}/start", headers=as_ann).status_code == 200
    until_over(client, row.id, timeout=60)
    specs = {spec for spec, _ in specs_and_owners(recording)}
    assert specs and all(think_seconds(spec) <= 1.0 for spec in specs), specs
