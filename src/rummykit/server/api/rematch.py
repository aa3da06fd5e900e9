"""A rematch: the same table again, for the same players, after its game is over.

``POST /api/tables/{id}/rematch`` by a player seated at a finished table makes the
rematch once (the same game, rules, seats, rating, turn time and time bank, a fresh
secret deal), seats the caller in their old seat, and offers it to the old table's
other seated players over their sockets (a ``rematch`` message with its invitation
token: the rematch is private, so only those at the old table are told where it is;
one who comes back to the old table later is told too).  Each human seat of the
rematch is kept for the player who held it, however they join.  Any later call by a
player of the old table is answered with the same rematch.  The old table's watchers
are not told: the invitation is for the seats it keeps.

A tournament's table has none: the tournament deals its next round.

The database keeps the rematch once: a table names the table it is the rematch of,
under a unique index, so two players asking two server processes at the same moment
get one rematch.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from rummykit.server.api.context import ApiError, Context, Player
from rummykit.server.api.lobby import create_for, table_error
from rummykit.server.api.table_access import TableId
from rummykit.server.protocol.lobby import CreateTable, SeatRequest
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.table.commands import Join, RematchMade
from rummykit.server.table.host import TableHost
from rummykit.server.table.registry import RematchExists
from rummykit.server.table.remote import RemoteTable

router = APIRouter(prefix="/api", tags=["tables"])


def rematch_request(row: TableRow, seat_rows: list[SeatRow]) -> CreateTable:
    """The new table a rematch of the table ``row`` is: the same in all but its deal."""
    seats = [
        SeatRequest(kind="bot", level=s.level) if s.kind == "bot" else SeatRequest(kind="human")
        for s in seat_rows
    ]
    fields: dict[str, Any] = {
        "game": row.game,
        "rules": dict(row.rules),
        "seats": seats,
        "private": True,
        "rated": row.rated,
        "turn_seconds": row.turn_seconds,
        "time_bank_seconds": row.time_bank_seconds,
        "days_per_move": row.days_per_move,
        "sit": False,
    }
    if "players" in fields["rules"]:
        fields["rules"]["players"] = len(seats)
    return CreateTable(**fields)


async def _sit(host: TableHost | RemoteTable, player_id: str, name: str) -> int:
    """Seat the player in the rematch: the seat kept for them."""
    result: Any = asyncio.get_running_loop().create_future()
    host.submit(Join(player_id, name, None, result))
    seated: int = await result
    return seated


class Rematch(BaseModel):
    """A rematch: its table, the caller's seat in it, and its invitation token."""

    table_id: str
    seat: int
    invite_token: str | None


@router.post("/tables/{table_id}/rematch", response_model=Rematch)
async def rematch(table_id: TableId, player: Player, server: Context) -> Rematch:
    """The rematch of a finished table you played at (made on the first call), with
    your old seat in it: ``{"table_id", "seat", "invite_token"}``."""
    try:
        old = await server.tables.host(table_id)
    except TableError as error:  # between owners, or unreachable from here
        raise table_error(error) from None
    if old is None:
        raise ApiError(404, "not_found", "there is no such table", {"table_id": table_id[:64]})
    seat = old.seat_of(player.id)
    if seat is None:
        raise ApiError(403, "not_a_player", "only the game's players may do this")
    if old.row.status != "over":
        raise ApiError(409, "game_not_over", "the game is not over yet")
    if old.row.tournament_id is not None:
        raise ApiError(
            409,
            "tournament_table",
            "a tournament's table has no rematch: the tournament deals its next round",
        )
    made = await server.storage.rematch_of(table_id) or await _make(
        table_id, old, seat, player, server
    )
    try:
        host = await server.tables.host(made.id)
    except TableError:
        host = None
    if host is None:
        raise ApiError(503, "table_unavailable", "the table is busy; try again")
    try:
        taken = await _sit(host, player.id, player.name)
    except TableError as error:
        raise table_error(error) from None
    return Rematch(table_id=made.id, seat=taken, invite_token=made.invite_token)


async def _make(
    table_id: str, old: TableHost | RemoteTable, seat: int, player: Player, server: Context
) -> TableRow:
    """Make the rematch of ``table_id`` for ``player`` (at ``seat`` there) and offer it
    to the others; the one another caller made first if they did."""
    stored = await server.storage.table_with_seats(table_id)
    if stored is None:
        raise ApiError(404, "not_found", "there is no such table")
    old_row, old_seats = stored
    request = rematch_request(old_row, old_seats)
    try:
        # the rematch's bots are its maker's now: held to the maker's limits
        host, _ = await create_for(
            server,
            request,
            player,
            rematch_of=table_id,
            kept_for=[s.player_id for s in old_seats],
        )
    except RematchExists:
        first = await server.storage.rematch_of(table_id)
        if first is None:  # pragma: no cover - the unique index names a stored table
            raise ApiError(503, "table_unavailable", "the table is busy; try again") from None
        return first
    except TableError as error:
        raise table_error(error) from None
    old.submit(RematchMade(host.table_id, host.row.invite_token, seat))
    return host.row
