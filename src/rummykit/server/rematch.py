"""A rematch: the same table again, for the same players, after its game is over.

``POST /api/tables/{id}/rematch`` by a player seated at a finished table makes the
rematch once (the same game, rules, seats, turn time and time bank, a fresh secret
deal), seats the caller in their old seat, and offers it to the old table's other
seated players over their sockets (a ``rematch`` message with its invitation token:
the rematch is private, so only the old table's players are told how to join).  Any
later call by a player of the old table is answered with the same rematch and seats
its caller in their old seat.  The old table's watchers are told nothing.

The old table → rematch pairs live in the application's memory (:class:`Rematches`,
on ``app.state``): on a site of several server processes, two players asking
different processes may each get a rematch of their own.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel

from rummykit.server.bot_limits import unfinished_tables
from rummykit.server.commands import Join, TableError
from rummykit.server.context import ApiError, Context, Player
from rummykit.server.error_codes import ERROR_CODES
from rummykit.server.host import TableHost
from rummykit.server.lobby_models import CreateTable, SeatRequest
from rummykit.server.models import SeatRow, TableRow
from rummykit.server.protocol import RematchOffer
from rummykit.server.remote_table import RemoteTable
from rummykit.server.table_access import TableId

router = APIRouter(prefix="/api", tags=["tables"])


@dataclass
class Rematches:
    """Each finished table's rematch (by table id), and a lock per table being asked."""

    made: dict[str, str] = field(default_factory=dict)
    tokens: dict[str, str | None] = field(default_factory=dict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)


def rematches_of(request: Request) -> Rematches:
    """The rematches this application made."""
    state = request.app.state
    if not hasattr(state, "rematches"):
        state.rematches = Rematches()
    known: Rematches = state.rematches
    return known


def _api_error(error: TableError) -> ApiError:
    entry = ERROR_CODES.get(error.code)
    status = 400 if entry is None or entry.status is None else entry.status
    return ApiError(status, error.code, error.message, error.params)


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
        "turn_seconds": row.turn_seconds,
        "time_bank_seconds": row.time_bank_seconds,
        "sit": False,
    }
    if "players" in fields["rules"]:
        fields["rules"]["players"] = len(seats)
    return CreateTable(**fields)


async def _sit(host: TableHost | RemoteTable, player_id: str, name: str, seat: int | None) -> int:
    result: Any = asyncio.get_running_loop().create_future()
    host.submit(Join(player_id, name, seat, result))
    seated: int = await result
    return seated


class Rematch(BaseModel):
    """A rematch: its table, the caller's seat in it, and its invitation token."""

    table_id: str
    seat: int
    invite_token: str | None


@router.post("/tables/{table_id}/rematch", response_model=Rematch)
async def rematch(table_id: TableId, request: Request, player: Player, server: Context) -> Rematch:
    """The rematch of a finished table you played at (made on the first call), with
    your old seat in it: ``{"table_id", "seat", "invite_token"}``."""
    old = await server.tables.host(table_id)
    if old is None:
        raise ApiError(404, "not_found", "there is no such table", {"table_id": table_id[:64]})
    seat = old.seat_of(player.id)
    if seat is None:
        raise ApiError(403, "not_a_player", "only the game's players may do this")
    if old.row.status != "over":
        raise ApiError(409, "game_not_over", "the game is not over yet")
    known = rematches_of(request)
    lock = known.locks.setdefault(table_id, asyncio.Lock())
    async with lock:
        new_id = known.made.get(table_id)
        if new_id is None:
            active = await unfinished_tables(server.storage, player.id)
            if len(active) >= server.settings.max_tables_per_player:
                raise ApiError(
                    429,
                    "too_many_tables",
                    "finish or leave some tables first",
                    {"limit": server.settings.max_tables_per_player},
                )
            stored = await server.storage.table_with_seats(table_id)
            if stored is None:
                raise ApiError(404, "not_found", "there is no such table")
            try:
                host, _ = await server.tables.create(
                    rematch_request(*stored),
                    creator_id=player.id,
                    creator_name=player.name,
                    creator_registered=player.login_name is not None,
                )
            except TableError as error:
                raise _api_error(error) from None
            new_id = host.table_id
            known.made[table_id] = new_id
            known.tokens[table_id] = host.row.invite_token
            if isinstance(old, TableHost):
                offer = RematchOffer(table_id=new_id, invite_token=host.row.invite_token, by=seat)
                old.views.send_seated(offer)
    token = known.tokens[table_id]
    host_now = await server.tables.host(new_id)
    if host_now is None:
        raise ApiError(503, "table_unavailable", "the table is busy; try again")
    try:
        taken = await _sit(host_now, player.id, player.name, seat)
    except TableError as error:
        # the old seat is gone (someone else took it): the first free one
        if error.code != "seat_taken":
            raise _api_error(error) from None
        try:
            taken = await _sit(host_now, player.id, player.name, None)
        except TableError as again:
            raise _api_error(again) from None
    return Rematch(table_id=new_id, seat=taken, invite_token=token)
