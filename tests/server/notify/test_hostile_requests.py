"""The notification and turn-based requests against a hostile player, on either
database: markup, control characters, NUL, numbers that are no numbers and bodies far
too large are each answered with a typed 4xx error, never a 500, and the player's
choices, address, subscriptions, vacations and games are as they were (which is why
the module's tests may share one server)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.bots.service import BotRunner
from tests.kit.apps import app_client, error_code
from tests.kit.databases import make_settings
from tests.kit.players import as_player, registered

NASTY_TEXT = [
    "<script>alert(1)</script>",
    "a\x00b",
    "\x00",
    "line\r\nBcc: someone@example.org",
    "\u202eevil",
    "x" * 5000,
]
"""Strings no field of these requests takes."""

KEYS = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
PUSH = "https://push.example.org/a"
NAMES = ["markup", "nul", "only-nul", "crlf", "rtl", "long"]
TIMES_PER_MOVE = ["0", "4", "15", "-1", "1.5", '"1"', "NaN", "Infinity", "1e999", "true"]
"""Times per move, in days, as JSON, that are none of the choices."""


@pytest.fixture(scope="module")
def hostile_client(module_database: dict[str, Any], bot_runner: BotRunner) -> Iterator[TestClient]:
    """A server offering e-mail and Web Push (nothing is sent in these tests) on a fresh
    database of either kind, shared by the module's tests (each leaves it as it was), a
    registered player logged in."""
    settings = make_settings(
        **module_database,
        smtp_url="smtp://127.0.0.1:9",
        mail_from="rummykit@example.org",
        public_url="https://cards.example.org",
        push_contact="mailto:admin@example.org",
    )
    with app_client(settings, runner=bot_runner) as client:
        cookie, _ = registered(client, "mallory")
        as_player(client, cookie)
        yield client


def refused(answer: Any, *statuses: int) -> str:
    """The code of a typed refusal with one of ``statuses``."""
    assert answer.status_code in statuses, (answer.status_code, answer.text)
    code = error_code(answer)
    assert code
    return code


def bodies(text: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Each request of these rooms with ``text`` put where a string goes."""
    return [
        ("PUT", "/api/notifications", {"channels": {text: ["email"]}}),
        ("PUT", "/api/notifications", {"channels": {"your_turn": [text]}}),
        ("PUT", "/api/notifications", {"channels": {}, "language": text}),
        ("POST", "/api/notifications/email", {"email": text}),
        ("POST", "/api/notifications/email", {"email": f"{text}@example.org"}),
        ("POST", "/api/notifications/email/verify", {"token": text}),
        ("POST", "/api/notifications/unsubscribe", {"token": text}),
        ("POST", "/api/notifications/push", {"endpoint": f"{PUSH}/{text}", "keys": KEYS}),
        ("POST", "/api/notifications/push", {"endpoint": PUSH, "keys": {"p256dh": text}}),
        ("POST", "/api/notifications/push", {"endpoint": PUSH, "keys": {**KEYS, "auth": text}}),
        ("DELETE", "/api/notifications/push", {"endpoint": text}),
        ("POST", "/api/vacation", {"days": text}),
        ("POST", "/api/vacation", {"days": 1, "starts_at": text}),
    ]


@pytest.mark.parametrize("text", NASTY_TEXT, ids=NAMES)
def test_a_nasty_string_anywhere_is_a_typed_refusal_and_changes_nothing(
    hostile_client: TestClient, text: str
) -> None:
    client = hostile_client
    before = client.get("/api/notifications").json()
    vacation = client.get("/api/vacation").json()
    for method, path, body in bodies(text):
        answer = client.request(method, path, json=body)
        if method == "DELETE" and answer.status_code == 200:
            continue  # forgetting a subscription nobody has is nothing to refuse
        code = refused(answer, 400, 409, 422)
        assert code != "internal_error", (path, body)
    assert client.get("/api/notifications").json() == before
    assert client.get("/api/vacation").json() == vacation


@pytest.mark.parametrize("days", TIMES_PER_MOVE)
def test_a_time_per_move_that_is_not_one_of_the_choices_is_refused(
    hostile_client: TestClient, days: str
) -> None:
    raw = '{"game": "three-thirteen", "seats": [{"kind": "human"}, {"kind": "human"}], '
    answer = hostile_client.post(
        "/api/tables",
        content=f'{raw}"days_per_move": {days}}}',
        headers={"content-type": "application/json"},
    )
    refused(answer, 400, 422)
    assert hostile_client.get("/api/current").json() == []


@pytest.mark.parametrize("days", ["NaN", "-Infinity", "1e999", "-3", "0", '"<b>2</b>"'])
def test_vacation_days_that_are_no_count_are_refused(hostile_client: TestClient, days: str) -> None:
    for body in (f'{{"days": {days}}}', f'{{"days": 1, "starts_at": {days}}}'):
        answer = hostile_client.post(
            "/api/vacation", content=body, headers={"content-type": "application/json"}
        )
        refused(answer, 400, 422)
    assert hostile_client.get("/api/vacation").json()["vacations"] == []


def test_a_body_far_too_large_is_refused_before_it_is_read(hostile_client: TestClient) -> None:
    huge = b'{"channels": {}, "language": "' + b"x" * (100 * 1024 * 1024) + b'"}'
    for method, path in (
        ("PUT", "/api/notifications"),
        ("POST", "/api/notifications/push"),
        ("POST", "/api/vacation"),
        ("POST", "/api/tables"),
    ):
        answer = hostile_client.request(
            method, path, content=huge, headers={"content-type": "application/json"}
        )
        assert refused(answer, 413) == "body_too_large"
    assert hostile_client.get("/api/notifications").json()["channels"] == {}
