"""Waiting, through the API, for what the server does in its own time: a table's game
played to its end by bots, a review searched in the bot workers."""

from __future__ import annotations

from typing import Any

import httpx

from tests.kit.wait import wait_until


def table_over(
    client: httpx.Client, table_id: str, timeout: float = 60.0, *, interval: float = 0.05
) -> dict[str, Any]:
    """The table's summary once its game is over (``client``: the test client or a real
    server's ``httpx`` client), asked every ``interval`` seconds (each question is a
    request the server answers beside the game)."""

    def over() -> dict[str, Any] | None:
        summary: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        return summary if summary["status"] == "over" else None

    return wait_until(over, timeout, what=f"the end of table {table_id}'s game", interval=interval)


def finished_review(
    client: httpx.Client, table_id: str, timeout: float = 600.0
) -> tuple[dict[str, Any], list[int]]:
    """The table's review once it no longer runs, and the ``done`` count of every answer
    read on the way, in order."""
    seen: list[int] = []

    def finished() -> dict[str, Any] | None:
        review: dict[str, Any] = client.get(f"/api/tables/{table_id}/review").json()
        seen.append(review["done"])
        return review if review["status"] != "running" else None

    review = wait_until(finished, timeout, what=f"the review of table {table_id}", interval=0.05)
    return review, seen
