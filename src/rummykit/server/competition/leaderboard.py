"""Leaderboards and player profiles, read from the rating tables (``storage/ratings.py``).

A game's leaderboard has one board per pool, that is per table size (Burraco for two,
``burraco``, and for four in partnerships, ``burraco/4``; Three-Thirteen for two, three
and four).  ``all`` ranks everyone rated in the pool; ``30d`` ranks those who played
a rated table of the pool in the last 30 days, by their current rating, and counts
their games of that period.  A rating of fewer than ``PROVISIONAL_GAMES`` tables is
listed, marked provisional.

A profile shows a player's rating in every pool, the history of those ratings (one
point per rated table, oldest first) and their recent finished games.  A private
table is never named to others: its history point has no table id, and among the
recent games a rated private table shows only what its history point already shows
(game, date, place and rating change: no id, no seats, no scores, no replay); a
casual private table is left out.

This module only reads, through :mod:`rummykit.server.storage.rating_reads`; it never
changes a rating.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel

from rummykit.games.registry import game_named
from rummykit.rating.model import TURN_BASED_SUFFIX, pool_of, turn_based_pool
from rummykit.server.bots.names import seat_names
from rummykit.server.protocol.lobby import RatingChange
from rummykit.server.storage.models import RatingHistoryRow, SeatRow, TableRow
from rummykit.server.storage.rating_reads import (
    player_ratings,
    pool_board,
    rating_changes,
    rating_history,
    recent_tables,
    seats_at,
)
from rummykit.server.storage.ratings import PROVISIONAL_GAMES, display_rating
from rummykit.server.storage.store import Storage

Period = Literal["all", "30d"]
PERIOD_SECONDS: Final = 30 * 24 * 3600.0
BOARD_SIZE: Final = 100
HISTORY_KEPT: Final = 500
RECENT_GAMES: Final = 20


class LeaderEntry(BaseModel):
    rank: int
    player_id: str
    name: str
    rating: float
    sigma: float
    games: int
    provisional: bool


class PoolBoard(BaseModel):
    """One pool's board: ``players`` at that table size, the best first; ``turn_based``
    for a pool of games over days (listed once it has a player)."""

    pool: str
    players: int
    entries: list[LeaderEntry]
    turn_based: bool = False


class Leaderboard(BaseModel):
    game: str
    period: Period
    boards: list[PoolBoard]


class PoolRating(BaseModel):
    pool: str
    game: str
    players: int
    rating: float
    sigma: float
    games: int
    provisional: bool


class HistoryPoint(BaseModel):
    """A rating after one rated table (``table_id`` null for a private table)."""

    pool: str
    rating: float
    change: float
    place: int
    at: float
    table_id: str | None


class RecentSeat(BaseModel):
    name: str
    player_id: str | None
    bot: bool
    level: str | None = None


class RecentGame(BaseModel):
    """A finished table of the player's, with what it did to their rating when it was
    rated (``rating`` and ``change`` null for a casual game).  A ``private`` one (always
    rated) has no ``table_id``, ``seat``, ``seats``, ``totals`` or ``winners``."""

    table_id: str | None
    game: str
    rated: bool
    finished_at: float | None
    seat: int | None
    seats: list[RecentSeat]
    totals: list[int] | None
    winners: list[int] | None
    place: int | None = None
    rating: float | None = None
    change: float | None = None
    left_early: bool = False
    substituted: bool = False
    # how the game ended when it was not played to its end: "abandoned" or "aborted"
    ended_by: str | None = None
    private: bool = False


class Profile(BaseModel):
    player_id: str
    name: str
    registered: bool
    ratings: list[PoolRating]
    history: list[HistoryPoint]
    recent: list[RecentGame]


def pools_of(game: str) -> list[tuple[str, int]]:
    """The pools a game's results are rated in, with their table sizes.

    >>> pools_of("three-thirteen")
    [('three-thirteen/2', 2), ('three-thirteen/3', 3), ('three-thirteen/4', 4)]
    >>> pools_of("burraco")
    [('burraco', 2), ('burraco/4', 4)]
    """
    info = game_named(game)
    counts = info.player_counts
    return [
        (pool_of(game, n, player_counts=counts, named_size=info.named_pool_size), n) for n in counts
    ]


def _named_size(game: str) -> int:
    """The table size of the pool called by ``game``'s name alone."""
    info = game_named(game)
    return info.named_pool_size or min(info.player_counts)


def _pool_parts(pool: str) -> tuple[str, int | None]:
    game, _, players = pool.removesuffix(TURN_BASED_SUFFIX).partition("/")
    return game, int(players) if players.isdigit() else None


async def leaderboard(storage: Storage, game: str, period: Period, now: float) -> Leaderboard:
    boards = []
    since = None if period == "all" else now - PERIOD_SECONDS
    async with storage.reading() as session:
        pools = [(pool, players, False) for pool, players in pools_of(game)]
        pools += [(turn_based_pool(pool), players, True) for pool, players, _ in pools]
        for pool, players, days in pools:
            rows = await pool_board(session, pool, since=since, limit=BOARD_SIZE, now=now)
            if days and not rows:
                continue  # a pool of games over days nobody was rated in yet
            entries = [
                LeaderEntry(
                    rank=rank,
                    player_id=row.player_id,
                    name=name,
                    rating=round(display_rating(row.mu), 1),
                    sigma=round(row.sigma, 3),
                    games=games,
                    provisional=row.games < PROVISIONAL_GAMES,
                )
                for rank, (row, name, games) in enumerate(rows, start=1)
            ]
            boards.append(PoolBoard(pool=pool, players=players, entries=entries, turn_based=days))
    return Leaderboard(game=game, period=period, boards=boards)


async def profile(storage: Storage, player_id: str) -> Profile | None:
    """``player_id``'s profile, or ``None`` if there is no such player."""
    player = await storage.player(player_id)
    if player is None:
        return None
    async with storage.reading() as session:
        ratings = await player_ratings(session, player_id)
        history = await rating_history(session, player_id, HISTORY_KEPT)
        tables = await recent_tables(session, player_id, RECENT_GAMES)
        seats_of: dict[str, list[SeatRow]] = {}
        if tables:
            seats_of = await seats_at(session, [t.id for t in tables if not t.private])
    rated_at = {row.table_id: row for row, _ in history}
    recent = []
    for table in tables:
        entry = rated_at.get(table.id)
        if table.private:
            if entry is not None:
                recent.append(_private_game(table, entry))
            continue
        seats = seats_of.get(table.id, [])
        mine = next(s.seat for s in seats if s.player_id == player_id)
        recent.append(
            RecentGame(
                table_id=table.id,
                game=table.game,
                rated=bool(table.rated),
                finished_at=table.finished_at,
                seat=mine,
                seats=[
                    RecentSeat(
                        name=name,
                        player_id=s.player_id if s.kind == "human" else None,
                        bot=s.kind == "bot",
                        level=s.level if s.kind == "bot" else None,
                    )
                    for s, name in zip(seats, seat_names(seats), strict=True)
                ],
                totals=table.totals,
                winners=table.winners,
                place=None if entry is None else entry.place,
                rating=None if entry is None else round(entry.rating, 1),
                change=None if entry is None else round(entry.change, 1),
                left_early=entry is not None and entry.left_early,
                substituted=entry is not None and entry.substituted,
                ended_by=table.ended_by,
            )
        )
    pool_ratings = []
    for row in ratings:
        game, players = _pool_parts(row.pool)
        pool_ratings.append(
            PoolRating(
                pool=row.pool,
                game=game,
                players=players or _named_size(game),
                rating=round(display_rating(row.mu), 1),
                sigma=round(row.sigma, 3),
                games=row.games,
                provisional=row.games < PROVISIONAL_GAMES,
            )
        )
    return Profile(
        player_id=player.id,
        name=player.name,
        registered=player.login_name is not None,
        ratings=pool_ratings,
        history=[
            HistoryPoint(
                pool=row.pool,
                rating=round(row.rating, 1),
                change=round(row.change, 1),
                place=row.place,
                at=row.at,
                table_id=None if private else row.table_id,
            )
            for row, private in reversed(history)
        ],
        recent=recent,
    )


def _private_game(table: TableRow, entry: RatingHistoryRow) -> RecentGame:
    """A rated private table as others may see it: what its history point shows."""
    return RecentGame(
        table_id=None,
        game=table.game,
        rated=True,
        finished_at=entry.at,
        seat=None,
        seats=[],
        totals=None,
        winners=None,
        place=entry.place,
        rating=round(entry.rating, 1),
        change=round(entry.change, 1),
        left_early=entry.left_early,
        substituted=entry.substituted,
        private=True,
        ended_by=table.ended_by,
    )


async def table_rating_changes(storage: Storage, table_id: str) -> list[RatingChange]:
    """What the table ``table_id`` did to its players' ratings, by seat (none for a table
    not rated, or not finished); a rating is provisional while its pool holds fewer than
    :data:`PROVISIONAL_GAMES` of the player's rated tables, this one included."""
    async with storage.reading() as session:
        return [
            RatingChange(
                seat=row.seat,
                rating=round(row.rating),
                change=round(row.change),
                provisional=count < PROVISIONAL_GAMES,
            )
            for row, count in await rating_changes(session, table_id)
        ]
