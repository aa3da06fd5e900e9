"""Who may read a table, and the shape of the table id a route names.

The rule (docs/protocol.md): a public table is read by anyone; a **private** table's
summary, record, replay and review are read only by its seated players, a player a seat
is kept for (a rematch's) and whoever holds its invitation token (query parameter
``token``); anyone else is refused with 403
``private_table``.  A route's ``{table_id}`` that is not shaped like a table id (see
:func:`rummykit.server.accounts.security.is_table_id`) is answered 404 ``not_found`` before
anything asks the database: FastAPI solves a route's dependencies in the order of its
parameters, so :data:`TableId` comes first in every table route.

This module decides access only; it never loads or changes a table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from fastapi import Depends, Request

from rummykit.server.accounts.auth import COOKIE_NAME
from rummykit.server.accounts.security import is_table_id
from rummykit.server.api.context import ApiError, ServerContext
from rummykit.server.storage.models import PlayerRow, SeatRow, TableRow


async def table_id_param(table_id: str) -> str:
    """The route's table id, or 404 ``not_found`` for anything not shaped like one."""
    if not is_table_id(table_id):
        raise ApiError(404, "not_found", "there is no such table")
    return table_id


TableId = Annotated[str, Depends(table_id_param)]


async def optional_player(request: Request) -> PlayerRow | None:
    """The caller's player, or ``None`` without a (valid) session cookie."""
    server: ServerContext = request.app.state.server
    player_id = server.sessions.read(request.cookies.get(COOKIE_NAME))
    return None if player_id is None else await server.storage.player(player_id)


MaybePlayer = Annotated[PlayerRow | None, Depends(optional_player)]


def seat_of(seats: Iterable[SeatRow], player_id: str | None) -> int | None:
    """The human seat ``player_id`` holds among ``seats``, if any."""
    if player_id is None:
        return None
    return next((s.seat for s in seats if s.kind == "human" and s.player_id == player_id), None)


def check_read(
    table: TableRow, seats: Iterable[SeatRow], player_id: str | None, token: str | None
) -> int | None:
    """The reader's seat at ``table`` (``None`` for anyone else), once they may read it:
    403 ``private_table`` for a private table read without a seat or its token."""
    seats = list(seats)
    seat = seat_of(seats, player_id)
    kept = player_id is not None and any(s.kept_for == player_id for s in seats)
    if table.private and seat is None and not kept and not table.invites(token):
        raise ApiError(403, "private_table", "this table is private: use its invitation link")
    return seat
