"""Turn-based games in the lobby: a table's turn and deadline in its summary, and the
order of a player's current games (whose turn, then time left).

A turn-based table's row says whose turn it is and since when (the host keeps it so);
the deadline is that time plus the time per move, the clock standing still while the
mover is on vacation (:func:`~rummykit.server.table.turn_clock.run_out_at`, the same
rule the host's clock follows).  This module reads; it never changes a table.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.server.protocol.lobby import TableSummary
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.storage.store import Storage
from rummykit.server.storage.turn_based import Pauses
from rummykit.server.table.turn_based import DAY
from rummykit.server.table.turn_clock import run_out_at

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
