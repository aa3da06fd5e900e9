"""Accounts and sessions under concurrency, on SQLite and on PostgreSQL.

Requests run in-process through ``httpx.AsyncClient`` over ``ASGITransport`` (one client
per client address), fired together with ``asyncio.gather``.  Password hashing is
replaced by :class:`FakeHashes`, which counts the hashes and checks, can hold them at a
gate, and records how many ran at once (real Argon2 is exercised in test_lobby.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError
from starlette.websockets import WebSocketDisconnect

from rummykit.server.accounts.auth import COOKIE_NAME, Sessions
from rummykit.server.accounts.throttles import AccountLimits, SlidingWindow, Throttled
from rummykit.server.api.context import ServerContext
from rummykit.server.bots.service import BotRunner
from rummykit.server.settings import Settings
from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.migrate import alembic_config
from tests.kit.apps import app_client, client_at, error_code, serving
from tests.kit.databases import make_settings
from tests.kit.passwords import FakeHashes
from tests.kit.players import credentials
from tests.kit.wait import wait_until_async

# -- logins -----------------------------------------------------------------------------


def test_concurrent_wrong_logins_for_one_name_check_at_most_the_limit(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app:
            async with client_at(app, "10.1.0.1") as owner:
                assert (await owner.post("/api/register", json=credentials("ann_1"))).is_success
            hashes.checks = 0
            # every request from its own address: only the per-name limit can hold them
            clients = [client_at(app, f"10.2.0.{i}") for i in range(40)]
            answers = await asyncio.gather(
                *(
                    c.post("/api/login", json=credentials("ANN_1", "wrong-password"))
                    for c in clients
                )
            )
            for c in clients:
                await c.aclose()
            codes = sorted(error_code(a) for a in answers)
            assert hashes.checks <= 5
            assert codes.count("bad_login") == hashes.checks
            assert codes.count("login_throttled") == 40 - hashes.checks >= 35
            throttled = next(a for a in answers if a.status_code == 429)
            retry_after = throttled.json()["error"]["params"]["retry_after"]
            assert isinstance(retry_after, int) and 0 < retry_after <= 60

    asyncio.run(run())


def test_concurrent_logins_from_one_address_check_at_most_the_limit(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app, client_at(app, "10.3.0.1") as client:
            answers = await asyncio.gather(
                *(client.post("/api/login", json=credentials(f"who_{i}")) for i in range(30))
            )
            codes = [error_code(a) for a in answers]
            assert hashes.checks == codes.count("bad_login") <= 5
            assert codes.count("login_throttled") >= 25

    asyncio.run(run())


def test_a_right_password_stays_refused_until_the_window_passes(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app:
            now = [1000.0]
            server: ServerContext = app.state.server
            server.limits = AccountLimits.from_settings(settings, clock=lambda: now[0])
            async with client_at(app, "10.4.0.1") as client:
                assert (await client.post("/api/register", json=credentials("bea"))).is_success
                ok = await client.post("/api/login", json=credentials("bea"))
                assert ok.is_success  # a success gives its attempt back
                for _ in range(5):
                    wrong = await client.post("/api/login", json=credentials("bea", "nope-nope"))
                    assert error_code(wrong) == "bad_login"
                checks = hashes.checks
                now[0] += 59.0
                refused = await client.post("/api/login", json=credentials("Bea"))
                assert refused.status_code == 429 and error_code(refused) == "login_throttled"
                assert refused.json()["error"]["params"]["retry_after"] == 1
                assert hashes.checks == checks  # refused without looking at the password
                now[0] += 1.0
                back = await client.post("/api/login", json=credentials("Bea"))
                assert back.is_success and back.json()["name"] == "bea"

    asyncio.run(run())


# -- registrations and guest sessions per address -------------------------------------------


def test_registrations_per_address_hold_under_concurrency(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app:
            async with client_at(app, "10.5.0.1") as client:
                answers = await asyncio.gather(
                    *(client.post("/api/register", json=credentials(f"reg_{i}")) for i in range(20))
                )
            codes = [a.status_code for a in answers]
            assert codes.count(200) == 5 and codes.count(429) == 15
            refused = next(a for a in answers if a.status_code == 429)
            assert error_code(refused) == "registration_throttled"
            assert refused.json()["error"]["params"]["retry_after"] > 3500
            assert hashes.hashes == 5
            async with client_at(app, "10.5.0.2") as other:
                assert (await other.post("/api/register", json=credentials("reg_x"))).is_success

    asyncio.run(run())


def test_guest_sessions_per_address_hold_under_concurrency(
    settings: Settings, bot_runner: BotRunner
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app:
            async with client_at(app, "10.6.0.1") as client:
                answers = await asyncio.gather(
                    *(client.post("/api/session", json={"nickname": f"g{i}"}) for i in range(45))
                )
            codes = [a.status_code for a in answers]
            assert codes.count(200) == 30 and codes.count(429) == 15
            refused = next(a for a in answers if a.status_code == 429)
            assert error_code(refused) == "guest_throttled"
            assert refused.json()["error"]["params"]["retry_after"] > 3500
            async with client_at(app, "10.6.0.2") as other:
                assert (await other.post("/api/session", json={"nickname": "g"})).is_success

    asyncio.run(run())


# -- the event loop goes on while passwords are hashed ----------------------------------------


def test_healthz_answers_while_a_flood_of_logins_and_registrations_is_hashed(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    settings = settings.model_copy(update={"password_hashes_at_once": 2})

    async def run() -> None:
        async with serving(settings, bot_runner) as app:
            hashes.gate.clear()
            clients = [client_at(app, f"10.7.0.{i}") for i in range(10)]
            logins = [
                clients[i % 8].post("/api/login", json=credentials(f"flood_{i % 8}"))
                for i in range(40)
            ]
            registrations = [
                clients[8 + i % 2].post("/api/register", json=credentials(f"new_{i}"))
                for i in range(10)
            ]
            flood = asyncio.gather(*logins, *registrations)
            await wait_until_async(
                lambda: hashes.running >= settings.password_hashes_at_once,
                10,
                what="hashes running side by side",
            )
            async with client_at(app, "10.7.1.1") as watcher:
                health = await asyncio.wait_for(watcher.get("/healthz"), 10)
            assert health.status_code == 200 and health.json()["ok"]
            assert hashes.finished == 0  # answered while the hashes were still running
            hashes.gate.set()
            answers = await asyncio.wait_for(flood, 60)
            for c in clients:
                await c.aclose()
            assert hashes.most_running == settings.password_hashes_at_once
            assert [a.status_code for a in answers[40:]] == [200] * 10
            assert {a.status_code for a in answers[:40]} <= {401, 429}

    asyncio.run(run())


# -- logout ------------------------------------------------------------------------------------


def _refused_socket(client: TestClient, path: str, cookie: str) -> str:
    headers = {"cookie": f"{COOKIE_NAME}={cookie}"}
    with client.websocket_connect(path, headers=headers) as ws:
        message = ws.receive_json()
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
        return str(message["code"])


def test_logout_revokes_the_cookie_on_every_route_and_the_socket(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    with app_client(settings, runner=bot_runner) as client:
        client.post("/api/register", json=credentials("cleo"))
        laptop = client.cookies[COOKIE_NAME]
        table = client.post("/api/tables", json={"game": "burraco", "sit": True}).json()
        path = table["ws_url"]
        client.cookies.clear()
        phone = client.post("/api/login", json=credentials("cleo")).json()
        assert phone["name"] == "cleo"
        assert client.post("/api/logout").json() == {"ok": True}
        assert COOKIE_NAME not in client.cookies
        client.cookies.clear()
        for cookie in (laptop,):
            client.cookies.set(COOKIE_NAME, cookie)
            me = client.get("/api/me")
            assert me.status_code == 401 and error_code(me) == "no_session"
            assert client.get("/api/history").status_code == 401
            client.cookies.clear()
            assert _refused_socket(client, path, cookie) == "no_session"
        fresh = client.post("/api/login", json=credentials("cleo"))
        assert fresh.is_success and client.get("/api/me").is_success
        with client.websocket_connect(path) as ws:
            assert ws.receive_json()["type"] != "error"
    # a restarted server still refuses the revoked cookie, on the socket too
    with app_client(settings, runner=bot_runner) as client:
        client.cookies.set(COOKIE_NAME, laptop)
        assert client.get("/api/me").status_code == 401
        client.cookies.clear()
        assert _refused_socket(client, path, laptop) == "no_session"


def test_logout_closes_the_players_open_sockets(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    with app_client(settings, runner=bot_runner) as client:
        client.post("/api/register", json=credentials("otto"))
        table = client.post("/api/tables", json={"game": "burraco", "sit": True}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            assert ws.receive_json()["seat"] == 0
            assert client.post("/api/logout").json() == {"ok": True}
            with pytest.raises(WebSocketDisconnect):
                ws.send_json({"type": "ping"})
                while True:  # anything but the close; an answer to the ping fails
                    assert ws.receive_json()["type"] != "pong"


def test_a_guest_who_logs_out_cannot_come_back(settings: Settings, bot_runner: BotRunner) -> None:
    with app_client(settings, runner=bot_runner) as client:
        client.post("/api/session", json={"nickname": "dora"})
        cookie = client.cookies[COOKIE_NAME]
        assert client.get("/api/me").is_success
        client.post("/api/logout")
        client.cookies.set(COOKIE_NAME, cookie)
        assert client.get("/api/me").status_code == 401
        client.cookies.clear()
        assert client.post("/api/logout").json() == {"ok": True}  # no session: nothing to end


def test_a_guest_start_up_that_keeps_the_session_never_replaces_an_account(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    """A page's own guest start-up (``keep_session``) answers the session its request
    carries, an account's or a guest's, and sets no cookie; without one (or with a
    revoked one) it starts a guest as usual, and without ``keep_session`` a nickname
    replaces whatever was there."""
    with app_client(settings, runner=bot_runner) as client:
        assert client.post("/api/register", json=credentials("keeper")).is_success
        account = client.cookies[COOKIE_NAME]
        kept = client.post("/api/session", json={"nickname": "Guest 1234", "keep_session": True})
        assert kept.is_success and kept.json()["name"] == "keeper" and kept.json()["registered"]
        assert COOKIE_NAME not in kept.cookies and client.cookies[COOKIE_NAME] == account
        assert client.get("/api/me").json()["name"] == "keeper"

        client.cookies.clear()
        started = client.post("/api/session", json={"nickname": "Guest 1", "keep_session": True})
        assert started.json()["name"] == "Guest 1" and not started.json()["registered"]
        guest = client.cookies[COOKIE_NAME]
        again = client.post("/api/session", json={"nickname": "Guest 2", "keep_session": True})
        assert again.json()["name"] == "Guest 1" and client.cookies[COOKIE_NAME] == guest

        client.cookies.clear()
        client.cookies.set(COOKIE_NAME, account)
        replaced = client.post("/api/session", json={"nickname": "Guest 3"})
        assert replaced.json()["name"] == "Guest 3"
        assert replaced.cookies[COOKIE_NAME] not in ("", account)

        client.cookies.clear()
        client.cookies.set(COOKIE_NAME, account)
        client.post("/api/logout")  # every cookie of the account ends
        client.cookies.clear()
        client.cookies.set(COOKIE_NAME, account)
        fresh = client.post("/api/session", json={"nickname": "Guest 4", "keep_session": True})
        assert fresh.json()["name"] == "Guest 4"
        assert fresh.cookies[COOKIE_NAME] not in ("", account)


# -- names ---------------------------------------------------------------------------------------


def test_login_names_are_unique_whatever_their_case(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app:
            async with client_at(app, "10.8.0.1") as first, client_at(app, "10.8.0.2") as second:
                assert (await first.post("/api/register", json=credentials("alice"))).is_success
                again = await second.post("/api/register", json=credentials("Alice"))
                assert again.status_code == 409 and error_code(again) == "name_taken"
                for spelling in ("ALICE", "alice", "aLiCe"):
                    login = await second.post("/api/login", json=credentials(spelling))
                    assert login.is_success and login.json()["name"] == "alice"
            # two at once, in different cases: one wins
            racers = [client_at(app, f"10.8.1.{i}") for i in range(6)]
            answers = await asyncio.gather(
                *(
                    c.post("/api/register", json=credentials(name))
                    for c, name in zip(
                        racers, ["bob", "Bob", "BOB", "boB", "bOb", "BoB"], strict=True
                    )
                )
            )
            for c in racers:
                await c.aclose()
            assert sorted(a.status_code for a in answers) == [200] + [409] * 5

    asyncio.run(run())


def test_guests_and_registered_names(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app:
            async with client_at(app, "10.9.0.1") as owner, client_at(app, "10.9.0.2") as guest:
                assert (await owner.post("/api/register", json=credentials("Eve_9"))).is_success
                taken = await guest.post("/api/session", json={"nickname": "  eve_9 "})
                assert taken.status_code == 409 and error_code(taken) == "name_reserved"
                assert taken.json()["error"]["params"] == {"name": "eve_9"}
                # a name a guest goes by is free to that guest only
                assert (await guest.post("/api/session", json={"nickname": "Finn"})).is_success
                async with client_at(app, "10.9.0.3") as stranger:
                    other = await stranger.post("/api/register", json=credentials("finn"))
                    assert other.status_code == 409 and error_code(other) == "name_taken"
                mine = await guest.post("/api/register", json=credentials("finn"))
                assert mine.is_success and mine.json()["name"] == "finn"
                assert (await guest.get("/api/me")).json()["registered"] is True
            # a guest and a registration of one name at once: not both
            for round_number in range(3):
                name = f"gina{round_number}"
                async with client_at(app, "10.9.1.1") as g, client_at(app, "10.9.1.2") as r:
                    answers = await asyncio.gather(
                        g.post("/api/session", json={"nickname": name.upper()}),
                        r.post("/api/register", json=credentials(name)),
                    )
                assert sorted(a.status_code for a in answers) == [200, 409]

    asyncio.run(run())


@pytest.mark.parametrize(
    "nickname",
    [
        "nul\x00here",
        "<b>bold</b>",
        "a&b",
        'say "hi"',
        "it's",
        "back`tick",
        "tab\there",
        "line\nbreak",
        "zero\u200bwidth",
        "bidi\u202eevil",
        "private\ue000use",
        "sep\u2028line",
    ],
)
def test_nicknames_with_markup_or_control_characters_are_refused(
    settings: Settings, bot_runner: BotRunner, nickname: str
) -> None:
    with app_client(settings, runner=bot_runner) as client:
        answer = client.post("/api/session", json={"nickname": nickname})
        assert answer.status_code == 422
        error = answer.json()["error"]
        assert error["code"] == "bad_nickname" and error["params"] == {"field": "nickname"}
        login = client.post("/api/register", json=credentials(f"ab{nickname}"))
        assert login.status_code == 422
        assert login.json()["error"]["code"] == "bad_login_name"
        assert login.json()["error"]["params"] == {"rule": "characters", "field": "name"}
        assert client.post("/api/login", json=credentials(nickname)).status_code == 422


def test_nicknames_are_trimmed_and_kept_short(settings: Settings, bot_runner: BotRunner) -> None:
    with app_client(settings, runner=bot_runner) as client:
        me = client.post("/api/session", json={"nickname": "  Zoé \n"}).json()
        assert me["name"] == "Zoé"
        wide = client.post("/api/session", json={"nickname": "\uff2aoe"}).json()
        assert wide["name"] == "Joe"  # a full-width letter is the plain one
        for bad in ("", "   ", "x" * 33):
            answer = client.post("/api/session", json={"nickname": bad})
            assert answer.status_code == 422 and error_code(answer) == "invalid_request"


# -- the migration ---------------------------------------------------------------------------


def test_the_migration_renames_login_names_equal_but_for_case(
    empty_database: dict[str, Any],
) -> None:
    settings = make_settings(**empty_database)

    def upgrade_to(revision: str) -> Callable[[Connection], None]:
        def upgrade(connection: Connection) -> None:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

        return upgrade

    players = [
        ("p1", "Alice-2", 0.5),
        ("p2", "alice", 1.0),
        ("p3", "Alice", 2.0),
        ("p4", "ALICE", 3.0),
        ("p5", "bob", 4.0),
    ]

    async def run() -> None:
        engine = make_engine(settings.database_url, schema=settings.database_schema)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(upgrade_to("0001"))
                for player_id, name, at in players:
                    await connection.execute(
                        text(
                            "INSERT INTO players (id, name, login_name, created_at)"
                            " VALUES (:id, :name, :name, :at)"
                        ),
                        {"id": player_id, "name": name, "at": at},
                    )
                await connection.execute(
                    text("INSERT INTO players (id, name, created_at) VALUES ('g', 'alice', 5)")
                )
            async with engine.begin() as connection:
                await connection.run_sync(upgrade_to("head"))
            async with engine.connect() as connection:
                rows = await connection.execute(
                    text("SELECT id, name, login_name, session_epoch FROM players ORDER BY id")
                )
                found = {row[0]: (row[1], row[2], row[3]) for row in rows}
            assert found == {
                "p1": ("Alice-2", "Alice-2", 0),
                "p2": ("alice", "alice", 0),
                "p3": ("Alice-3", "Alice-3", 0),
                "p4": ("ALICE-4", "ALICE-4", 0),
                "p5": ("bob", "bob", 0),
                "g": ("alice", None, 0),
            }
            with pytest.raises(IntegrityError):
                async with engine.begin() as connection:
                    await connection.execute(
                        text(
                            "INSERT INTO players (id, name, login_name, created_at)"
                            " VALUES ('p6', 'BOB', 'BOB', 6)"
                        )
                    )
        finally:
            await engine.dispose()

    asyncio.run(run())


# -- the parts on their own --------------------------------------------------------------------


def test_a_sliding_window_forgets_passed_keys() -> None:
    now = [0.0]
    window = SlidingWindow(2, 10.0, clock=lambda: now[0])
    for i in range(100):
        window.reserve(f"k{i}")
    now[0] = 10.5
    window.reserve("late")
    assert window._attempts.keys() == {"late"}
    first = window.reserve("x", "y")
    window.reserve("x")
    with pytest.raises(Throttled):
        window.reserve("y", "x")  # nothing counted for y
    first.release()
    first.release()
    window.reserve("y")
    window.reserve("y")
    with pytest.raises(Throttled):
        window.reserve("y")


def test_a_cookie_from_before_epochs_is_of_epoch_zero() -> None:
    sessions = Sessions("k")
    old = sessions._serializer.dumps("p1")
    assert sessions.read(old) == "p1"
    sessions.revoke("p1", 1)
    assert sessions.read(old) is None
    assert sessions.read(sessions._serializer.dumps(["p1", True])) is None
    assert sessions.read(sessions._serializer.dumps({"p": 1})) is None
    assert Sessions("other").read(sessions.sign("p1", 1)) is None
