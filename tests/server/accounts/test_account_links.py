"""Accounts of one person: each session start notes the browser (its own long-lived id
cookie) and the address, as keyed hashes only; a rated table refuses a seat, and a
tournament a place or a pair, to an account one browser links to one already there,
two of them racing included; an address alone refuses nothing; the traces are forgotten
after ``link_days``."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from rummykit.server.accounts.links import BROWSER_COOKIE
from rummykit.server.storage.models import AccountLinkRow
from rummykit.server.storage.store import Storage
from tests.kit.passwords import FakeHashes
from tests.kit.players import PASSWORD
from tests.kit.tournaments import QUICK_BURRACO, tournament_body

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
THREE_PEOPLE = [{"kind": "human"}] * 3
QUICK = {"first_round": 3, "last_round": 3}


class Person:
    """One account, used from the browser whose id cookie is ``browser``."""

    def __init__(self, client: TestClient, name: str, browser: str) -> None:
        self.client, self.browser = client, browser
        client.cookies.clear()
        client.cookies.set(BROWSER_COOKIE, browser)
        made = client.post("/api/register", json={"name": name, "password": PASSWORD})
        assert made.status_code == 200, made.text
        self.id = made.json()["player_id"]
        self.session = str(made.cookies["rummykit_session"])
        client.cookies.clear()

    def post(self, path: str, body: Any = None) -> Any:
        cookie = f"rummykit_session={self.session}; {BROWSER_COOKIE}={self.browser}"
        return self.client.post(path, json=body or {}, headers={"cookie": cookie})


def rated_table(host: Person, seats: list[dict[str, str]] = TWO_PEOPLE) -> str:
    body = {"game": "three-thirteen", "rules": QUICK, "seats": seats, "rated": True}
    made = host.post("/api/tables", body)
    assert made.status_code == 200, made.text
    return str(made.json()["table_id"])


def test_a_second_account_of_one_browser_may_not_sit_at_a_rated_table(
    any_client: TestClient, hashes: FakeHashes
) -> None:
    client = any_client
    ann = Person(client, "ann", "browser-of-ann-0001")
    ann_again = Person(client, "ann_two", "browser-of-ann-0001")
    bob = Person(client, "bob", "browser-of-bob-0001")  # the same address, another browser
    table_id = rated_table(ann)
    refused = ann_again.post(f"/api/tables/{table_id}/join")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "linked_account"
    # nothing changed: the seat is still free, and another person takes it
    assert bob.post(f"/api/tables/{table_id}/join").json()["seat"] == 1
    # a casual table seats them both
    casual = ann.post(
        "/api/tables", {"game": "three-thirteen", "seats": TWO_PEOPLE, "rated": False}
    ).json()["table_id"]
    assert ann_again.post(f"/api/tables/{casual}/join").status_code == 200


def test_linked_accounts_racing_for_one_rated_table_get_one_seat(
    any_client: TestClient, hashes: FakeHashes
) -> None:
    client = any_client
    host = Person(client, "host", "browser-of-host-01")
    twins = [Person(client, f"twin{i}", "one-browser-for-all") for i in range(4)]
    table_id = rated_table(host, THREE_PEOPLE)
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda p: p.post(f"/api/tables/{table_id}/join"), twins))
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409, 409, 409], [a.json() for a in answers]
    assert {a.json()["error"]["code"] for a in answers if a.status_code == 409} == {
        "linked_account"
    }
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert sum(1 for s in seats if s["player_id"] in {t.id for t in twins}) == 1


def test_a_tournament_refuses_a_place_or_a_pair_to_linked_accounts(
    any_client: TestClient, hashes: FakeHashes
) -> None:
    client = any_client
    ann = Person(client, "ann", "browser-of-ann-0001")
    ann_again = Person(client, "ann_two", "browser-of-ann-0001")
    body = tournament_body(QUICK_BURRACO, name="Cup", capacity=4, bot_level="random")
    cup = ann.post("/api/tournaments", body).json()["id"]
    refused = ann_again.post(f"/api/tournaments/{cup}/register")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "linked_account"
    pairs = tournament_body(
        QUICK_BURRACO, name="Pairs", table_size=4, capacity=2, bot_level="random"
    )
    made = ann.post("/api/tournaments", pairs).json()
    link = made["entries"][0]["pair_token"]
    partner = ann_again.post(f"/api/tournaments/{made['id']}/register", {"pair": link})
    assert partner.json()["error"]["code"] == "linked_account"


def test_traces_are_keyed_hashes_and_are_forgotten(
    any_client: TestClient, hashes: FakeHashes
) -> None:
    client = any_client
    storage: Storage = client.app.state.server.storage  # type: ignore[attr-defined]
    ann = Person(client, "ann", "browser-of-ann-0001")
    ann_again = Person(client, "ann_two", "browser-of-ann-0001")

    async def rows() -> list[AccountLinkRow]:
        async with storage._sessions() as session:
            return list((await session.execute(select(AccountLinkRow))).scalars())

    stored = client.portal.call(rows)  # type: ignore[union-attr]
    assert {(r.player_id, r.kind) for r in stored} == {
        (p.id, kind) for p in (ann, ann_again) for kind in ("browser", "address")
    }
    for row in stored:  # neither the browser's id nor the address is kept as such
        assert "browser-of-ann" not in row.key and "testclient" not in row.key
        assert len(row.key) == 64
    links = client.portal.call(lambda: storage.links_of(ann.id, since=0))  # type: ignore[union-attr]
    assert links == [(ann_again.id, "address"), (ann_again.id, "browser")]
    # a trace not seen for longer than it is kept is forgotten at the player's next one
    later = max(r.last_seen for r in stored) + 91 * 86_400
    client.portal.call(  # type: ignore[union-attr]
        lambda: storage.record_traces(ann.id, [], at=later, forget_before=later - 90 * 86_400)
    )
    assert client.portal.call(lambda: storage.links_of(ann_again.id, since=0)) == []  # type: ignore[union-attr]


@pytest.mark.parametrize("cookie", ["", "short", "x" * 65, "<script>alert(1)</script>" * 2])
def test_a_malformed_browser_cookie_is_replaced(client: TestClient, cookie: str) -> None:
    client.cookies.clear()
    client.cookies.set(BROWSER_COOKIE, cookie)
    answer = client.post("/api/session", json={"nickname": "zed"})
    assert answer.status_code == 200
    given = answer.cookies.get(BROWSER_COOKIE)
    assert given and given != cookie and 16 <= len(given) <= 64
