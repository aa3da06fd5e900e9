"""Turn-based games in the lobby: a table's turn and deadline in its summary, the order
of a player's current games (whose turn, then time left), and the player's vacations
(``GET``/``POST /api/vacation``).

A turn-based table's row says whose turn it is and since when (the host keeps it so);
the deadline is that time plus the time per move, the clock standing still while the
mover is on vacation (:func:`~rummykit.server.table.turn_clock.run_out_at`, the same
rule the host's clock follows).  Apart from a vacation declared, this module reads; it
never changes a table.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import APIRouter

from rummykit.server.api import context
from rummykit.server.api.context import ApiError, ServerContext
from rummykit.server.protocol.lobby import (
    ErrorResponse,
    TableSummary,
    Vacation,
    VacationRequest,
    VacationStatus,
)
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.storage.store import Storage
from rummykit.server.storage.turn_based import Pauses
from rummykit.server.table.turn_based import DAY
from rummykit.server.table.turn_clock import run_out_at
from rummykit.server.table.vacations import days_left, declare

router = APIRouter(prefix="/api", responses={400: {"model": ErrorResponse}})

Found = Sequence[tuple[TableRow, list[SeatRow]]]


def _mover_of(table: TableRow, seats: list[SeatRow]) -> SeatRow | None:
    if table.days_per_move is None or table.status != "playing" or table.turn_seat is None:
        return None
    return next((s for s in seats if s.seat == table.turn_seat), None)


async def mover_vacations(storage: Storage, found: Found, now: float) -> dict[str, Pauses]:
    """The vacations of the person to move at each turn-based table of ``found``."""
    movers = {
        seat.player_id
        for table, seats in found
        if (seat := _mover_of(table, seats)) is not None and seat.player_id is not None
    }
    earliest = min((t.turn_since or now for t, _ in found if t.turn_since), default=now)
    return await storage.vacations_of(sorted(movers), earliest)


def add_turn(
    summary: TableSummary,
    table: TableRow,
    seats: list[SeatRow],
    vacations: dict[str, Pauses],
    now: float,
    player_id: str | None = None,
) -> TableSummary:
    """``summary`` with its turn-based fields: the time per move, and while the game is
    played whose turn it is, when the time runs out and until when the mover is away
    (``your_turn`` for ``player_id``)."""
    summary.days_per_move = table.days_per_move
    mover = _mover_of(table, seats)
    if mover is None or table.turn_since is None or table.days_per_move is None:
        return summary
    pauses = vacations.get(mover.player_id or "", [])
    summary.turn_seat = mover.seat
    summary.turn_deadline = round(
        run_out_at(table.turn_since, table.days_per_move * DAY, pauses), 3
    )
    away = [end for start, end in pauses if start <= now < end]
    summary.vacation_until = max(away) if away else None
    summary.your_turn = player_id is not None and mover.player_id == player_id
    return summary


def current_order(summaries: list[TableSummary]) -> list[TableSummary]:
    """A player's current games in the order the lobby lists them: the turn-based games
    where it is their turn (least time left first), the live tables (as they came,
    newest first), then the other turn-based games (least time left first, those not
    started last)."""
    far = float("inf")

    def left(s: TableSummary) -> float:
        return far if s.turn_deadline is None else s.turn_deadline

    mine = sorted((s for s in summaries if s.your_turn), key=left)
    live = [s for s in summaries if s.days_per_move is None]
    others = sorted(
        (s for s in summaries if s.days_per_move is not None and not s.your_turn), key=left
    )
    return mine + live + others


async def vacation_status(server: ServerContext, player_id: str) -> VacationStatus:
    """``player_id``'s allowance, days left and vacations not over."""
    now = server.tables.clock.now()
    vacations = [
        Vacation(starts_at=r.starts_at, ends_at=r.ends_at, declared=r.declared)
        for r in await server.storage.vacation_rows(player_id, now)
    ]
    away = [v.ends_at for v in vacations if v.starts_at <= now]
    return VacationStatus(
        allowance_days=server.settings.vacation_days_per_year,
        days_left=await days_left(server.storage, player_id, now, server.settings),
        away_until=max(away) if away else None,
        vacations=vacations,
    )


@router.get("/vacation", response_model=VacationStatus)
async def my_vacation(player: context.Player, server: context.Context) -> VacationStatus:
    """Your vacations from turn-based games: the yearly allowance, the days left of it
    this year, and your vacations not over."""
    return await vacation_status(server, player.id)


@router.post("/vacation", response_model=VacationStatus)
async def take_vacation(
    body: VacationRequest, player: context.Player, server: context.Context
) -> VacationStatus:
    """Declare days away from your turn-based games (from ``starts_at``, else now): their
    clocks stand still meanwhile, and the other players see until when you are away.
    Refused with ``bad_vacation`` past the days left of your allowance, for a start in
    the past, or over a vacation already taken."""
    now = server.tables.clock.now()
    starts_at = now if body.starts_at is None else body.starts_at
    try:
        await declare(server.storage, player.id, starts_at, body.days, now, server.settings)
    except TableError as error:
        raise ApiError(400, error.code, error.message, error.params) from None
    server.tables.vacations_changed(player.id)
    if server.tables.cluster is not None:
        server.tables.cluster.vacations_changed(player.id)
    return await vacation_status(server, player.id)
