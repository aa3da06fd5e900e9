"""A rematch: the same table again (seats, rules, clock) with a fresh deal, made once,
each player of the old table in their old seat; the old table's other players are
offered it over their sockets; its watchers are not told where it is (an invitation is for
the seats it keeps), and may not sit there with its token."""

from __future__ import annotations

import threading
from typing import Any

import httpx
from fastapi.testclient import TestClient

from rummykit.server.api.catalog import new_table
from rummykit.server.api.rematch import rematch_request
from tests.kit.databases import make_settings
from tests.kit.live import LiveServer, play_out
from tests.kit.live import Player as LivePlayer
from tests.kit.players import as_player, connect, new_player
from tests.kit.scripted import play_to_end
from tests.kit.sockets import next_of_type

SHORT = {"first_round": 3, "last_round": 3}


def test_a_rematch_against_the_computer(client: TestClient) -> None:
    ann, stranger = new_player(client, "ann"), new_player(client, "stranger")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    body = {"game": "three-thirteen", "rules": SHORT, "seats": seats, "turn_seconds": 20}
    old = as_player(client, ann).post("/api/tables", json=body).json()
    rematch = f"/api/tables/{old['table_id']}/rematch"
    assert client.post(rematch).status_code == 409
    with connect(client, old["ws_url"], ann) as ws:
        play_to_end(ws)
    assert as_player(client, stranger).post(rematch).status_code == 403
    first = as_player(client, ann).post(rematch).json()
    assert first["seat"] == 0 and first["invite_token"]
    again = client.post(f"/api/tables/{old['table_id']}/rematch").json()
    assert again == first  # made once
    new = client.get(f"/api/tables/{first['table_id']}").json()
    before = client.get(f"/api/tables/{old['table_id']}").json()
    assert new["table_id"] != old["table_id"] and new["commitment"] != before["commitment"]
    assert new["status"] == "playing"  # the computer's seat is filled: it starts at once
    assert [(s["kind"], s["level"]) for s in new["seats"]] == [("human", None), ("bot", "random")]
    assert (new["game"], new["rules"], new["turn_seconds"]) == (
        before["game"],
        before["rules"],
        before["turn_seconds"],
    )


def test_a_rematch_between_people_is_offered_to_the_other_player(client: TestClient) -> None:
    ann, bob, carol = (new_player(client, n) for n in ("ann", "bob", "carol"))
    body = {
        "game": "three-thirteen",
        "rules": SHORT,
        "seats": [{"kind": "human"}] * 2,
        "turn_seconds": None,
    }
    old = as_player(client, ann).post("/api/tables", json=body).json()
    table_id = old["table_id"]
    assert as_player(client, bob).post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 1
    # bob leaves at once: the computer plays his seat, and ann plays the game out
    assert client.post(f"/api/tables/{table_id}/leave").status_code == 200
    with connect(client, old["ws_url"], ann) as ws:
        play_to_end(ws)
    with (
        connect(client, old["ws_url"], bob) as ws_bob,
        connect(client, old["ws_url"], carol) as ws_carol,
    ):
        next_of_type(ws_bob, "game_over")
        next_of_type(ws_carol, "game_over")
        made = as_player(client, ann).post(f"/api/tables/{table_id}/rematch").json()
        offer = next_of_type(ws_bob, "rematch")
        assert offer["table_id"] == made["table_id"] and offer["by"] == 0
        assert offer["invite_token"] == made["invite_token"]
        # the offer went to every connection at once: had the watcher been sent it, it
        # would come before the answer to a ping sent now
        ws_carol.send_json({"type": "ping"})
        before_pong = []
        while (message := ws_carol.receive_json())["type"] != "pong":
            before_pong.append(message["type"])
        assert "rematch" not in before_pong, before_pong
    with connect(client, old["ws_url"], carol) as ws_carol:  # nor when the watcher comes back
        next_of_type(ws_carol, "game_over")
        ws_carol.send_json({"type": "ping"})
        while (message := ws_carol.receive_json())["type"] != "pong":
            assert message["type"] != "rematch"
    waiting = client.get(f"/api/tables/{made['table_id']}").json()
    assert waiting["status"] == "waiting" and waiting["private"]
    # the rematch's token, had a watcher it, seats nobody in the kept seat
    token = {"token": offer["invite_token"]}
    refused = as_player(client, carol).post(f"/api/tables/{made['table_id']}/join", json=token)
    assert refused.status_code == 409, refused.json()
    joined = as_player(client, bob).post(f"/api/tables/{table_id}/rematch").json()
    assert joined["table_id"] == made["table_id"] and joined["seat"] == 1
    started = client.get(f"/api/tables/{made['table_id']}").json()
    assert started["status"] == "playing"
    assert [s["name"] for s in started["seats"]] == ["ann", "bob"]


def _finished_three_player_table(client: TestClient, cookies: list[str]) -> str:
    """A Three-Thirteen table of three people, played out: the first plays, the
    others sit down and leave at once (the computer plays for them)."""
    body = {
        "game": "three-thirteen",
        "rules": SHORT,
        "seats": [{"kind": "human"}] * 3,
        "turn_seconds": None,
    }
    old = as_player(client, cookies[0]).post("/api/tables", json=body).json()
    table_id = str(old["table_id"])
    for seat, cookie in enumerate(cookies[1:], start=1):
        joined = as_player(client, cookie).post(f"/api/tables/{table_id}/join", json={"seat": seat})
        assert joined.json()["seat"] == seat
    for cookie in cookies[1:]:
        assert as_player(client, cookie).post(f"/api/tables/{table_id}/leave").status_code == 200
    with connect(client, old["ws_url"], cookies[0]) as ws:
        play_to_end(ws)
    return table_id


def test_a_rematch_keeps_each_seat_for_its_player(client: TestClient) -> None:
    ann, bob, cy, dan = (new_player(client, n) for n in ("ann", "bob", "cy", "dan"))
    table_id = _finished_three_player_table(client, [ann, bob, cy])
    made = as_player(client, ann).post(f"/api/tables/{table_id}/rematch").json()
    new_id, token = made["table_id"], made["invite_token"]
    join = f"/api/tables/{new_id}/join"
    # someone with the link but no seat at the old table finds no seat for them
    refused = as_player(client, dan).post(join, json={"token": token})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "table_full"
    # nor does an old player take another's seat by naming it
    taken = as_player(client, bob).post(join, json={"token": token, "seat": 2})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    # through the plain link (no seat named) cy gets cy's seat, although seat 1 is free
    assert as_player(client, cy).post(join, json={"token": token}).json()["seat"] == 2
    assert as_player(client, bob).post(join, json={"token": token}).json()["seat"] == 1
    started = client.get(f"/api/tables/{new_id}").json()
    assert started["status"] == "playing"
    assert [s["name"] for s in started["seats"]] == ["ann", "bob", "cy"]


def test_a_player_coming_back_to_the_finished_table_is_offered_its_rematch(
    client: TestClient,
) -> None:
    ann, bob, cy = (new_player(client, n) for n in ("ann", "bob", "cy"))
    table_id = _finished_three_player_table(client, [ann, bob, cy])
    made = as_player(client, bob).post(f"/api/tables/{table_id}/rematch").json()
    path = f"/ws/tables/{table_id}"
    with connect(client, path, cy) as ws:
        next_of_type(ws, "game_over")
        offer = next_of_type(ws, "rematch")
        assert offer == {
            "type": "rematch",
            "table_id": made["table_id"],
            "invite_token": made["invite_token"],
            "by": 1,
        }


def test_a_rematch_is_stored_once_whoever_stores_it(client: TestClient) -> None:
    """The database's unique index decides between two makers of one rematch (two
    server processes, each asked at the same moment): the second is told it exists."""
    from rummykit.server.table.registry import RematchExists

    ann, bob, cy = (new_player(client, n) for n in ("ann", "bob", "cy"))
    table_id = _finished_three_player_table(client, [ann, bob, cy])
    server: Any = client.app.state.server  # type: ignore[attr-defined]
    stored = client.portal.call(server.storage.table_with_seats, table_id)  # type: ignore[union-attr]
    assert stored is not None

    table = new_table(rematch_request(*stored), creator_registered=False, settings=server.settings)

    async def make_twice() -> tuple[str, bool]:
        first, _ = await server.tables.create(
            table, creator_id="x", creator_name="x", rematch_of=table_id
        )
        try:
            await server.tables.create(table, creator_id="y", creator_name="y", rematch_of=table_id)
        except RematchExists:
            return str(first.table_id), True
        return str(first.table_id), False

    first_id, refused = client.portal.call(make_twice)  # type: ignore[union-attr]
    assert refused
    found = client.portal.call(server.storage.rematch_of, table_id)  # type: ignore[union-attr]
    assert found is not None and found.id == first_id


def test_forty_rematch_requests_at_once_make_one_rematch(sqlite_url: str) -> None:
    """Both players press "play again" twenty times each, all at once, over real
    sockets: every answer names the same rematch, each player in their own seat, and
    the database holds one table made as its rematch."""
    with LiveServer(make_settings(sqlite_url)) as server:
        ann, bob = LivePlayer(server, "ann"), LivePlayer(server, "bob")
        body = {"game": "three-thirteen", "rules": SHORT, "seats": [{"kind": "human"}] * 2}
        table_id = ann.post("/api/tables", {**body, "turn_seconds": None}).json()["table_id"]
        assert bob.post(f"/api/tables/{table_id}/join", {"seat": 1}).json()["seat"] == 1
        assert bob.post(f"/api/tables/{table_id}/leave").status_code == 200
        sock = ann.connect(table_id)
        play_out(sock)
        sock.close()
        start = threading.Barrier(40)
        answers: list[tuple[str, httpx.Response]] = []

        def ask(player: LivePlayer) -> None:
            start.wait()
            answers.append((player.name, player.post(f"/api/tables/{table_id}/rematch")))

        threads = [threading.Thread(target=ask, args=(p,)) for p in (ann, bob) * 20]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(answers) == 40
        assert all(answer.status_code == 200 for _, answer in answers), [
            a.text for _, a in answers if a.status_code != 200
        ]
        made = {answer.json()["table_id"] for _, answer in answers}
        assert len(made) == 1
        seats = {(name, answer.json()["seat"]) for name, answer in answers}
        assert seats == {("ann", 0), ("bob", 1)}
        rematch = ann.http.get(f"/api/tables/{made.pop()}").json()
        assert rematch["status"] == "playing"
        assert [s["name"] for s in rematch["seats"]] == ["ann", "bob"]
        ann.close()
        bob.close()


def test_a_player_a_seat_is_kept_for_finds_the_rematch_and_joins_without_its_link(
    client: TestClient,
) -> None:
    ann, bob, cy, dan = (new_player(client, n) for n in ("ann", "bob", "cy", "dan"))
    table_id = _finished_three_player_table(client, [ann, bob, cy])
    made = as_player(client, ann).post(f"/api/tables/{table_id}/rematch").json()
    new_id = made["table_id"]
    # bob's current games list the rematch, his seat kept for him, before he takes it
    current = as_player(client, bob).get("/api/current").json()
    listed = [t for t in current if t["table_id"] == new_id]
    assert len(listed) == 1, current
    bob_id = client.get("/api/me").json()["player_id"]
    kept = {s["seat"]: s["kept_for"] for s in listed[0]["seats"]}
    assert kept[1] == bob_id and kept[0] is None  # ann has taken hers
    # the private table is his to read and to join without its invitation link
    assert client.get(f"/api/tables/{new_id}").status_code == 200
    assert client.post(f"/api/tables/{new_id}/join", json={}).json()["seat"] == 1
    # nobody else: no seat there, no link
    stranger = as_player(client, dan)
    assert stranger.get(f"/api/tables/{new_id}").status_code == 403
    refused = stranger.post(f"/api/tables/{new_id}/join", json={})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "private_table"
    assert not [t for t in stranger.get("/api/current").json() if t["table_id"] == new_id]
