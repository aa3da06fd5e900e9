"""What the leaderboards and the profiles read of the ratings (written by
:mod:`.ratings` at a rated table's end): a pool's best players, a player's ratings,
their history and their recent finished tables, and what one table did to its players'
ratings.

Every function reads within the session it is given and never writes; what to show of
a private table is decided by the competition room
(:mod:`~rummykit.server.competition.leaderboard`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import desc, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from rummykit.server.storage.models import (
    PlayerRatingRow,
    PlayerRow,
    RatingHistoryRow,
    SeatRow,
    TableRow,
)
from rummykit.server.storage.moderation import in_force


async def pool_board(
    session: AsyncSession, pool: str, *, since: float | None, limit: int, now: float
) -> list[tuple[PlayerRatingRow, str, int]]:
    """The best ``limit`` players of ``pool`` by rating (ties by player id), each with
    their name and games: every player rated in the pool with their games in it, or with
    ``since`` those who played a rated table of the pool since then, with their games of
    that period.  A player marked at ``now`` (``moderation.py``) is left out."""
    if since is None:
        query = (
            select(PlayerRatingRow, PlayerRow.name, PlayerRatingRow.games)
            .join(PlayerRow, PlayerRow.id == PlayerRatingRow.player_id)
            .where(PlayerRatingRow.pool == pool, PlayerRatingRow.games > 0)
        )
    else:
        recent = (
            select(RatingHistoryRow.player_id, func.count().label("games"))
            .where(RatingHistoryRow.pool == pool, RatingHistoryRow.at >= since)
            .group_by(RatingHistoryRow.player_id)
            .subquery()
        )
        query = (
            select(PlayerRatingRow, PlayerRow.name, recent.c.games)
            .join(PlayerRow, PlayerRow.id == PlayerRatingRow.player_id)
            .join(recent, recent.c.player_id == PlayerRatingRow.player_id)
            .where(PlayerRatingRow.pool == pool)
        )
    query = query.where(PlayerRatingRow.player_id.not_in(in_force(now))).order_by(
        desc(PlayerRatingRow.mu), PlayerRatingRow.player_id
    )
    rows = (await session.execute(query.limit(limit))).all()
    return [(row, name, int(games)) for row, name, games in rows]


async def player_ratings(session: AsyncSession, player_id: str) -> list[PlayerRatingRow]:
    """The player's rating in every pool they played a rated table of, by pool."""
    found = await session.execute(
        select(PlayerRatingRow)
        .where(PlayerRatingRow.player_id == player_id, PlayerRatingRow.games > 0)
        .order_by(PlayerRatingRow.pool)
    )
    return list(found.scalars())


async def rating_history(
    session: AsyncSession, player_id: str, limit: int
) -> list[tuple[RatingHistoryRow, bool]]:
    """The player's latest ``limit`` history points, newest first, each with whether its
    table is private."""
    found = await session.execute(
        select(RatingHistoryRow, TableRow.private)
        .join(TableRow, TableRow.id == RatingHistoryRow.table_id)
        .where(RatingHistoryRow.player_id == player_id)
        .order_by(desc(RatingHistoryRow.at), desc(RatingHistoryRow.id))
        .limit(limit)
    )
    return [(row, private) for row, private in found.all()]


async def recent_tables(session: AsyncSession, player_id: str, limit: int) -> list[TableRow]:
    """The latest ``limit`` finished tables the player sat at, last finished first,
    leaving out the private tables that were not rated."""
    found = await session.execute(
        select(TableRow)
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(
            SeatRow.player_id == player_id,
            TableRow.status == "over",
            or_(TableRow.private.is_(False), TableRow.rated.is_(True)),
        )
        .order_by(desc(TableRow.finished_at))
        .limit(limit)
    )
    return list(found.scalars())


async def seats_at(session: AsyncSession, table_ids: Sequence[str]) -> dict[str, list[SeatRow]]:
    """The seats of each of ``table_ids``, in seat order (a table without any: left out)."""
    seats: dict[str, list[SeatRow]] = {}
    found = await session.execute(
        select(SeatRow).where(SeatRow.table_id.in_(list(table_ids))).order_by(SeatRow.seat)
    )
    for seat in found.scalars():
        seats.setdefault(seat.table_id, []).append(seat)
    return seats


async def rating_changes(
    session: AsyncSession, table_id: str
) -> list[tuple[RatingHistoryRow, int]]:
    """The history points the table made, by seat, each with how many rated tables of
    that pool its player had then, this one included."""
    earlier = aliased(RatingHistoryRow)
    games = (
        select(func.count())
        .where(
            earlier.player_id == RatingHistoryRow.player_id,
            earlier.pool == RatingHistoryRow.pool,
            earlier.id <= RatingHistoryRow.id,
        )
        .scalar_subquery()
    )
    rows = await session.execute(
        select(RatingHistoryRow, games)
        .where(RatingHistoryRow.table_id == table_id)
        .order_by(RatingHistoryRow.seat)
    )
    return [(row, int(count)) for row, count in rows.all()]
