"""Rating a finished rated table, inside the transaction that stores its end.

:func:`rate_finished_table` reads the table's seats and action log, places the players
(a player who left the game under way is placed last, level with any other leaver; at
a table of partners, the leaver's whole side), updates each player's rating in the
table's pool with OpenSkill's Plackett-Luce model (:mod:`rummykit.rating`, with drift:
people's skill changes; partners rated as one team, so both move by their side's
result) and writes one
:class:`~rummykit.server.storage.models.RatingHistoryRow` per player.  A seat whose moves were
made mostly by a substitute or the turn timer's stand-in is marked ``substituted``; it
is rated all the same.

Two rules keep the ratings right when things happen at once or twice:

- **No lost update.**  Each player's rating row is read under a row lock (``FOR
  UPDATE`` on PostgreSQL, taken in player id order so two tables never wait on each
  other; on SQLite the engine's one connection runs one transaction at a time), so two
  tables finishing together for the same player both count.
- **Once per table.**  A table that already has history rows is not rated again (and
  ``(table_id, player_id)`` is unique), so storing an end twice, as recovery may,
  changes nothing.

This module knows rows and the rating package; it never builds a game state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.rating.model import MU, POINTS_PER_MU, Rating, new_model, rate_table
from rummykit.server.storage.models import ActionRow, PlayerRatingRow, RatingHistoryRow, SeatRow

START_POINTS: Final = 1500.0
"""Where a new player's rating (OpenSkill's default ``mu``) is shown."""
NOT_THE_PLAYER: Final = frozenset({"substitute", "timeout"})
"""The action log's actors that played a human seat's move for its player."""
PROVISIONAL_GAMES: Final = 5
"""Below this many rated tables in a pool, a rating is shown as provisional."""


def display_rating(mu: float) -> float:
    """``mu`` in display points: 1,500 for a new player, and the bot ladder's points per
    unit of ``mu`` (400 points: odds of 10 to 1 between settled players).

    >>> display_rating(MU)
    1500.0
    >>> round(display_rating(MU + 400 / POINTS_PER_MU))
    1900
    """
    return START_POINTS + (mu - MU) * POINTS_PER_MU


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What rating a table needs to know of its game: the pool its result counts in,
    whether the lower total wins, and each seat's side (partners share one, rated as a
    team; ``None``: every seat for itself)."""

    pool: str
    lower_is_better: bool
    sides: tuple[int, ...] | None = None
    # rating farming: a table is rated only while no two of its opponents have met at
    # ``pair_limit`` rated tables of the pool in the ``pair_days`` before it
    pair_limit: int | None = None
    pair_days: float = 7.0


def places_of(totals: Sequence[int], *, lower_is_better: bool, left: frozenset[int]) -> list[int]:
    """Each seat's finishing place (1 is first; level totals share a place, the next
    place skipped): the seats that stayed by their totals, then the seats in ``left``,
    level with one another, after all of them.

    >>> places_of([120, 340, 200], lower_is_better=False, left=frozenset())
    [3, 1, 2]
    >>> places_of([10, 10, 30, 5], lower_is_better=True, left=frozenset({3}))
    [1, 1, 3, 4]
    >>> places_of([10, 50], lower_is_better=True, left=frozenset({0, 1}))
    [1, 1]
    """
    stayed = [seat for seat in range(len(totals)) if seat not in left]
    sign = 1 if lower_is_better else -1
    places = [0] * len(totals)
    for seat in stayed:
        ahead = sum(1 for other in stayed if sign * totals[other] < sign * totals[seat])
        places[seat] = ahead + 1
    for seat in left:
        places[seat] = len(stayed) + 1
    return places


async def _locked_ratings(
    session: AsyncSession, pool: str, player_ids: Sequence[str], at: float
) -> dict[str, PlayerRatingRow]:
    """Each player's rating row in ``pool`` (made at the default rating if missing),
    locked until the transaction ends."""
    dialect = session.get_bind().dialect.name
    fresh = [
        {
            "player_id": player_id,
            "pool": pool,
            "mu": Rating().mu,
            "sigma": Rating().sigma,
            "games": 0,
            "updated_at": at,
        }
        for player_id in sorted(player_ids)
    ]
    make_insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    await session.execute(make_insert(PlayerRatingRow).values(fresh).on_conflict_do_nothing())
    query = (
        select(PlayerRatingRow)
        .where(PlayerRatingRow.pool == pool, PlayerRatingRow.player_id.in_(player_ids))
        .order_by(PlayerRatingRow.player_id)
        .execution_options(populate_existing=True)
    )
    if dialect == "postgresql":
        query = query.with_for_update()
    rows = (await session.execute(query)).scalars()
    return {row.player_id: row for row in rows}


async def rate_finished_table(
    session: AsyncSession,
    table_id: str,
    totals: Sequence[int],
    game: RatedGame,
    at: float,
) -> list[RatingHistoryRow]:
    """Rate the finished table ``table_id`` in ``session``'s transaction; the history
    rows written (none if the table was rated before, or if a seat is not a seated
    person: only tables between people are rated)."""
    seats = list(
        (
            await session.execute(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            )
        ).scalars()
    )
    player_ids = [seat.player_id for seat in seats]
    if (
        len(seats) < 2
        or len(seats) != len(totals)
        or any(seat.kind != "human" for seat in seats)
        or None in player_ids
        or len(set(player_ids)) != len(seats)
    ):
        return []
    done = await session.scalar(
        select(func.count())
        .select_from(RatingHistoryRow)
        .where(RatingHistoryRow.table_id == table_id)
    )
    if done:
        return []
    if game.pair_limit is not None and await _met_too_often(session, seats, game, at):
        return []
    moves: Counter[tuple[int, bool]] = Counter()
    counted = await session.execute(
        select(ActionRow.seat, ActionRow.actor, func.count())
        .where(ActionRow.table_id == table_id)
        .group_by(ActionRow.seat, ActionRow.actor)
    )
    for seat_index, actor, count in counted.all():
        moves[(seat_index, actor in NOT_THE_PLAYER)] += count
    left = frozenset(seat.seat for seat in seats if seat.left_at is not None)
    sides = game.sides if game.sides is not None and len(game.sides) == len(seats) else None
    if sides is not None:
        # a side one of whose partners left is placed last, both partners alike
        gone = {sides[seat] for seat in left}
        places = places_of(
            totals,
            lower_is_better=game.lower_is_better,
            left=frozenset(seat for seat, side in enumerate(sides) if side in gone),
        )
    else:
        places = places_of(totals, lower_is_better=game.lower_is_better, left=left)
    ids = [str(player_id) for player_id in player_ids]
    rows = await _locked_ratings(session, game.pool, ids, at)
    before = [Rating(mu=rows[player_id].mu, sigma=rows[player_id].sigma) for player_id in ids]
    after = rate_table(new_model(drift=True), before, places, sides=sides)
    history = []
    for seat, player_id, old, new, place in zip(seats, ids, before, after, places, strict=True):
        row = rows[player_id]
        row.mu, row.sigma = new.mu, new.sigma
        row.games += 1
        row.updated_at = at
        history.append(
            RatingHistoryRow(
                player_id=player_id,
                pool=game.pool,
                table_id=table_id,
                seat=seat.seat,
                place=place,
                mu=new.mu,
                sigma=new.sigma,
                rating=display_rating(new.mu),
                change=display_rating(new.mu) - display_rating(old.mu),
                left_early=seat.seat in left,
                substituted=moves[(seat.seat, True)] > moves[(seat.seat, False)],
                at=at,
            )
        )
    session.add_all(history)
    return history


async def _met_too_often(
    session: AsyncSession, seats: Sequence[SeatRow], game: RatedGame, at: float
) -> bool:
    """Whether two opponents at the table have met at ``game.pair_limit`` rated tables of
    its pool in the ``game.pair_days`` before ``at``: one more is not rated, so that
    accounts throwing games to one another gain little."""
    sides = game.sides or tuple(range(len(seats)))
    since = at - game.pair_days * 86_400
    mine = RatingHistoryRow.__table__.alias("mine")
    theirs = RatingHistoryRow.__table__.alias("theirs")
    for i, first in enumerate(seats):
        for j in range(i + 1, len(seats)):
            second = seats[j]
            if sides[i] == sides[j]:
                continue
            met = await session.scalar(
                select(func.count(func.distinct(mine.c.table_id)))
                .select_from(mine.join(theirs, mine.c.table_id == theirs.c.table_id))
                .where(
                    mine.c.player_id == first.player_id,
                    theirs.c.player_id == second.player_id,
                    mine.c.pool == game.pool,
                    mine.c.at >= since,
                )
            )
            if int(met or 0) >= (game.pair_limit or 0):
                return True
    return False


async def refund_opponents(session: AsyncSession, marked_id: str) -> int:
    """Give back to the opponents of the marked player ``marked_id`` what their rated
    tables against them took from their ratings (each table once); how many ratings
    were refunded.  What they gained stays: a mark does not make a win worse."""
    tables = select(RatingHistoryRow.table_id).where(RatingHistoryRow.player_id == marked_id)
    lost = (
        await session.execute(
            select(RatingHistoryRow).where(
                RatingHistoryRow.table_id.in_(tables),
                RatingHistoryRow.player_id != marked_id,
                RatingHistoryRow.change < 0,
                RatingHistoryRow.refunded.is_(False),
            )
        )
    ).scalars()
    refunded = 0
    for row in lost:
        rating = await session.get(PlayerRatingRow, (row.player_id, row.pool))
        if rating is not None:
            rating.mu -= row.change / POINTS_PER_MU
        row.refunded = True
        refunded += 1
    return refunded
