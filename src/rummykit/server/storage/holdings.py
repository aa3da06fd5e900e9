"""What a player has open, read for the checks of what a player may have at once
(:mod:`~rummykit.server.bots.admission`): their unfinished tables with those tables' bot
seats, and their tournaments not over.

Every function reads within the session it is given (the caller holds the player's
lock, :mod:`.player_locks`, and writes the new table or tournament in the same
transaction) and never writes.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.server.storage.models import SeatRow, TableRow, TournamentRow

OPEN_TOURNAMENT: Final = ("registering", "running")
"""The states of a tournament not over (nor cancelled)."""


async def unfinished_tables(
    session: AsyncSession, player_id: str
) -> list[tuple[TableRow, list[SeatRow]]]:
    """The player's unfinished tables, each once: those where the player sits and those
    the player created (sitting or not), with their bot seats.  The tables a tournament
    made are not its creator's own: they count only where the player sits."""
    seated = select(SeatRow.table_id).where(SeatRow.player_id == player_id)
    tables = list(
        (
            await session.scalars(
                select(TableRow).where(
                    TableRow.status != "over",
                    or_(
                        and_(TableRow.creator_id == player_id, TableRow.tournament_id.is_(None)),
                        TableRow.id.in_(seated),
                    ),
                )
            )
        ).all()
    )
    seats: dict[str, list[SeatRow]] = {table.id: [] for table in tables}
    if tables:
        for seat in await session.scalars(
            select(SeatRow).where(SeatRow.table_id.in_(list(seats)), SeatRow.kind == "bot")
        ):
            seats[seat.table_id].append(seat)
    return [(table, seats[table.id]) for table in tables]


async def open_tournament_count(session: AsyncSession, player_id: str) -> int:
    """How many tournaments ``player_id`` created that are not over."""
    count = await session.scalar(
        select(func.count())
        .select_from(TournamentRow)
        .where(TournamentRow.creator_id == player_id, TournamentRow.status.in_(OPEN_TOURNAMENT))
    )
    return count or 0


async def open_tournament_bots(session: AsyncSession, player_id: str) -> list[tuple[int, str]]:
    """The places and the bot level of each tournament of ``player_id``'s not over that
    has bots."""
    rows = await session.execute(
        select(TournamentRow.capacity, TournamentRow.bot_level).where(
            TournamentRow.creator_id == player_id,
            TournamentRow.status.in_(OPEN_TOURNAMENT),
            TournamentRow.bot_level.is_not(None),
        )
    )
    return [(capacity, level) for capacity, level in rows.all() if level is not None]
