"""What a player may have at once, so that no player's tables keep every worker searching:

- at most ``max_tables_per_player`` unfinished live tables (those the player created,
  and those where the player sits), rematches included (``too_many_tables``), and
  apart from them at most ``max_turn_based_per_player`` turn-based ones, a seat taken
  at one counted too (``too_many_turn_based``);
- at most ``max_tournaments_per_player`` tournaments not over (``too_many_tournaments``);
- bots thinking at most ``bot_seconds_per_player`` seconds a move in all
  (``bot_seconds_per_guest`` for a guest), each bot counted at the longest its level
  lets it think (:func:`~rummykit.server.bots.limits.think_seconds`): the bots of the
  player's unfinished tables, and those of the player's tournaments not over, each
  counted as if bots filled every place (a tournament's tables count against its
  creator, not against the people seated there) (``bad_bot``);
- each bot within the limits of its level (:mod:`~rummykit.server.bots.limits`).

Each check reads within the session it is given: the caller holds the player's lock
(:func:`~rummykit.server.storage.player_locks.holding_player`) and writes the new table
or tournament in the same transaction, so that requests made at the same moment, in
any server processes, are admitted one after the other.  What a player has is read by
storage (:mod:`~rummykit.server.storage.holdings`); this module never writes.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.bots.levels import BotSpecError
from rummykit.server.bots.limits import check_bot_level, level_limits, think_seconds
from rummykit.server.protocol.refusals import TableError
from rummykit.server.settings import Settings
from rummykit.server.storage.holdings import (
    open_tournament_bots,
    open_tournament_count,
    unfinished_tables,
)
from rummykit.server.storage.models import PlayerRow
from rummykit.server.storage.turn_based import turn_based_count


def check_levels(
    game: str,
    levels: Iterable[str | None],
    player: PlayerRow,
    settings: Settings,
    *,
    tournament: bool = False,
) -> None:
    """Refuse (``bad_bot``) any of ``levels`` past the limits of ``player``'s bots (a
    guest's are lower; a tournament's lower still)."""
    max_seconds, max_iterations = level_limits(
        guest=player.login_name is None, settings=settings, tournament=tournament
    )
    for level in levels:
        check_bot_level(game, level, max_seconds=max_seconds, max_iterations=max_iterations)


async def admit_table(
    session: AsyncSession,
    player: PlayerRow,
    bot_levels: list[str | None],
    settings: Settings,
    turn_based: bool = False,
) -> None:
    """Refuse a new table of ``player`` with bots of ``bot_levels`` past the table limit
    (``too_many_tables``; a ``turn_based`` one's, ``too_many_turn_based``) or the bot
    budget (``bad_bot``)."""
    tables = await unfinished_tables(session, player.id)
    if turn_based:
        _check_turn_based(
            sum(1 for table, _ in tables if table.days_per_move is not None), settings
        )
    elif sum(1 for t, _ in tables if t.days_per_move is None) >= settings.max_tables_per_player:
        raise TableError(
            "too_many_tables",
            "finish or leave some tables first",
            {"limit": settings.max_tables_per_player},
        )
    wanted = _total(bot_levels)
    if wanted:
        running = _total(
            seat.level
            for table, seats in tables
            if table.tournament_id is None
            for seat in seats
            if seat.kind == "bot"
        )
        running += await _tournament_seconds(session, player.id)
        _check_budget(player, running, wanted, bot_levels, settings)


async def admit_turn_based_seat(session: AsyncSession, player_id: str, settings: Settings) -> None:
    """Refuse ``player_id`` a seat at one more turn-based table past their limit
    (``too_many_turn_based``)."""
    _check_turn_based(await turn_based_count(session, player_id), settings)


def _check_turn_based(count: int, settings: Settings) -> None:
    limit = settings.max_turn_based_per_player
    if count >= limit:
        raise TableError(
            "too_many_turn_based", "finish some turn-based games first", {"limit": limit}
        )


async def admit_tournament(
    session: AsyncSession,
    player: PlayerRow,
    bot_level: str | None,
    capacity: int,
    settings: Settings,
) -> None:
    """Refuse a new tournament of ``player`` past the tournament limit
    (``too_many_tournaments``) or, its bots filling its ``capacity`` places, the bot
    budget (``bad_bot``)."""
    if await open_tournament_count(session, player.id) >= settings.max_tournaments_per_player:
        raise TableError(
            "too_many_tournaments",
            "wait until one of your tournaments is over",
            {"limit": settings.max_tournaments_per_player},
        )
    wanted = capacity * _total([bot_level])
    if wanted:
        running = await _tournament_seconds(session, player.id)
        running += _total(
            seat.level
            for table, seats in await unfinished_tables(session, player.id)
            if table.tournament_id is None
            for seat in seats
            if seat.kind == "bot"
        )
        _check_budget(player, running, wanted, [bot_level], settings)


async def _tournament_seconds(session: AsyncSession, player_id: str) -> float:
    """The thinking time of the bots of ``player_id``'s tournaments not over, as if
    bots filled every place."""
    bots = await open_tournament_bots(session, player_id)
    return sum(capacity * _total([level]) for capacity, level in bots)


def _check_budget(
    player: PlayerRow,
    running: float,
    wanted: float,
    levels: list[str | None],
    settings: Settings,
) -> None:
    guest = player.login_name is None
    budget = settings.bot_seconds_per_guest if guest else settings.bot_seconds_per_player
    if running + wanted > budget:
        raise TableError(
            "bad_bot",
            f"your bots would think up to {running + wanted:g} s a move across your "
            f"unfinished tables and tournaments; the most is {budget:g} s: finish some first",
            {"level": max(levels, key=_total_one)},
        )


def _total_one(level: str | None) -> float:
    return _total([level])


def _total(levels: Iterable[str | None]) -> float:
    """The bots' longest thinking time a move in all; a stored level that is no longer a
    valid spec counts for nothing (its bot fails at once)."""
    total = 0.0
    for level in levels:
        try:
            total += think_seconds(level)
        except BotSpecError:
            continue
    return total
