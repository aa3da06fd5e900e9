"""The server's storage for tests that talk to it directly: a migrated storage on a test
database of either kind, and the rows of a table to store (its row and its seats)."""

from __future__ import annotations

from typing import Any

from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.storage.store import Storage


async def open_storage(
    database_url: str, database_schema: str | None = None, **engine_options: Any
) -> Storage:
    """A storage of its own (its own engine, as a server process has) on the database at
    ``database_url`` (in ``database_schema`` on PostgreSQL: ``open_storage(**database)``
    with the kit's ``database`` fixture), migrated; ``engine_options`` go to
    :func:`make_engine` (``pool_size``...).  The caller closes it."""
    storage = Storage(make_engine(database_url, schema=database_schema, **engine_options))
    await storage.migrate()
    return storage


def table_row(table_id: str, **fields: Any) -> TableRow:
    """A Burraco table's row, as a server stores it when the table is made and starts it
    playing, with ``fields`` (``status``, ``created_at``, ``game``...) instead.

    >>> row = table_row("t1", status="waiting")
    >>> (row.id, row.game, row.status, row.started_at)
    ('t1', 'burraco', 'waiting', None)
    """
    values: dict[str, Any] = {
        "id": table_id, "game": "burraco", "rules": {}, "private": False,
        "invite_token": None, "seed": 1, "nonce": "n", "commitment": "c",
        "turn_seconds": None, "status": "playing", "creator_id": None, "created_at": 0.0,
        "started_at": None, "finished_at": None, "totals": None, "winners": None,
    }  # fmt: skip
    values.update(fields)
    return TableRow(**values)


def bot_seat(table_id: str) -> list[SeatRow]:
    """One bot's seat."""
    return [SeatRow(table_id=table_id, seat=0, kind="bot", level="random")]


def human_seats(table_id: str, *held: str) -> list[SeatRow]:
    """Two human seats, the first ones held by ``held`` players."""
    return [
        SeatRow(
            table_id=table_id,
            seat=i,
            kind="human",
            player_id=held[i] if i < len(held) else None,
            name=held[i] if i < len(held) else None,
        )
        for i in range(2)
    ]
