"""The lobby over HTTP: sessions, accounts, tables, typed errors."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rummykit.cards import BURRACO_POINTS, CARD_COUNT, JOKER, format_card
from rummykit.games.burraco.melds import BURRACO_SIZE
from rummykit.games.burraco.scoring import CLEAN_BURRACO_BONUS, DIRTY_BURRACO_BONUS
from tests.kit.players import guest
from tests.kit.wait import wait_until


def test_healthz_and_catalog(client: TestClient) -> None:
    assert client.get("/healthz").json()["ok"] is True
    catalog = client.get("/api/games/catalog").json()
    games = {g["name"]: g for g in catalog["games"]}
    assert set(games) == {"burraco", "three-thirteen"}
    options = {o["name"]: o for o in games["burraco"]["options"]}
    assert options["mode"]["choices"] == ["quick", "target"]
    assert options["jokers"]["choices"] == [2, 4]
    assert games["three-thirteen"]["player_counts"] == [2, 3, 4]
    assert "ismcts" in games["burraco"]["bot_levels"]
    # the engine's point tables, for the running hand score a client shows
    points = games["burraco"]["points"]
    for card in range(CARD_COUNT):
        name = format_card(card)
        assert points["card_points"][name if card == JOKER else name[0]] == BURRACO_POINTS[card]
    assert (points["clean_burraco_bonus"], points["dirty_burraco_bonus"]) == (
        CLEAN_BURRACO_BONUS,
        DIRTY_BURRACO_BONUS,
    )
    assert points["burraco_size"] == BURRACO_SIZE
    assert games["three-thirteen"]["points"] is None


def test_no_session_is_a_typed_error(client: TestClient) -> None:
    response = client.post("/api/play-now", json={"game": "burraco"})
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "no_session"
    client.cookies.set("rummykit_session", "forged.value.here")
    assert client.get("/api/me").json()["error"]["code"] == "no_session"


def test_guest_session_and_me(client: TestClient) -> None:
    # before a session, who is signed in is nobody, said without an error
    first = client.get("/api/session")
    assert first.status_code == 200 and first.json() is None
    me = guest(client, "  bob  ")
    assert me["name"] == "bob" and me["registered"] is False
    assert client.get("/api/me").json() == me
    assert client.get("/api/session").json() == me
    client.cookies.set("rummykit_session", "forged.value.here")
    assert client.get("/api/session").json() is None


def test_register_login_and_throttle(client: TestClient) -> None:
    guest(client)
    assert client.get("/api/me").json()["registered"] is False
    registered = client.post("/api/register", json={"name": "ann_1", "password": "hunter2hunter2"})
    assert registered.status_code == 200 and registered.json()["registered"]
    assert client.get("/api/me").json() == registered.json()
    client.post("/api/logout")
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    taken = client.post("/api/register", json={"name": "ann_1", "password": "another-password"})
    assert taken.json()["error"]["code"] == "name_taken"
    client.cookies.clear()
    ok = client.post("/api/login", json={"name": "ann_1", "password": "hunter2hunter2"})
    assert ok.status_code == 200 and ok.json()["player_id"] == registered.json()["player_id"]
    codes = [
        client.post("/api/login", json={"name": "ann_1", "password": "wrong-password"}).json()[
            "error"
        ]["code"]
        for _ in range(6)
    ]
    assert codes[:5] == ["bad_login"] * 5 and codes[5] == "login_throttled"
    again = client.post("/api/login", json={"name": "ann_1", "password": "hunter2hunter2"})
    assert again.status_code == 429


def test_invalid_bodies_are_typed(client: TestClient) -> None:
    guest(client)
    cases = [
        {"game": "chess"},
        {"game": "burraco", "rules": {"jokers": 3}},
        {"game": "burraco", "rules": {"colour": "red"}},
        {"game": "burraco", "seats": [{"kind": "human"}, {"kind": "bot", "level": "genius"}]},
        {"game": "burraco", "seats": [{"kind": "human"}] * 3},
        {"game": "burraco", "turn_seconds": 1},
        {"game": "burraco", "extra": 1},
    ]
    for body in cases:
        response = client.post("/api/tables", json=body)
        assert response.status_code in (400, 422), body
        assert response.json()["error"]["code"] in (
            "invalid_request",
            "bad_rules",
            "bad_bot",
        ), body
    assert client.post("/api/tables", content=b"{not json").status_code == 422


def test_private_table_join_watch_leave(client: TestClient) -> None:
    guest(client, "host")
    created = client.post(
        "/api/tables",
        json={"game": "three-thirteen", "seats": [{"kind": "human"}] * 3, "private": True},
    ).json()
    table_id, token = created["table_id"], created["invite_token"]
    assert created["seat"] == 0 and token and len(created["commitment"]) == 64
    assert client.get("/api/tables").json() == []  # private tables are not listed
    client.cookies.clear()
    guest(client, "guest")
    refused = client.post(f"/api/tables/{table_id}/join", json={})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "private_table"
    wrong = client.post(f"/api/tables/{table_id}/join", json={"token": "x" * 30})
    assert wrong.json()["error"]["code"] == "private_table"
    taken = client.post(f"/api/tables/{table_id}/join", json={"token": token, "seat": 0})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    joined = client.post(f"/api/tables/{table_id}/join", json={"token": token})
    assert joined.json()["seat"] == 1
    assert client.post(f"/api/tables/{table_id}/leave").json() == {"ok": True}
    # no longer seated: the private table's summary needs its token
    assert client.get(f"/api/tables/{table_id}").json()["error"]["code"] == "private_table"
    summary = client.get(f"/api/tables/{table_id}", params={"token": token}).json()
    assert summary["seats"][1]["taken"] is False
    watch = client.post(f"/api/tables/{table_id}/watch", json={"token": token}).json()
    assert watch["ws_url"].endswith(f"?token={token}")
    missing = client.post("/api/tables/nosuchtable/join", json={})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_public_table_is_listed_until_full(client: TestClient) -> None:
    guest(client, "host")
    created = client.post("/api/tables", json={"game": "burraco", "seats": [{"kind": "human"}] * 2})
    table_id = created.json()["table_id"]
    listed = client.get("/api/tables").json()
    assert [t["table_id"] for t in listed] == [table_id]
    client.cookies.clear()
    guest(client, "other")
    assert client.post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 1
    assert client.get("/api/tables").json() == []
    client.cookies.clear()
    guest(client, "late")
    full = client.post(f"/api/tables/{table_id}/join", json={})
    assert full.status_code == 409 and full.json()["error"]["code"] == "table_started"


def test_an_open_table_is_listed_while_someone_sits_at_it(client: TestClient) -> None:
    """A waiting table drops from the list once its seated players have been away for
    the grace period, and comes back when one of them returns, joins or leaves; with no
    one seated it is open to anyone."""
    server = client.app.state.server  # type: ignore[attr-defined]
    clock = server.tables.clock
    grace = server.settings.grace_seconds
    guest(client, "host")
    seats = [{"kind": "human"}] * 3
    created = client.post("/api/tables", json={"game": "three-thirteen", "seats": seats}).json()
    table_id = created["table_id"]
    host = server.tables.hosts[table_id]
    host_cookies = client.cookies

    def listed() -> bool:
        return [t["table_id"] for t in client.get("/api/tables").json()] == [table_id]

    assert listed()
    clock.advance(grace + 1)
    assert not listed()  # its creator never came to the table
    with client.websocket_connect(created["ws_url"]) as ws:
        ws.receive_json()
        clock.advance(10 * grace)
        assert listed()  # someone is at the table, however long
    wait_until(lambda: not host.seating.has_connections(), 10, what="the table without sockets")
    assert listed()  # just left
    clock.advance(grace + 1)
    assert not listed()
    client.cookies = {}
    guest(client, "other")
    assert client.post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 1
    assert listed()
    clock.advance(grace + 1)
    assert not listed()
    assert client.post(f"/api/tables/{table_id}/leave").json() == {"ok": True}
    assert listed()
    clock.advance(grace + 1)
    assert not listed()
    summary = client.get(f"/api/tables/{table_id}").json()  # still there for its link
    assert summary["status"] == "waiting" and summary["seats"][0]["name"] == "host"
    client.cookies = host_cookies  # the creator leaves too: no one is seated, open to all
    assert client.post(f"/api/tables/{table_id}/leave").json() == {"ok": True}
    clock.advance(10 * grace)
    assert listed()


def test_protocol_schema_is_served(client: TestClient) -> None:
    schema = client.get("/api/protocol/schema").json()
    assert schema["protocol_version"] == 2
    text = str(schema)
    for kind in ("action", "chat", "hint", "ping", "state", "error", "game_over", "pong"):
        assert f"'{kind}'" in text


def test_a_live_table_is_summed_up_as_stored(client: TestClient) -> None:
    """The summary of a table in memory is the one its stored rows give, at each change."""
    from rummykit.server.api.lobby import _summary

    server = client.app.state.server  # type: ignore[attr-defined]

    def stored_summary(table_id: str) -> dict[str, Any]:
        found = client.portal.call(server.storage.table_with_seats, table_id)  # type: ignore[union-attr]
        assert found is not None
        return _summary(*found).model_dump(mode="json")

    def check(table_id: str) -> dict[str, Any]:
        assert table_id in server.tables.hosts
        live = client.get(f"/api/tables/{table_id}").json()
        assert live == stored_summary(table_id)
        return live  # type: ignore[no-any-return]

    guest(client, "host")
    seats = [{"kind": "human"}] * 3 + [{"kind": "bot", "level": "greedy"}]
    created = client.post("/api/tables", json={"game": "three-thirteen", "seats": seats})
    table_id = created.json()["table_id"]
    assert [s["taken"] for s in check(table_id)["seats"]] == [True, False, False, True]
    client.cookies.clear()
    guest(client, "other")
    client.post(f"/api/tables/{table_id}/join", json={})
    assert check(table_id)["seats"][1]["name"] == "other"
    client.post(f"/api/tables/{table_id}/leave")
    assert check(table_id)["seats"][1]["name"] is None
    client.post(f"/api/tables/{table_id}/join", json={})
    client.cookies.clear()
    guest(client, "third")
    client.post(f"/api/tables/{table_id}/join", json={})
    summary = check(table_id)
    assert summary["status"] == "playing" and summary["seats"][2]["name"] == "third"
    client.post(f"/api/tables/{table_id}/leave")  # a bot plays the seat; it stays taken
    assert check(table_id)["seats"][2]["taken"] is True
