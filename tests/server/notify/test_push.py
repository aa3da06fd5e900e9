"""Web Push: a message reaches a push service of the test's own, encrypted for the
subscription's keys (decrypted here with the test's key pair) and signed with the
site's VAPID key; a subscription its push service says is gone is forgotten; and the
server is no request proxy: it posts only to public https addresses, checked after the
name is looked up (and connects to those very addresses), within a time limit,
without following redirects, reading a bounded answer."""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import socket
import threading
from collections.abc import Iterator
from typing import Any

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi.testclient import TestClient

from rummykit.server.clock import FakeClock
from rummykit.server.notify.endpoints import (
    MAX_ANSWER_BYTES,
    EndpointRefused,
    PushClient,
    endpoint_host,
)
from tests.kit.apps import OpenClient, error_code
from tests.kit.factories import store_table
from tests.kit.players import as_player, registered
from tests.kit.push_service import PushService, Subscriber, push_service, unb64
from tests.kit.storage import human_seats, table_row
from tests.kit.wait import wait_until

__all__ = ["push_service"]

CONTACT = "mailto:admin@example.org"


def push_client_app(open_client: OpenClient, service: PushService, **options: Any) -> TestClient:
    return open_client(push_contact=CONTACT, push_client=service.client(**options))


def server_of(client: TestClient) -> Any:
    return client.app.state.server  # type: ignore[attr-defined]


def send_now(client: TestClient) -> None:
    client.portal.call(server_of(client).notifier.work_once)  # type: ignore[union-attr]


def end_game(client: TestClient, clock: FakeClock, table_id: str, *players: str) -> None:
    store_table(client, table_row(table_id), human_seats(table_id, *players))
    client.portal.call(  # type: ignore[union-attr]
        server_of(client).storage.finish_table, table_id, clock.now(), [5, 0], [0]
    )


def check_vapid(authorization: str, audience: str, server_key: str) -> None:
    """The VAPID header (RFC 8292) is a JWT for ``audience`` signed with the key the
    site gives browsers."""
    scheme, _, fields = authorization.partition(" ")
    assert scheme == "vapid"
    parts = dict(part.strip().split("=", 1) for part in fields.split(","))
    assert parts["k"] == server_key
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
    body = json.loads(unb64(claims))
    assert body["aud"] == audience and body["sub"] == CONTACT and body["exp"] > 0
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:  # pragma: no cover - the assertion's message
        raise AssertionError("the VAPID signature does not verify") from None


def test_a_push_message_is_encrypted_for_the_subscription_and_signed_by_the_site(
    open_client: OpenClient, push_service: PushService, clock: FakeClock
) -> None:
    client = push_client_app(open_client, push_service)
    cookie, ann = registered(client, "ann")
    as_player(client, cookie)
    settings = client.get("/api/notifications").json()
    assert settings["offered"] == ["page", "push"]
    server_key = settings["push_key"]
    assert len(unb64(server_key)) == 65
    browser = push_service.subscriber("ann-browser")
    answer = client.post("/api/notifications/push", json=browser.subscription())
    assert answer.status_code == 200, answer.text
    assert answer.json()["push_subscriptions"] == 1
    other = push_service.subscriber("ann-phone")
    client.post("/api/notifications/push", json=other.subscription())
    chosen = client.put(
        "/api/notifications", json={"channels": {"game_ended": ["push"]}, "language": "ru"}
    )
    assert chosen.status_code == 200, chosen.text
    end_game(client, clock, "pushed", ann, "bob")
    send_now(client)
    posted = push_service.wait_for(2)
    assert sorted(p.path for p in posted) == ["/push/ann-browser", "/push/ann-phone"]
    for each in posted:
        who = browser if each.path.endswith("browser") else other
        assert who.decrypt(each) == {
            "title": "Партия окончена",
            "body": "Ваша партия окончена (Burraco).",
            "path": "/#/table/pushed",
            "kind": "game_ended",
            "tag": "game_ended:pushed",
        }
        assert int(each.headers["ttl"]) > 0
        check_vapid(
            each.headers["authorization"], f"https://127.0.0.1:{push_service.port}", server_key
        )
    # a browser's keys do not open another's message
    with pytest.raises(http_ece.ECEException):
        other.decrypt(next(p for p in posted if p.path.endswith("browser")))
    rows = client.portal.call(server_of(client).storage.outbox_of, ann)  # type: ignore[union-attr]
    assert [(r.kind, r.channel, r.status) for r in rows] == [("game_ended", "push", "sent")]
    # every process of a site signs with the same key: it is kept in the database
    again = open_client(push_contact=CONTACT)
    as_player(again, cookie)
    assert again.get("/api/notifications").json()["push_key"] == server_key


def test_a_subscription_its_push_service_says_is_gone_is_forgotten(
    open_client: OpenClient, push_service: PushService, clock: FakeClock
) -> None:
    client = push_client_app(open_client, push_service)
    cookie, ann = registered(client, "ann")
    as_player(client, cookie)
    client.post("/api/notifications/push", json=push_service.subscriber("old").subscription())
    client.put("/api/notifications", json={"channels": {"game_ended": ["push"]}})
    push_service.status = 410
    end_game(client, clock, "gone", ann)
    send_now(client)
    push_service.wait_for(1)
    assert client.get("/api/notifications").json()["push_subscriptions"] == 0
    rows = client.portal.call(server_of(client).storage.outbox_of, ann)  # type: ignore[union-attr]
    assert [(r.status, r.error) for r in rows] == [("skipped", "no_subscription")]


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        ("http://push.example.org/x", "scheme"),
        ("ftp://push.example.org/x", "scheme"),
        ("https://127.0.0.1/x", "address"),
        ("https://[::1]:8443/x", "address"),
        ("https://10.0.0.8/x", "address"),
        ("https://192.168.1.1/x", "address"),
        ("https://169.254.169.254/latest/meta-data", "address"),
        ("https://[::ffff:127.0.0.1]/x", "address"),
        ("https://0.0.0.0/x", "address"),
        ("https://user:secret@push.example.org/x", "host"),
        ("https:///x", "host"),
    ],
)
def test_an_endpoint_that_is_no_public_https_address_is_refused(
    open_client: OpenClient, endpoint: str, reason: str
) -> None:
    client = open_client(push_contact=CONTACT)
    cookie, _ = registered(client, "ann")
    as_player(client, cookie)
    keys = Subscriber("https://x.example.org").subscription()["keys"]
    refused = client.post("/api/notifications/push", json={"endpoint": endpoint, "keys": keys})
    assert (refused.status_code, error_code(refused)) == (422, "bad_push_endpoint")
    assert refused.json()["error"]["params"] == {"reason": reason}
    assert client.get("/api/notifications").json()["push_subscriptions"] == 0


def lookup(table: dict[str, list[str]], calls: list[str]) -> Any:
    """A resolver answering from ``table``, noting each name it is asked."""

    async def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        if host not in table:
            raise OSError("no such name")
        return table[host]

    return resolve


def post(client: PushClient, url: str) -> tuple[int, bytes]:
    return asyncio.run(client.post(url, b"x", {"TTL": "0"}))


def test_a_name_that_looks_up_to_a_private_address_is_refused(
    push_service: PushService,
) -> None:
    calls: list[str] = []
    names = {
        "internal.test": ["10.0.0.7"],
        "mixed.test": ["93.184.216.34", "127.0.0.1"],
        "metadata.test": ["169.254.169.254"],
        "v6.test": ["fe80::1%1"],
    }
    client = PushClient(resolve=lookup(names, calls))  # the server's own check
    for name in [*names, "unknown.test"]:
        with pytest.raises(EndpointRefused) as refused:
            post(client, f"https://{name}:{push_service.port}/push/x")
        assert refused.value.reason == ("lookup" if name == "unknown.test" else "address")
    # the test's own service, by address or by a name of this machine, is refused too
    with pytest.raises(EndpointRefused):
        post(PushClient(), push_service.endpoint("direct"))
    with pytest.raises(EndpointRefused):
        post(PushClient(), f"https://localhost:{push_service.port}/push/x")
    assert push_service.messages() == []
    assert endpoint_host("https://push.example.org/a") == ("push.example.org", 443)


def test_the_connection_goes_to_the_address_checked_once(push_service: PushService) -> None:
    calls: list[str] = []
    answers = iter([["127.0.0.1"], ["10.9.9.9"]])  # a name that changes between lookups

    async def rebinding(host: str, port: int) -> list[str]:
        calls.append(host)
        return next(answers)

    client = push_service.client(resolve=rebinding)
    status, _ = post(client, push_service.endpoint("pinned", host="push.test"))
    assert status == 201 and calls == ["push.test"]
    assert [p.path for p in push_service.messages()] == ["/push/pinned"]


def test_redirects_are_not_followed_and_an_answer_is_read_only_so_far(
    push_service: PushService,
) -> None:
    client = push_service.client()
    push_service.status = 307
    push_service.headers_out = {"location": "https://169.254.169.254/latest"}
    status, _ = post(client, push_service.endpoint("moved"))
    assert status == 307 and len(push_service.messages()) == 1
    push_service.status = 201
    push_service.headers_out = {}
    push_service.answer_body = b"z" * (4 * MAX_ANSWER_BYTES)
    status, body = post(client, push_service.endpoint("big"))
    assert status == 201 and len(body) == MAX_ANSWER_BYTES


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that accepts connections and never answers (its sockets kept open)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for each in held:
        each.close()
    listener.close()


def test_a_push_service_that_never_answers_is_given_up_within_the_time_limit(
    silent_server: int,
) -> None:
    # (about wall time itself: the limit is what is tested)
    client = PushClient(allowed=lambda a: a == ipaddress.ip_address("127.0.0.1"), timeout=0.5)
    with pytest.raises(TimeoutError):
        post(client, f"https://127.0.0.1:{silent_server}/push/x")


def test_a_stored_subscription_to_a_private_address_is_dropped_unposted(
    open_client: OpenClient, push_service: PushService, clock: FakeClock
) -> None:
    names = {"internal.test": ["10.1.2.3"]}
    client = open_client(push_contact=CONTACT, push_client=PushClient(resolve=lookup(names, [])))
    cookie, ann = registered(client, "ann")
    as_player(client, cookie)
    # the name passes the subscription's check; it resolves to a private address later
    subscription = Subscriber(f"https://internal.test:{push_service.port}/push/x").subscription()
    assert client.post("/api/notifications/push", json=subscription).status_code == 200
    client.put("/api/notifications", json={"channels": {"game_ended": ["push"]}})
    end_game(client, clock, "private", ann)
    send_now(client)
    storage = server_of(client).storage
    wait_until(lambda: client.get("/api/notifications").json()["push_subscriptions"] == 0)
    rows = client.portal.call(storage.outbox_of, ann)  # type: ignore[union-attr]
    assert [(r.status, r.error) for r in rows] == [("skipped", "no_subscription")]
    assert push_service.messages() == []


def test_keys_that_are_no_browsers_are_refused_and_dropped_when_stored(
    open_client: OpenClient, push_service: PushService, clock: FakeClock
) -> None:
    client = push_client_app(open_client, push_service)
    cookie, ann = registered(client, "ann")
    as_player(client, cookie)
    bad = {"endpoint": push_service.endpoint("bad"), "keys": {"p256dh": "B" * 87, "auth": "A" * 22}}
    refused = client.post("/api/notifications/push", json=bad)
    assert (refused.status_code, error_code(refused)) == (422, "bad_push_endpoint")
    assert refused.json()["error"]["params"] == {"reason": "keys"}
    # stored all the same (as by an older server): dropped at the first message, unposted
    storage = server_of(client).storage
    client.portal.call(  # type: ignore[union-attr]
        storage.add_push_subscription, ann, bad["endpoint"], "B" * 87, "A" * 22, clock.now()
    )
    good = push_service.subscriber("good")
    client.post("/api/notifications/push", json=good.subscription())
    client.put("/api/notifications", json={"channels": {"game_ended": ["push"]}})
    end_game(client, clock, "badkeys", ann)
    send_now(client)
    [posted] = push_service.wait_for(1)
    assert posted.path == "/push/good" and good.decrypt(posted)["kind"] == "game_ended"
    assert client.get("/api/notifications").json()["push_subscriptions"] == 1


def test_a_player_keeps_ten_subscriptions_at_most(
    open_client: OpenClient, push_service: PushService, clock: FakeClock
) -> None:
    client = push_client_app(open_client, push_service)
    cookie, ann = registered(client, "ann")
    as_player(client, cookie)
    for number in range(12):
        clock.advance(1.0)
        subscription = push_service.subscriber(f"b{number:02}").subscription()
        assert client.post("/api/notifications/push", json=subscription).status_code == 200
    assert client.get("/api/notifications").json()["push_subscriptions"] == 10
    client.put("/api/notifications", json={"channels": {"game_ended": ["push"]}})
    end_game(client, clock, "many", ann)
    send_now(client)
    posted = push_service.wait_for(10)
    assert sorted(p.path for p in posted) == [f"/push/b{n:02}" for n in range(2, 12)]
    assert len(push_service.messages()) == 10  # the two oldest were dropped


def test_the_application_server_key_is_the_vapid_key() -> None:
    from rummykit.server.notify.push import application_server_key, vapid_key

    key = vapid_key("one")
    assert application_server_key(key) == application_server_key(vapid_key("one"))
    assert application_server_key(key) != application_server_key(vapid_key("two"))
    assert base64.urlsafe_b64decode(application_server_key(key) + "=")[0] == 4
