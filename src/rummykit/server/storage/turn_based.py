"""The rows of turn-based play (games over days): the lobby's index of whose turn it is
at each turn-based table, and the players' vacations.

A turn-based table's clock is derived by its host from the action log and the mover's
vacations; ``turn_seat`` and ``turn_since`` only follow it so that a player's list of
current games can be ordered by whose turn it is and how much time is left without
rebuilding any game.  Every write of a table's row is fenced by its lease, as every
other write of a table is.  This module reads and writes rows; it never builds a game
state or decides a deadline.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from rummykit.server.storage.errors import LeaseLost
from rummykit.server.storage.fencing import Lease, held
from rummykit.server.storage.models import SeatRow, TableRow, VacationRow

Pauses = list[tuple[float, float]]
"""Vacations as (start, end) pairs, unix seconds."""


class TurnBasedStore:
    """The turn-based part of the storage API (a mixin of
    :class:`~rummykit.server.storage.store.Storage`)."""

    _sessions: async_sessionmaker[AsyncSession]

    async def note_turn(
        self, table_id: str, seat: int | None, since: float | None, *, lease: Lease | None
    ) -> None:
        """Store whose turn it is at a turn-based table and since when (the lobby's
        index), only while ``lease`` holds the table (else ``LeaseLost``)."""
        async with self._sessions.begin() as session:
            if not await held(session, lease):
                assert lease is not None
                raise LeaseLost(lease)
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(turn_seat=seat, turn_since=since)
            )

    async def vacations_of(self, player_ids: Sequence[str], since: float) -> dict[str, Pauses]:
        """Each player's vacations that end after ``since``, by player id (a player
        without any is left out)."""
        if not player_ids:
            return {}
        async with self._sessions() as session:
            return await vacations_in(session, player_ids, since)

    async def vacation_rows(self, player_id: str, since: float) -> list[VacationRow]:
        """``player_id``'s vacations that end after ``since``, the earliest first."""
        async with self._sessions() as session:
            rows = await session.scalars(
                select(VacationRow)
                .where(VacationRow.player_id == player_id, VacationRow.ends_at > since)
                .order_by(VacationRow.starts_at)
            )
            return list(rows)


async def vacations_in(
    session: AsyncSession, player_ids: Sequence[str], since: float
) -> dict[str, Pauses]:
    """:meth:`TurnBasedStore.vacations_of` within ``session``."""
    rows = await session.scalars(
        select(VacationRow)
        .where(VacationRow.player_id.in_(list(player_ids)), VacationRow.ends_at > since)
        .order_by(VacationRow.starts_at)
    )
    found: dict[str, Pauses] = {}
    for row in rows:
        found.setdefault(row.player_id, []).append((row.starts_at, row.ends_at))
    return found


async def vacation_seconds_since(session: AsyncSession, player_id: str, since: float) -> float:
    """How long ``player_id``'s vacations starting at ``since`` or later last, in all."""
    total = await session.scalar(
        select(func.sum(VacationRow.ends_at - VacationRow.starts_at)).where(
            VacationRow.player_id == player_id, VacationRow.starts_at >= since
        )
    )
    return float(total or 0.0)


async def add_vacation(
    session: AsyncSession, player_id: str, starts_at: float, ends_at: float, *, declared: bool
) -> None:
    """Store a vacation of ``player_id``'s (the caller holds the player's lock and has
    checked the allowance in the same transaction)."""
    session.add(
        VacationRow(player_id=player_id, starts_at=starts_at, ends_at=ends_at, declared=declared)
    )
    await session.flush()


async def turn_based_count(session: AsyncSession, player_id: str) -> int:
    """How many unfinished turn-based tables ``player_id`` sits at or created."""
    seated = select(SeatRow.table_id).where(SeatRow.player_id == player_id)
    count = await session.scalar(
        select(func.count())
        .select_from(TableRow)
        .where(
            TableRow.status != "over",
            TableRow.days_per_move.is_not(None),
            (TableRow.creator_id == player_id) | TableRow.id.in_(seated),
        )
    )
    return count or 0
