"""Reports and moderation: any player reports another (limited per day, racing
included); only moderators (``rummykit admin grant NAME moderator``) read the queue, a
player's case (reports, sanctions, linked accounts, log) and act: a mark takes an
account out of the leaderboards and tournaments, a mute keeps its chat from everyone
else, a closure ends its sessions and refuses its logins, every action logged with who
and why.  A player is told of the measures against them, and nobody else is.  Every
moderator route refuses everyone else, as a hostile client would try them.  On SQLite
and PostgreSQL."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi.testclient import TestClient

from rummykit.rating.model import pool_of
from rummykit.server.settings import Settings
from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.models import PlayerRatingRow, PlayerRow
from rummykit.server.storage.store import Storage
from tests.kit.apps import OpenClient
from tests.kit.passwords import FakeHashes
from tests.kit.players import PASSWORD, connect, registered
from tests.kit.sockets import next_of_type, next_state, nothing_happens
from tests.kit.tournaments import QUICK_BURRACO, tournament_body


def _as(client: TestClient, cookie: str) -> TestClient:
    client.cookies.clear()
    client.cookies.set("rummykit_session", cookie)
    return client


def _grant(client: TestClient, player_id: str) -> None:
    storage = client.app.state.server.storage  # type: ignore[attr-defined]
    client.portal.call(storage.grant_role, player_id, "moderator", 0.0)  # type: ignore[union-attr]


def _report(client: TestClient, cookie: str, player_id: str, **body: Any) -> Any:
    return _as(client, cookie).post(
        "/api/reports", json={"player_id": player_id, "reason": "cheating", **body}
    )


def test_every_moderator_route_refuses_everyone_else(
    any_client: TestClient, hashes: FakeHashes
) -> None:
    client = any_client
    ann, ann_id = registered(client, "ann")
    paths = client.get("/openapi.json").json()["paths"]
    routes = [
        (method.upper(), path)
        for path, operations in paths.items()
        if path.startswith("/api/mod/")
        for method in operations
    ]
    assert len(routes) >= 5
    for method, path in routes:
        url = path.replace("{player_id}", ann_id).replace("{report_id}", "1")
        body = {"action": "mute", "reason": "because", "minutes": 5}
        answer = _as(client, ann).request(method, url, json=body)
        assert (answer.status_code, answer.json()["error"]["code"]) == (403, "not_moderator"), url
        client.cookies.clear()
        assert client.request(method, url, json=body).status_code == 401


def test_reports_are_limited_per_day_even_when_they_race(
    open_client: OpenClient, settings: Settings, hashes: FakeHashes
) -> None:
    client = open_client(settings, reports_per_day=3)
    ann, ann_id = registered(client, "ann")
    bob, _ = registered(client, "bob")
    assert _report(client, bob, "f" * 24).status_code == 404
    itself = _report(client, ann, ann_id)
    assert (itself.status_code, itself.json()["error"]["code"]) == (422, "report_self")
    bad = _report(client, bob, ann_id, reason="<b>")
    assert bad.status_code == 422
    client.cookies.clear()

    def send(_: int) -> int:
        answer = client.post(
            "/api/reports",
            json={"player_id": ann_id, "reason": "abuse", "text": "rude in chat"},
            headers={"cookie": f"rummykit_session={bob}"},
        )
        return int(answer.status_code)

    with ThreadPoolExecutor(8) as pool:
        codes = sorted(pool.map(send, range(8)))
    assert codes == [200] * 3 + [429] * 5


def test_a_moderator_works_a_case_and_every_measure_holds(
    any_client: TestClient, hashes: FakeHashes
) -> None:
    client = any_client
    mod, mod_id = registered(client, "mod")
    ann, ann_id = registered(client, "ann")
    bob, bob_id = registered(client, "bob")
    _grant(client, mod_id)
    assert _report(client, bob, ann_id, text="plays like the Hard bot").status_code == 200
    # the queue and the case, for the moderator only
    [queued] = _as(client, mod).get("/api/mod/reports").json()
    assert (queued["reported"], queued["reporter"], queued["reason"]) == ("ann", "bob", "cheating")
    case = _as(client, mod).get(f"/api/mod/players/{ann_id}").json()
    assert [r["text"] for r in case["reports"]] == ["plays like the Hard bot"]
    assert case["sanctions"] == [] and case["log"] == []
    # a rated-chat table of ann's and bob's, to hear a mute
    body = {"game": "three-thirteen", "seats": [{"kind": "human"}] * 2, "turn_seconds": None}
    table = _as(client, ann).post("/api/tables", json=body).json()
    _as(client, bob).post(f"/api/tables/{table['table_id']}/join", json={})
    act = f"/api/mod/players/{ann_id}/actions"
    muted = _as(client, mod).post(act, json={"action": "mute", "minutes": 60, "reason": "abuse"})
    assert muted.status_code == 200, muted.text
    assert [s["kind"] for s in muted.json()["sanctions"]] == ["mute"]
    client.cookies.clear()
    with (
        connect(client, table["ws_url"], ann) as ws_ann,
        connect(client, table["ws_url"], bob) as ws_bob,
    ):
        next_state(ws_ann, lambda m: True)
        next_state(ws_bob, lambda m: True)
        ws_ann.send_json({"type": "chat", "text": "you fool"})
        assert next_of_type(ws_ann, "chat")["text"] == "you fool"  # her own echo only
        ws_bob.send_json({"type": "chat", "text": "hello"})
        assert next_of_type(ws_bob, "chat")["text"] == "hello"
        assert next_of_type(ws_ann, "chat")["text"] == "hello"  # the next line ann hears
        nothing_happens(ws_bob)
    standing = _as(client, ann).get("/api/me/standing").json()
    assert standing["muted_until"] is not None and standing["marks"] == []
    assert not standing["moderator"]
    # a mark: out of the leaderboards and tournaments
    marked = _as(client, mod).post(act, json={"action": "mark_engine", "reason": "assessed"})
    assert {s["kind"] for s in marked.json()["sanctions"]} == {"mute", "engine"}
    cup = (
        _as(client, bob)
        .post("/api/tournaments", json=tournament_body(QUICK_BURRACO, name="Cup", capacity=4))
        .json()["id"]
    )
    refused = _as(client, ann).post(f"/api/tournaments/{cup}/register")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "marked_account")
    assert _as(client, ann).get("/api/me/standing").json()["marks"] == ["engine"]
    # nobody else is told: bob sees ann's profile without any of it
    profile = _as(client, bob).get(f"/api/players/{ann_id}").json()
    assert "sanctions" not in profile and "marks" not in profile
    assert _as(client, bob).get("/api/me/standing").json()["marks"] == []
    # lifted, the mute is gone; closed, the account's sessions end and it may not log in
    lifted = _as(client, mod).post(act, json={"action": "lift", "kind": "mute", "reason": "served"})
    assert {s["kind"] for s in lifted.json()["sanctions"]} == {"engine"}
    closed = _as(client, mod).post(act, json={"action": "close", "reason": "second account"})
    assert closed.status_code == 200
    assert _as(client, ann).get("/api/me").status_code == 401
    client.cookies.clear()
    login = client.post("/api/login", json={"name": "ann", "password": PASSWORD})
    assert (login.status_code, login.json()["error"]["code"]) == (403, "account_closed")
    # every action is in the log, with who and why
    log = _as(client, mod).get("/api/mod/log").json()
    assert [(e["action"], e["moderator"], e["player"], e["reason"]) for e in log] == [
        ("close", "mod", "ann", "second account"),
        ("lift_mute", "mod", "ann", "served"),
        ("mark_engine", "mod", "ann", "assessed"),
        ("mute", "mod", "ann", "abuse"),
    ]
    done = _as(client, mod).post(f"/api/mod/reports/{queued['id']}/close", json={"reason": "done"})
    assert done.status_code == 200
    assert _as(client, mod).get("/api/mod/reports").json() == []
    again = _as(client, mod).post(
        f"/api/mod/reports/{queued['id']}/close", json={"reason": "again"}
    )
    assert again.json()["error"]["code"] == "unknown_report"
    assert bob_id != ann_id


def test_a_marked_player_leaves_the_leaderboard(any_client: TestClient, hashes: FakeHashes) -> None:
    client = any_client
    mod, mod_id = registered(client, "mod")
    _grant(client, mod_id)
    storage = client.app.state.server.storage  # type: ignore[attr-defined]
    _ann, ann_id = registered(client, "ann")
    pool = pool_of("three-thirteen", 2, player_counts=(2, 3, 4))

    async def rate() -> None:
        async with storage._sessions.begin() as session:
            session.add(PlayerRatingRow(player_id=ann_id, pool=pool, mu=30.0, sigma=2.0,
                                        games=12, updated_at=0.0))  # fmt: skip

    client.portal.call(rate)  # type: ignore[union-attr]

    def board() -> list[str]:
        boards = client.get("/api/leaderboard", params={"game": "three-thirteen"}).json()
        return [e["player_id"] for b in boards["boards"] for e in b["entries"]]

    assert board() == [ann_id]
    act = f"/api/mod/players/{ann_id}/actions"
    assert _as(client, mod).post(act, json={"action": "mark_booster", "reason": "farm"}).is_success
    assert board() == []
    assert (
        _as(client, mod)
        .post(act, json={"action": "lift", "kind": "booster", "reason": "not so"})
        .is_success
    )
    assert board() == [ann_id]


def test_the_command_line_grants_the_role(tmp_path: Any, hashes: FakeHashes) -> None:
    database = f"sqlite+aiosqlite:///{tmp_path / 'site.sqlite3'}"
    missing = subprocess.run(
        [sys.executable, "-m", "rummykit", "admin", "grant", "nobody", "moderator",
         "--database", database],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert missing.returncode == 1 and "no registered player" in missing.stderr
    wrong = subprocess.run(
        [sys.executable, "-m", "rummykit", "admin", "grant", "nobody", "king",
         "--database", database],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert wrong.returncode == 2 and "no such role" in wrong.stderr

    async def with_storage(work: Any) -> Any:
        storage = Storage(make_engine(database))
        try:
            await storage.migrate()
            return await work(storage)
        finally:
            await storage.close()

    async def register(storage: Storage) -> None:
        player = PlayerRow(id="a" * 24, name="Ann", login_name="Ann", password_hash="x",
                           created_at=0.0, session_epoch=0)  # fmt: skip
        await storage.register(player, "Ann", "x")

    asyncio.run(with_storage(register))
    granted = subprocess.run(
        [sys.executable, "-m", "rummykit", "admin", "grant", "ann", "moderator",
         "--database", database],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert granted.returncode == 0, granted.stderr
    assert "Ann is a moderator now" in granted.stdout

    async def holds(storage: Storage) -> bool:
        return await storage.has_role("a" * 24, "moderator")

    assert asyncio.run(with_storage(holds))
