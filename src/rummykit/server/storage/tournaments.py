"""The tournaments' rows: a tournament, its entrants, the tables of its rounds, and the
server tables those rounds made.

Every function works within the session it is given (``Storage.reading()`` or
``Storage.writing()``, or a player's lock) and never commits: the competition room
decides what to read and write and when, and may change the rows it reads in a
writing session, which that session writes when it commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.server.storage.models import (
    SeatRow,
    TableRow,
    TournamentEntryRow,
    TournamentRow,
    TournamentTableRow,
)

# -- a tournament and its entrants ------------------------------------------------------


async def tournament(session: AsyncSession, tournament_id: str) -> TournamentRow | None:
    """The tournament, if there is one by that id."""
    return await session.get(TournamentRow, tournament_id)


async def locked_tournament(session: AsyncSession, tournament_id: str) -> TournamentRow | None:
    """The tournament read afresh, under its row lock on PostgreSQL (``FOR UPDATE``)
    until the session ends: requests and moves of one event are taken one at a time."""
    query = select(TournamentRow).where(TournamentRow.id == tournament_id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update()
    return (await session.scalars(query.execution_options(populate_existing=True))).first()


async def entries_of(session: AsyncSession, tournament_id: str) -> list[TournamentEntryRow]:
    """The tournament's entrants in the order they registered (people, then bots)."""
    query = (
        select(TournamentEntryRow)
        .where(TournamentEntryRow.tournament_id == tournament_id)
        .order_by(TournamentEntryRow.registered_at, TournamentEntryRow.id)
    )
    return list((await session.scalars(query)).all())


def add_tournament(session: AsyncSession, row: TournamentRow) -> None:
    """Store a new tournament with the session's transaction."""
    session.add(row)


def add_entry(session: AsyncSession, entry: TournamentEntryRow) -> None:
    """Store a new entrant with the session's transaction."""
    session.add(entry)


async def remove_entry(session: AsyncSession, entry: TournamentEntryRow) -> None:
    """Delete an entrant with the session's transaction."""
    await session.delete(entry)


async def write_now(session: AsyncSession) -> None:
    """Send the session's changes to the database now, before its commit (so that what
    the rest of the transaction reads includes them)."""
    await session.flush()


# -- the tables of its rounds --------------------------------------------------------------


async def tables_of(
    session: AsyncSession, tournament_id: str, round_: int | None = None
) -> list[TournamentTableRow]:
    """The tables (and byes) of every round, or of round ``round_``, in round and table
    order."""
    query = select(TournamentTableRow).where(TournamentTableRow.tournament_id == tournament_id)
    if round_ is not None:
        query = query.where(TournamentTableRow.round == round_)
    query = query.order_by(TournamentTableRow.round, TournamentTableRow.number)
    return list((await session.scalars(query)).all())


def add_round_table(session: AsyncSession, row: TournamentTableRow) -> None:
    """Store one planned table (or bye) of a round with the session's transaction."""
    session.add(row)


async def stored_table_ids(session: AsyncSession, table_ids: Iterable[str | None]) -> set[str]:
    """Those of ``table_ids`` that name a server table already made."""
    query = select(TableRow.id).where(TableRow.id.in_(list(table_ids)))
    return set((await session.scalars(query)).all())


async def finished_tables(
    session: AsyncSession, table_ids: Sequence[str]
) -> list[tuple[TableRow, list[SeatRow]]]:
    """Those of the server tables ``table_ids`` that are over, each with its seats."""
    over = (
        await session.scalars(
            select(TableRow).where(TableRow.id.in_(list(table_ids)), TableRow.status == "over")
        )
    ).all()
    found = []
    for table in over:
        seats = (await session.scalars(select(SeatRow).where(SeatRow.table_id == table.id))).all()
        found.append((table, list(seats)))
    return found


async def lift_held_reveals(session: AsyncSession, tournament_id: str) -> None:
    """Make the tournament's tables whose deal it held public, their seed told."""
    await session.execute(
        update(TableRow)
        .where(TableRow.tournament_id == tournament_id, TableRow.reveal_held)
        .values(reveal_held=False, private=False)
    )


# -- the lists of tournaments ----------------------------------------------------------------


async def due_tournaments(session: AsyncSession, now: float) -> list[str]:
    """The tournaments still registering whose start time has come."""
    query = select(TournamentRow.id).where(
        TournamentRow.status == "registering",
        TournamentRow.starts_at.is_not(None),
        TournamentRow.starts_at <= now,
    )
    return list((await session.scalars(query)).all())


async def running_tournaments(session: AsyncSession) -> list[str]:
    """The tournaments under way."""
    query = select(TournamentRow.id).where(TournamentRow.status == "running")
    return list((await session.scalars(query)).all())


async def listed_tournaments(session: AsyncSession, limit: int) -> list[TournamentRow]:
    """Up to ``limit`` tournaments: those still to be played (newest first), then the
    latest ones over or cancelled."""
    query = (
        select(TournamentRow)
        .order_by(
            TournamentRow.status.in_(("over", "cancelled")),
            TournamentRow.created_at.desc(),
        )
        .limit(limit)
    )
    return list((await session.scalars(query)).all())


async def entry_counts(session: AsyncSession, tournament_ids: Sequence[str]) -> dict[str, int]:
    """How many entrants each of ``tournament_ids`` has (none: left out)."""
    found = await session.execute(
        select(TournamentEntryRow.tournament_id, func.count())
        .where(TournamentEntryRow.tournament_id.in_(list(tournament_ids)))
        .group_by(TournamentEntryRow.tournament_id)
    )
    return {str(tournament_id): int(count) for tournament_id, count in found}
