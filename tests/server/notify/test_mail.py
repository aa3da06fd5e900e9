"""Notifications by e-mail, through a real SMTP server (``aiosmtpd``): the address
verified by its link, every message in the player's language with its link and its
unsubscribe link, unsubscribing without a session and only for its own address, one
e-mail a game a day, and the channels a host without SMTP does not offer."""

from __future__ import annotations

import functools
import re
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from rummykit.server.clock import FakeClock
from rummykit.server.storage.notifications import queue_notification
from tests.kit.apps import OpenClient, error_code
from tests.kit.factories import store_table
from tests.kit.mail import MailServer, mail_server
from tests.kit.players import as_player, registered
from tests.kit.storage import human_seats, table_row
from tests.kit.wait import wait_until

__all__ = ["mail_server"]

SITE = "http://rummykit.test"
TITLES = {"en": "Your game has ended", "hu": "Véget ért a játszmád", "ru": "Партия окончена"}
LINES = {
    "en": "Your game has ended (Burraco).",
    "hu": "Véget ért a játszmád (Burraco).",
    "ru": "Ваша партия окончена (Burraco).",
}
VERIFY_TITLES = {
    "en": "Confirm your address",
    "hu": "Erősítsd meg a címed",
    "ru": "Подтвердите адрес",
}


def mail_client(open_client: OpenClient, server: MailServer, **overrides: Any) -> TestClient:
    return open_client(
        smtp_url=server.url, mail_from="rummykit@example.org", public_url=SITE, **overrides
    )


def server_of(client: TestClient) -> Any:
    return client.app.state.server  # type: ignore[attr-defined]


def send_now(client: TestClient) -> int:
    """Have the app's sender send what is due now."""
    done: int = client.portal.call(server_of(client).notifier.work_once)  # type: ignore[union-attr]
    return done


def token_in(text: str, page: str) -> str:
    found = re.search(rf"{re.escape(SITE)}/#/{page}\?token=(\S+)", text)
    assert found is not None, text
    return unquote(found.group(1))


def verified_player(
    client: TestClient, server: MailServer, name: str, address: str, language: str = "en"
) -> tuple[str, str]:
    """A registered player with a verified ``address`` (its link followed); cookie, id."""
    cookie, player_id = registered(client, name)
    as_player(client, cookie)
    chosen = client.put("/api/notifications", json={"channels": {}, "language": language})
    assert chosen.status_code == 200, chosen.text
    before = len(server.messages())
    assert client.post("/api/notifications/email", json={"email": address}).status_code == 200
    send_now(client)
    mail = server.wait_for(before + 1)[before]
    assert mail.recipients == (address,)
    assert mail.mail["Subject"] == VERIFY_TITLES[language]
    assert "List-Unsubscribe" not in mail.mail  # sent because its reader asked
    token = token_in(mail.text, "verify-email")
    client.cookies.clear()  # the link works without a session
    assert client.post("/api/notifications/email/verify", json={"token": token}).json() == {
        "ok": True
    }
    as_player(client, cookie)
    answer = client.get("/api/notifications").json()
    assert (answer["email"], answer["email_verified"]) == (address, True)
    return cookie, player_id


def finished_game(client: TestClient, clock: FakeClock, *players: str) -> str:
    """A Burraco table of ``players``, its end stored now (as its host stores it)."""
    name = f"g{players[0][:8]}"
    table_id = store_table(client, table_row(name), human_seats(name, *players))
    server = server_of(client)
    client.portal.call(  # type: ignore[union-attr]
        server.storage.finish_table, table_id, clock.now(), [100, 0], [0]
    )
    return table_id


def test_a_host_without_smtp_or_push_offers_the_page_only(open_client: OpenClient) -> None:
    client = open_client()
    cookie, _ = registered(client, "ann")
    as_player(client, cookie)
    answer = client.get("/api/notifications").json()
    assert answer["offered"] == ["page"]
    assert answer["push_key"] is None
    refused = client.put("/api/notifications", json={"channels": {"game_ended": ["email"]}})
    assert (refused.status_code, error_code(refused)) == (409, "channel_unavailable")
    assert refused.json()["error"]["params"] == {"channel": "email"}
    refused = client.post("/api/notifications/email", json={"email": "ann@example.org"})
    assert error_code(refused) == "channel_unavailable"
    subscription = {
        "endpoint": "https://push.example.org/x",
        "keys": {"p256dh": "A" * 87, "auth": "B" * 22},
    }
    assert error_code(client.post("/api/notifications/push", json=subscription)) == (
        "channel_unavailable"
    )
    assert (
        client.put("/api/notifications", json={"channels": {"game_ended": ["page"]}}).status_code
        == 200
    )


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_a_verified_address_is_told_of_a_game_end_in_the_players_language(
    open_client: OpenClient, mail_server: MailServer, clock: FakeClock, language: str
) -> None:
    client = mail_client(open_client, mail_server)
    _, ann = verified_player(client, mail_server, "ann", "ann@example.org", language)
    chosen = client.put(
        "/api/notifications",
        json={"channels": {"game_ended": ["email", "page"]}, "language": language},
    )
    assert chosen.json()["channels"] == {"game_ended": ["email", "page"]}
    table_id = finished_game(client, clock, ann)
    send_now(client)
    mail = mail_server.wait_for(2)[1]
    assert mail.recipients == ("ann@example.org",)
    assert mail.mail["From"] == "rummykit@example.org"
    assert mail.mail["Subject"] == TITLES[language]
    assert mail.mail["Content-Language"] == language
    assert LINES[language] in mail.text
    assert f"{SITE}/#/table/{table_id}" in mail.text
    token = token_in(mail.text, "unsubscribe")
    assert mail.mail["List-Unsubscribe"] == (
        f"<{SITE}/api/notifications/unsubscribe?token={token}>"
    )
    assert mail.mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail_server.logins  # the URL's user and password were used
    storage = server_of(client).storage

    def marked() -> bool:
        rows = client.portal.call(storage.outbox_of, ann)  # type: ignore[union-attr]
        return [(r.kind, r.channel, r.status) for r in rows] == [
            ("verify_email", "email", "sent"),
            ("game_ended", "email", "sent"),
        ]

    wait_until(marked, what="both messages marked sent")


def test_unsubscribing_needs_no_session_and_works_only_for_its_own_address(
    open_client: OpenClient, mail_server: MailServer, clock: FakeClock
) -> None:
    client = mail_client(open_client, mail_server)
    ann_cookie, ann = verified_player(client, mail_server, "ann", "ann@example.org")
    client.put(
        "/api/notifications", json={"channels": {"game_ended": ["email"], "invitation": ["email"]}}
    )
    bob_cookie, bob = verified_player(client, mail_server, "bob", "bob@example.org")
    client.put("/api/notifications", json={"channels": {"game_ended": ["email"]}})
    finished_game(client, clock, ann, bob)
    send_now(client)
    mails = mail_server.wait_for(4)[2:]
    by_address = {m.recipients[0]: token_in(m.text, "unsubscribe") for m in mails}
    assert set(by_address) == {"ann@example.org", "bob@example.org"}

    client.cookies.clear()
    forged = by_address["ann@example.org"][:-2] + "xx"
    refused = client.post("/api/notifications/unsubscribe", json={"token": forged})
    assert (refused.status_code, error_code(refused)) == (400, "bad_link")
    # a verification token is no unsubscribe token
    assert error_code(client.post("/api/notifications/unsubscribe", params={"token": "abc"})) == (
        "bad_link"
    )
    # the one-click post of a mail program: the token in the query
    done = client.post(
        "/api/notifications/unsubscribe", params={"token": by_address["ann@example.org"]}
    )
    assert done.json() == {"ok": True}
    as_player(client, ann_cookie)
    assert client.get("/api/notifications").json()["channels"] == {
        "game_ended": [],
        "invitation": [],
    }
    as_player(client, bob_cookie)
    assert client.get("/api/notifications").json()["channels"] == {"game_ended": ["email"]}

    # bob moves to another address: the old address's link no longer acts
    assert (
        client.post("/api/notifications/email", json={"email": "bob@other.example.org"}).status_code
        == 200
    )
    client.cookies.clear()
    refused = client.post(
        "/api/notifications/unsubscribe", json={"token": by_address["bob@example.org"]}
    )
    assert (refused.status_code, error_code(refused)) == (409, "link_outdated")
    as_player(client, bob_cookie)
    assert client.get("/api/notifications").json()["channels"] == {"game_ended": ["email"]}


def test_a_game_sends_one_email_a_day_unless_the_player_asks_for_more(
    open_client: OpenClient, mail_server: MailServer, clock: FakeClock
) -> None:
    client = mail_client(open_client, mail_server)
    _, ann = verified_player(client, mail_server, "ann", "ann@example.org")
    client.put("/api/notifications", json={"channels": {"your_turn": ["email"]}})
    table_id = store_table(client, table_row("daily"), human_seats("daily", ann, "bob"))
    storage = server_of(client).storage

    def turn(number: int) -> None:
        client.portal.call(  # type: ignore[union-attr]
            lambda: queue_notification(
                storage, ann, "your_turn", table_id, at=clock.now(), key=str(number)
            )
        )
        send_now(client)

    turn(1)
    turn(2)
    clock.advance(86_400)
    turn(3)
    client.put("/api/notifications", json={"channels": {"your_turn": ["email"]}, "mail_more": True})
    turn(4)
    rows = client.portal.call(storage.outbox_of, ann)  # type: ignore[union-attr]
    assert [(r.status, r.error) for r in rows if r.kind == "your_turn"] == [
        ("sent", None),
        ("skipped", "daily_limit"),
        ("sent", None),
        ("sent", None),
    ]
    assert [m.mail["Subject"] for m in mail_server.wait_for(4)[1:]] == ["Your turn"] * 3
    assert len(mail_server.messages()) == 4


def test_turn_based_tables_queue_your_turn_and_time_low_for_seated_players_only(
    open_client: OpenClient, mail_server: MailServer, clock: FakeClock
) -> None:
    client = mail_client(open_client, mail_server)
    _, ann = verified_player(client, mail_server, "ann", "ann@example.org", "hu")
    channels = {"your_turn": ["email"], "time_low": ["email"]}
    client.put(
        "/api/notifications", json={"channels": channels, "language": "hu", "mail_more": True}
    )
    _, eve = verified_player(client, mail_server, "eve", "eve@example.org")
    client.put("/api/notifications", json={"channels": channels})
    table_id = store_table(client, table_row("turns"), human_seats("turns", ann, "bob"))
    storage = server_of(client).storage

    def queue(player: str, kind: str, **fields: Any) -> list[str]:
        queued: list[str] = client.portal.call(  # type: ignore[union-attr]
            lambda: queue_notification(storage, player, kind, table_id, at=clock.now(), **fields)
        )
        return queued

    assert queue(ann, "your_turn", key="7") == ["email"]
    assert queue(ann, "your_turn", key="7") == ["email"]  # the same turn: stored once
    assert queue(ann, "time_low", params={"seconds": 300}, key="7") == ["email"]
    # eve holds no seat at the table: nothing about its game is queued for her
    assert queue(eve, "your_turn", key="7") == []
    assert queue(eve, "game_ended") == []
    with pytest.raises(ValueError):
        queue(ann, "no_such_kind")
    send_now(client)
    mails = mail_server.wait_for(4)[2:]
    assert [(m.recipients, m.mail["Subject"]) for m in mails] == [
        (("ann@example.org",), "Te következel"),
        (("ann@example.org",), "Fogy az időd"),
    ]
    assert all(f"{SITE}/#/table/{table_id}" in m.text for m in mails)
    rows = client.portal.call(storage.outbox_of, eve)  # type: ignore[union-attr]
    assert [r.kind for r in rows] == ["verify_email"]


def test_a_player_has_five_verification_mails_a_day_at_most(
    open_client: OpenClient, mail_server: MailServer, clock: FakeClock
) -> None:
    client = mail_client(open_client, mail_server)
    cookie, _ = registered(client, "ann")
    as_player(client, cookie)
    # Each mail is waited for before the next address is given: a verification that
    # finds the address changed when its turn to be sent comes is skipped, not sent.
    for number in [0, 0, 1, 2, 3, 4]:  # the same address asked twice: one mail
        answer = client.post("/api/notifications/email", json={"email": f"a{number}@example.org"})
        assert answer.status_code == 200, answer.text
        send_now(client)
        mail_server.wait_for(number + 1)
    refused = client.post("/api/notifications/email", json={"email": "victim@example.org"})
    assert (refused.status_code, error_code(refused)) == (429, "verification_throttled")
    assert client.get("/api/notifications").json()["email"] == "a4@example.org"
    send_now(client)
    delivered = mail_server.messages()
    assert [m.recipients[0] for m in delivered] == [f"a{n}@example.org" for n in range(5)]
    clock.advance(86_401.0)
    assert (
        client.post("/api/notifications/email", json={"email": "b@example.org"}).status_code == 200
    )


def test_a_verification_whose_address_was_changed_before_its_sending_is_skipped(
    open_client: OpenClient, mail_server: MailServer, clock: FakeClock
) -> None:
    client = mail_client(open_client, mail_server)
    _, ann = registered(client, "ann")
    storage = server_of(client).storage
    for address in ("old@example.org", "new@example.org"):  # queued, nobody woken
        ask = functools.partial(storage.set_email, at=clock.now(), key=address)
        assert client.portal.call(ask, ann, address, "en")  # type: ignore[union-attr]
    send_now(client)
    assert [m.recipients for m in mail_server.wait_for(1)] == [("new@example.org",)]
    rows = client.portal.call(storage.outbox_of, ann)  # type: ignore[union-attr]
    assert [(r.params["email"], r.status, r.error) for r in rows] == [
        ("old@example.org", "skipped", "address_changed"),
        ("new@example.org", "sent", None),
    ]
    assert len(mail_server.messages()) == 1


def test_a_guest_gives_no_address_and_a_bad_one_is_refused(
    open_client: OpenClient, mail_server: MailServer
) -> None:
    client = mail_client(open_client, mail_server)
    client.post("/api/session", json={"nickname": "guest"})
    refused = client.post("/api/notifications/email", json={"email": "g@example.org"})
    assert (refused.status_code, error_code(refused)) == (403, "email_needs_account")
    cookie, _ = registered(client, "ann")
    as_player(client, cookie)
    for bad in ("no-at-sign", "a@b\r\nBcc: x@y.org", "<a@b.org>"):
        answer = client.post("/api/notifications/email", json={"email": bad})
        assert answer.status_code == 422, bad
    assert mail_server.messages() == []
