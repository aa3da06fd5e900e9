"""What a browser test sets up outside the page it watches: players with sessions or
accounts of their own (``httpx`` clients), tables made and games played to the end over
WebSockets, tournaments.  Nothing here opens a browser."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.kit import http_clients
from tests.kit.scripted import Policy, first_legal, play_to_end
from tests.web.driver import SESSION_COOKIE, Player, Socket, session_of

PASSWORD = "correct-horse-battery"


def guest(base_url: str, nickname: str) -> httpx.Client:
    """A client signed in as a new guest ``nickname`` (close it when done)."""
    client = http_clients.client(base_url=base_url, timeout=30)
    answer = client.post("/api/session", json={"nickname": nickname})
    assert answer.status_code == 200, answer.text
    return client


def registered(base_url: str, name: str) -> tuple[httpx.Client, str]:
    """A client signed in to a new account ``name`` (close it when done); its id."""
    client = http_clients.client(base_url=base_url, timeout=30)
    answer = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return client, answer.json()["player_id"]


def cookie_of(client: httpx.Client) -> str:
    """The session of a client made by :func:`guest` or :func:`registered`."""
    return str(client.cookies[SESSION_COOKIE])


def register(player: Player, name: str) -> None:
    """Register ``name`` from the page (its cookie becomes the account's session)."""
    player.goto("/")
    # the lobby has asked who is signed in (nobody yet) before the account is made, so
    # its answer cannot come after the registration's cookie
    player.page.wait_for_selector("input[name=nickname]")
    player.api("POST", "/api/register", {"name": name, "password": PASSWORD})
    me = player.api("GET", "/api/me")
    assert me["name"] == name and me["registered"], me


def accounts_table(ann: Player, bob: Player, *, language: str, **options: Any) -> str:
    """Ann and Bob registered from their pages (names of their own for this run) and a
    new Three-Thirteen table of two people (rounds 3 and 4) made by Ann with
    ``options`` (rated, its clock...); its id."""
    suffix = uuid.uuid4().hex[:6]
    register(ann, f"ann-{language}-{suffix}")
    register(bob, f"bob-{language}-{suffix}")
    return ann.create_table(
        {
            "game": "three-thirteen",
            "rules": {"first_round": 3, "last_round": 4},
            "seats": [{"kind": "human"}, {"kind": "human"}],
            **options,
        }
    )


def draw_rather_than_take(message: dict[str, Any]) -> str:
    """The first legal action, drawing from the stock rather than taking the pile."""
    legal = message["legal_actions"]
    return str(next((action for action in legal if action != "take"), legal[0]))


def play_seat(base_url: str, table_id: str, cookie: str, policy: Policy = first_legal) -> None:
    """Play the seat of the session ``cookie`` at ``table_id`` by ``policy`` to the end
    of the game, over a WebSocket of its own."""
    address = base_url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    headers = {"Cookie": f"{SESSION_COOKIE}={cookie}", "Origin": base_url}
    with connect(address, additional_headers=headers, open_timeout=20) as ws:
        assert play_to_end(Socket(ws), policy)[-1]["type"] == "game_over"


def play_seats(
    base_url: str, table_id: str, cookies: Sequence[str], policy: Policy = first_legal
) -> None:
    """:func:`play_seat` for each session of ``cookies`` at once (one thread each)."""
    with ThreadPoolExecutor(len(cookies)) as pool:
        list(pool.map(lambda cookie: play_seat(base_url, table_id, cookie, policy), cookies))


def finished_game(player: Player, rules: dict[str, Any]) -> str:
    """A game of Three-Thirteen with ``rules`` of the page's player (signed in) against
    a random bot, played to the end over a WebSocket; the table id."""
    table_id = player.create_table(
        {
            "game": "three-thirteen",
            "rules": rules,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
            "turn_seconds": None,
        }
    )
    play_seat(player.base_url, table_id, session_of(player.page.context))
    return table_id


def make_tournament(
    client: httpx.Client,
    *,
    name: str,
    rules: dict[str, Any] | None = None,
    bot_level: str = "greedy",
    enter: bool = True,
) -> str:
    """A Swiss tournament of Three-Thirteen (rounds 3 to 3 unless ``rules`` say), two
    rounds of tables of two, four places, made by ``client``; its id."""
    made = client.post(
        "/api/tournaments",
        json={
            "name": name,
            "game": "three-thirteen",
            "rules": rules or {"first_round": 3, "last_round": 3},
            "format": "swiss",
            "rounds": 2,
            "table_size": 2,
            "capacity": 4,
            "bot_level": bot_level,
            "turn_seconds": None,
            "enter": enter,
        },
    )
    assert made.status_code == 200, made.text
    tournament_id: str = made.json()["id"]
    return tournament_id
