"""The bodies of a new table's request, written once: its seats by kind and the fields a
test gives (``POST /api/tables``; a tournament's body is :mod:`tests.kit.tournaments`'s)."""

from __future__ import annotations

from typing import Any

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
