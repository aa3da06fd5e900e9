"""The server against a hostile visitor over HTTP: security headers on every answer,
request bodies refused past the limit before they are read, private tables read only
with a seat or the invitation token, and table ids checked before any database."""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import select
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from rummykit.games.record import loads, replay
from rummykit.server.accounts.security import (
    BodyLimit,
    SecurityHeaders,
    client_policy,
    inline_script_hashes,
    is_table_id,
)
from rummykit.server.api import records
from rummykit.server.bots.service import BotRunner
from tests.kit import http_clients
from tests.kit.apps import OpenClient
from tests.kit.databases import make_settings
from tests.kit.live import LiveServer
from tests.kit.players import connect, new_player
from tests.kit.scripted import play_to_end, random_policy
from tests.kit.security import FIXED, directives

SHORT = {"first_round": 3, "last_round": 3}


def assert_secured(headers: httpx.Headers | dict[str, str]) -> dict[str, list[str]]:
    for name, value in FIXED.items():
        assert headers[name] == value, (name, headers)
    policy = directives(headers["content-security-policy"])
    for name, sources in {
        "default-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
    }.items():
        assert policy[name] == sources, (name, policy)
    return policy


def assert_client_policy(headers: httpx.Headers) -> None:
    policy = assert_secured(headers)
    # no inline script and no inline style attribute anywhere in the client
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["connect-src"][0] == "'self'"
    assert all(re.fullmatch(r"wss?://testserver", s) for s in policy["connect-src"][1:])


def error_code(response: httpx.Response) -> str:
    body = response.json()
    assert set(body["error"]) == {"code", "message", "params"}, body
    code: str = body["error"]["code"]
    return code


# -- headers -------------------------------------------------------------------------------


def test_every_answer_has_the_security_headers(reading_client: TestClient) -> None:
    client = reading_client  # reads only: one app for the module
    answers = {
        "api": client.get("/api/games/catalog"),
        "page": client.get("/"),
        "module": client.get("/js/app.js"),
        "rules page": client.get("/rules/burraco.en.html"),
        "missing file": client.get("/no/such/file.js"),
        "missing route": client.get("/api/no-such-route"),
        "no session": client.get("/api/me"),
        "invalid body": client.post("/api/session", json={"nickname": 5}),
        "bad table id": client.get("/api/tables/%00"),
        "too large": client.post("/api/session", content=b"x" * 70_000),
    }
    for what, response in answers.items():
        assert "content-security-policy" in response.headers, what
        assert_client_policy(response.headers)
    assert answers["page"].status_code == 200 and "<script" in answers["page"].text
    assert [answers[k].status_code for k in ("missing file", "missing route", "bad table id")] == [
        404
    ] * 3
    assert answers["too large"].status_code == 413


def test_the_client_page_has_no_inline_script_or_style(reading_client: TestClient) -> None:
    client = reading_client  # reads only: one app for the module
    page = client.get("/").text
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.DOTALL)
    assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)
    assert " style=" not in page and "<style" not in page
    assert not re.search(r"\son[a-z]+=", page)


def test_the_documentation_pages_allow_only_their_own_inline_script(
    reading_client: TestClient,
) -> None:
    client = reading_client  # reads only: one app for the module
    docs = client.get("/docs")
    assert docs.status_code == 200
    policy = assert_secured(docs.headers)
    hashes = inline_script_hashes(docs.content)
    assert len(hashes) == 1  # Swagger UI's start-up script
    assert f"'sha256-{hashes[0]}'" in policy["script-src"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert not any("://" in source for source in policy["script-src"])  # the server's own
    redoc = client.get("/redoc")
    assert redoc.status_code == 200
    assert not any(s.startswith("'sha256-") for s in assert_secured(redoc.headers)["script-src"])
    # the API's schema itself is an ordinary answer
    assert_client_policy(client.get("/openapi.json").headers)


def test_a_failure_before_the_answer_is_a_typed_500_with_the_headers() -> None:
    async def failing(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("boom")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    scope: Scope = {"type": "http", "path": "/x", "headers": [(b"host", b"example.org")]}
    with pytest.raises(RuntimeError):
        asyncio.run(SecurityHeaders(failing)(scope, receive, send))
    assert sent[0]["status"] == 500
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    assert_secured(headers)
    assert json.loads(sent[1]["body"])["error"]["code"] == "internal_error"


def test_a_hostile_host_header_never_reaches_the_policy() -> None:
    assert "ws://example.org:8000" in client_policy("example.org:8000")
    for host in ("x; script-src *", "a b", "evil\r\nx: y", "x'y"):
        assert directives(client_policy(host))["connect-src"] == ["'self'"]


# -- body limit ----------------------------------------------------------------------------


async def _echo_length(scope: Scope, receive: Receive, send: Send) -> None:
    """An application that reads its whole body and answers its length."""
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            size = -1
            break
        size += len(message.get("body", b""))
        if not message.get("more_body", False):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(size).encode()})


def _run_limited(
    chunks: list[bytes], headers: list[tuple[bytes, bytes]]
) -> tuple[int, list[Message]]:
    """Send ``chunks`` through a 1000-byte limit: how many were read, and what was sent."""
    pulled = 0
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal pulled
        pulled += 1
        more = pulled < len(chunks)
        return {"type": "http.request", "body": chunks[pulled - 1], "more_body": more}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {"type": "http", "method": "POST", "path": "/", "headers": headers}
    asyncio.run(BodyLimit(_echo_length, max_bytes=1000)(scope, receive, send))
    return pulled, sent


def test_a_chunked_body_is_refused_as_soon_as_it_passes_the_limit() -> None:
    pulled, sent = _run_limited([b"x" * 300] * 100, [])
    assert pulled == 4  # 1200 bytes: nothing after the chunk that passed the limit
    assert sent[0]["status"] == 413
    assert (b"connection", b"close") in sent[0]["headers"]
    error = json.loads(sent[1]["body"])["error"]
    assert error["code"] == "body_too_large" and error["params"] == {"max_bytes": 1000}
    assert len(sent) == 2  # the application's own answer is dropped

    pulled, sent = _run_limited([b"x" * 250] * 4, [])
    assert pulled == 4 and sent[0]["status"] == 200 and sent[1]["body"] == b"1000"


def test_a_declared_length_over_the_limit_is_refused_unread() -> None:
    pulled, sent = _run_limited([b"x" * 1001], [(b"content-length", b"1001")])
    assert pulled == 0 and sent[0]["status"] == 413
    pulled, sent = _run_limited([b"x" * 1000], [(b"content-length", b"1000")])
    assert pulled == 1 and sent[1]["body"] == b"1000"


def test_every_route_that_takes_a_body_refuses_one_over_the_limit(
    open_client: OpenClient,
) -> None:
    """No route is mounted past the limit: each POST, PUT and PATCH route the app
    documents (the tournaments' among them) answers a body one byte too long with 413, and
    a body of a hundred megabytes as well, before anything reads it."""
    client = open_client(clock=None)
    max_bytes = client.app.state.server.settings.max_body_bytes  # type: ignore[attr-defined]
    paths = sorted(
        (method.upper(), re.sub(r"\{[^}]+\}", "0123456789abcdef", path))
        for path, operations in client.app.openapi()["paths"].items()  # type: ignore[attr-defined]
        for method in operations
        if method in ("post", "put", "patch")
    )
    assert ("POST", "/api/tournaments/0123456789abcdef/register") in paths
    assert len(paths) >= 15
    for method, path in paths:
        for size in (max_bytes + 1, 100 * 1024 * 1024):
            answer = client.request(
                method,
                path,
                headers={"content-length": str(size), "content-type": "application/json"},
                content=b"{}",
            )
            assert answer.status_code == 413, (method, path, answer.text)
            assert answer.json()["error"]["code"] == "body_too_large"


@pytest.fixture
def live(sqlite_url: str, bot_runner: BotRunner) -> Iterator[LiveServer]:
    with LiveServer(make_settings(sqlite_url), runner=bot_runner) as server:
        yield server


def _answer(sock: socket.socket) -> tuple[int, dict[str, Any]]:
    """Read one HTTP answer (status and JSON body) from ``sock``."""
    data = b""
    sock.settimeout(10)
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split()[1]), json.loads(body)


def test_a_real_server_refuses_huge_bodies_early_and_goes_on(live: LiveServer) -> None:
    request = (
        "POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\n{length}\r\n"
    )
    # declared 100 MB: answered after the headers, before any of the body
    with socket.create_connection(("127.0.0.1", live.port)) as sock:
        sock.sendall(request.format(length="Content-Length: 104857600\r\n").encode())
        sock.sendall(b"x" * 65536)
        status, body = _answer(sock)
    assert status == 413
    assert body["error"]["code"] == "body_too_large"
    assert body["error"]["params"] == {"max_bytes": 65536}

    # chunked: the server answers and closes once the chunks pass the limit
    sent = 0
    with socket.create_connection(("127.0.0.1", live.port)) as sock:
        sock.sendall(request.format(length="Transfer-Encoding: chunked\r\n").encode())
        chunk = b"4000\r\n" + b"x" * 0x4000 + b"\r\n"
        try:
            while sent < 100 * 2**20 and not select.select([sock], [], [], 0)[0]:
                sock.sendall(chunk)
                sent += 0x4000
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, body = _answer(sock)
    assert status == 413 and body["error"]["code"] == "body_too_large"
    assert sent < 32 * 2**20, sent  # far from the 100 MB the sender would have sent

    # a NUL in a table id never reaches the database, and the server goes on serving
    with socket.create_connection(("127.0.0.1", live.port)) as sock:
        sock.sendall(b"GET /api/tables/%00/record HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, body = _answer(sock)
    assert status == 404 and body["error"]["code"] == "not_found"
    base = f"http://127.0.0.1:{live.port}"
    assert http_clients.get(f"{base}/healthz").json()["ok"] is True
    guest = http_clients.post(f"{base}/api/session", json={"nickname": "after"})
    assert guest.status_code == 200 and guest.json()["name"] == "after"


# -- table ids -----------------------------------------------------------------------------

BAD_IDS = [
    "%00",
    "0123456789abcde%00",
    "0123456789abcdef0",
    "0123456789ABCDEF",
    "%2e%2e",
    "x" * 300,
]


def _record_storage_calls(client: TestClient) -> list[tuple[str, tuple[Any, ...]]]:
    """Every call of the server's storage from now on: its method and arguments."""
    storage = client.app.state.server.storage  # type: ignore[attr-defined]
    calls: list[tuple[str, tuple[Any, ...]]] = []
    for name in dir(storage):
        method = getattr(storage, name)
        if name.startswith("_") or not inspect.iscoroutinefunction(method):
            continue

        async def recorded(
            *args: Any, _name: str = name, _method: Any = method, **keywords: Any
        ) -> Any:
            calls.append((_name, (*args, *keywords.values())))
            return await _method(*args, **keywords)

        setattr(storage, name, recorded)
    return calls


def test_table_ids_are_checked_before_the_database(any_client: TestClient) -> None:
    client = any_client
    calls = _record_storage_calls(client)
    new = new_player(client, "Ida")
    client.cookies.set("rummykit_session", new)
    paths = client.get("/openapi.json").json()["paths"]
    routes = [
        (method.upper(), path)
        for path, operations in paths.items()
        if "{table_id}" in path
        for method in operations
    ]
    assert len(routes) >= 8  # summary, join, watch, leave, record, replay, review twice
    for method, path in routes:
        for bad in BAD_IDS:
            answer = client.request(method, path.replace("{table_id}", bad), json={})
            assert answer.status_code == 404, (method, path, bad, answer.text)
            assert error_code(answer) == "not_found"
        # a well-formed id of no table is asked of the database and is not found there
        answer = client.request(method, path.replace("{table_id}", "0123456789abcdef"), json={})
        assert (answer.status_code, error_code(answer)) == (404, "not_found")
        if method == "GET":
            traversal = client.get(path.replace("{table_id}", "..%2Fapi"))
            assert (traversal.status_code, error_code(traversal)) == (404, "not_found")
    # no session is needed to be told that an id is malformed
    client.cookies.clear()
    assert client.get("/api/tables/%00").status_code == 404
    # and no malformed id was ever asked of the database; the well-formed one was
    asked = {arg for _name, args in calls for arg in args if isinstance(arg, str)}
    assert "0123456789abcdef" in asked
    assert not asked & {unquote(bad) for bad in [*BAD_IDS, "..%2Fapi"]}, asked


def test_the_socket_check_knows_table_ids() -> None:
    assert is_table_id("00ff00ff00ff00ff")
    for bad in ("", "\x00", "00ff00ff00ff00f\x00", "00FF00FF00FF00FF", "../api", "0" * 17):
        assert not is_table_id(bad), bad


# -- who may read a table ------------------------------------------------------------------


def _create(client: TestClient, cookie: str, *, private: bool) -> dict[str, Any]:
    client.cookies.set("rummykit_session", cookie)
    created = client.post(
        "/api/tables",
        json={
            "game": "three-thirteen",
            "rules": SHORT,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
            "turn_seconds": None,
            "private": private,
        },
    ).json()
    client.cookies.clear()
    return created  # type: ignore[no-any-return]


def _play(client: TestClient, created: dict[str, Any], cookie: str) -> None:
    with connect(client, created["ws_url"], cookie) as ws:
        ws.send_json({"type": "chat", "text": "a private word"})
        play_to_end(ws, random_policy(7))


def _reads(table_id: str) -> dict[str, tuple[str, str]]:
    base = f"/api/tables/{table_id}"
    return {
        "summary": ("GET", base),
        "record": ("GET", f"{base}/record"),
        "replay": ("GET", f"{base}/replay?full=true"),
        "review": ("GET", f"{base}/review"),
        "start review": ("POST", f"{base}/review"),
    }


def _read(
    client: TestClient, method: str, path: str, cookie: str | None, token: str | None = None
) -> httpx.Response:
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set("rummykit_session", cookie)
    if token is not None:
        path += ("&" if "?" in path else "?") + f"token={token}"
    answer: httpx.Response = client.request(method, path)
    client.cookies.clear()
    return answer


def test_a_private_table_is_read_only_with_a_seat_or_its_token(any_client: TestClient) -> None:
    client = any_client
    host, stranger = new_player(client, "Host"), new_player(client, "Stranger")
    created = _create(client, host, private=True)
    table_id, token = created["table_id"], created["invite_token"]
    reads = _reads(table_id)

    # while it waits for no one (the bot seat is filled: it runs) and once it is over
    for moment in ("running", "over"):
        if moment == "over":
            _play(client, created, host)
        for what, (method, path) in reads.items():
            for cookie, given in ((stranger, None), (stranger, "x" * 32), (None, None)):
                answer = _read(client, method, path, cookie, given)
                # (the summary and record need no session, so privacy answers first)
                expected = 401 if cookie is None and what not in ("record", "summary") else 403
                assert answer.status_code == expected, (moment, what, given, answer.text)
                if expected == 403:
                    assert error_code(answer) == "private_table", (moment, what)
            # with the token, the stranger passes the privacy check (reviews and running
            # replays stay for players: a different refusal)
            with_token = _read(client, method, path, stranger, token)
            if what in ("summary", "record") or (what == "replay" and moment == "over"):
                assert with_token.status_code == 200, (moment, what, with_token.text)
            else:
                assert error_code(with_token) == "not_a_player", (moment, what)
            # the seated player needs no token
            if what == "start review" and moment == "over":
                continue  # allowed, and it would start a review in the bot workers
            own = _read(client, method, path, host)
            if what in ("review", "start review"):
                # allowed: the game is not over yet, or no review was started
                expected_code = "game_not_over" if moment == "running" else "no_review"
                assert error_code(own) == expected_code, (moment, what)
            else:
                assert own.status_code == 200, (moment, what, own.text)

    # the token alone, without a session, reads the finished record, chat included
    record = _read(client, "GET", reads["record"][1], None, token).json()
    assert record["format"] == "rummykit-record" and record["table_id"] == table_id
    assert [line["text"] for line in record["chat"]] == ["a private word"]
    replay = _read(client, "GET", reads["replay"][1], stranger, token).json()
    assert replay["over"] is True and "hands" in replay["steps"][0]


def test_a_public_finished_record_is_readable_without_a_session(any_client: TestClient) -> None:
    client = any_client
    player = new_player(client, "Pat")
    created = _create(client, player, private=False)
    table_id = created["table_id"]
    running = _read(client, "GET", f"/api/tables/{table_id}/record", None)
    assert running.status_code == 200 and running.json()["format"] == "rummykit-view"
    assert running.json()["seat"] is None and running.json()["observation"]["hand"] is None
    _play(client, created, player)
    record = _read(client, "GET", f"/api/tables/{table_id}/record", None)
    assert record.status_code == 200, record.text
    body = record.json()
    assert body["format"] == "rummykit-record" and int(body["seed"]) >= 0
    assert body["players"][0] == "Pat"
    # the whole game, however short the deal made it: it replays to its end
    steps = list(replay(loads(record.text)))
    assert steps and steps[-1].state.current_player is None


def test_the_record_is_built_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While one record is being built, the server answers other requests."""
    player = new_player(client, "Rex")
    created = _create(client, player, private=False)
    entered, release = threading.Event(), threading.Event()
    original = records.build

    def slow_build(source: records.RecordSource, seat: int | None) -> dict[str, Any]:
        entered.set()
        release.wait(timeout=20)
        return original(source, seat)

    monkeypatch.setattr(records, "build", slow_build)
    answers: list[httpx.Response] = []
    reader = threading.Thread(
        target=lambda: answers.append(client.get(f"/api/tables/{created['table_id']}/record"))
    )
    reader.start()
    try:
        assert entered.wait(timeout=20)
        started = time.monotonic()
        assert client.get("/healthz").json()["ok"] is True
        assert time.monotonic() - started < 5  # not after the 20-second wait
    finally:
        release.set()
        reader.join(timeout=30)
    assert answers and answers[0].status_code == 200
