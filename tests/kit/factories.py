"""New tables written once: the body of a new table's request (its seats by kind and
the fields a test gives; a tournament's body is :mod:`tests.kit.tournaments`'s), and a
table's row stored as a server stores it, for tests that set a table up in the database
directly."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi.testclient import TestClient

from rummykit.server.storage.models import SeatRow, TableRow
from tests.kit.storage import table_row

HUMAN = "human"
"""A person's seat, in :func:`seats`."""


def seats(*kinds: str) -> list[dict[str, str]]:
    """Seats by kind: :data:`HUMAN` for a person's, a bot level for a bot's.

    >>> seats(HUMAN, "greedy")
    [{'kind': 'human'}, {'kind': 'bot', 'level': 'greedy'}]
    """
    return [{"kind": HUMAN} if kind == HUMAN else {"kind": "bot", "level": kind} for kind in kinds]


def table_body(game: str, *kinds: str, **fields: Any) -> dict[str, Any]:
    """The body of ``POST /api/tables`` for a table of ``game`` with seats of ``kinds``
    (none: the server's default seats) and ``fields`` (rules, turn_seconds, private...)
    as given; nothing else, so the server's defaults hold for the rest.

    >>> table_body("burraco", HUMAN, "random", turn_seconds=None)["seats"][1]
    {'kind': 'bot', 'level': 'random'}
    """
    body: dict[str, Any] = {"game": game}
    if kinds:
        body["seats"] = seats(*kinds)
    return {**body, **fields}


def three_thirteen_row(*, creator_id: str | None, **columns: Any) -> TableRow:
    """A casual Three-Thirteen table of two, one round of three cards, as a server stores
    it: a new id, the deal of seed 1 (placeholder nonce and commitment), no clock,
    started at 1.0 and playing; ``columns`` set any other column's value (its status,
    rules, seed, end and totals...)."""
    values: dict[str, Any] = {
        "game": "three-thirteen",
        "rules": {"first_round": 3, "last_round": 3, "players": 2},
        "nonce": "0" * 32,
        "commitment": "0" * 64,
        "time_bank_seconds": None,
        "creator_id": creator_id,
        "created_at": 1.0,
        "started_at": 1.0,
        "rated": False,
    }
    return table_row(secrets.token_hex(8), **{**values, **columns})


def store_table(client: TestClient, row: TableRow, seats: list[SeatRow]) -> str:
    """Store ``row`` and its ``seats`` through the storage of ``client``'s app; its id."""
    server: Any = client.app.state.server  # type: ignore[attr-defined]
    client.portal.call(server.storage.add_table, row, seats)  # type: ignore[union-attr]
    return str(row.id)
