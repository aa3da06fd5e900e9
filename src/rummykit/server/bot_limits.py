"""What a player may ask of the bot workers when making a table.

Two limits, so that no player's tables can keep every worker searching:

- a guest's bots think at most ``guest_bot_seconds`` and ``guest_bot_iterations`` a move
  (a registered player's at most :data:`~rummykit.server.tables.MAX_BOT_SECONDS` and
  100,000 iterations, as for any table);
- the bots of a player's unfinished tables (those the player created, and those where
  the player sits) think at most ``bot_seconds_per_player`` seconds a move in all
  (``bot_seconds_per_guest`` for a guest), each bot counted at the longest its spec lets
  it think (:func:`think_seconds`).

A refusal is the table's ``bad_bot`` error.  This module reads storage but never writes
it, and never runs a bot.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from rummykit.bots.ismcts import DEFAULT_SECONDS
from rummykit.bots.registry import BotSpecError, parse_spec
from rummykit.server.host import TableError
from rummykit.server.lobby_models import CreateTable
from rummykit.server.models import PlayerRow, SeatRow, TableRow
from rummykit.server.settings import Settings
from rummykit.server.storage import Storage
from rummykit.server.tables import MAX_BOT_SECONDS, check_bot_level

# The slowest ISMCTS search measured (Three-Thirteen, late rounds; see the README's
# benchmarks), to bound the time of a search given in iterations only.
SLOWEST_ITERATIONS_PER_SECOND: Final = 500.0

Tables = list[tuple[TableRow, list[SeatRow]]]


def think_seconds(level: str | None) -> float:
    """The longest a bot of ``level`` (a valid spec) thinks a move: its ``seconds``, or
    its ``iterations`` at the slowest search speed, whichever is less; 0 for the bots
    that do not search.

    >>> think_seconds("greedy"), think_seconds("ismcts"), think_seconds("ismcts:seconds=2")
    (0.0, 0.5, 2.0)
    >>> think_seconds("ismcts:iterations=250"), think_seconds("ismcts:iterations=5000:seconds=3")
    (0.5, 3.0)
    """
    if level is None:
        return 0.0
    name, options = parse_spec(level)
    if name != "ismcts":
        return 0.0
    bounds = [options["seconds"]] if "seconds" in options else []
    if "iterations" in options:
        bounds.append(options["iterations"] / SLOWEST_ITERATIONS_PER_SECOND)
    return min(bounds) if bounds else DEFAULT_SECONDS


async def room_for_a_table(storage: Storage, player_id: str, settings: Settings) -> Tables:
    """The player's unfinished tables (:func:`unfinished_tables`), once they leave room
    for one more: ``too_many_tables`` at ``max_tables_per_player``."""
    active = await unfinished_tables(storage, player_id)
    if len(active) >= settings.max_tables_per_player:
        raise TableError(
            "too_many_tables",
            "finish or leave some tables first",
            {"limit": settings.max_tables_per_player},
        )
    return active


async def unfinished_tables(storage: Storage, player_id: str) -> Tables:
    """The player's unfinished tables: those where the player sits and those the player
    created (sitting or not), each once, newest first."""
    seated = await storage.tables_of(player_id, finished=False)
    created = await storage.tables_created_by(player_id, finished=False)
    found = {table.id: (table, seats) for table, seats in [*seated, *created]}
    return sorted(found.values(), key=lambda entry: entry[0].created_at, reverse=True)


def check_bots(request: CreateTable, player: PlayerRow, active: Tables, settings: Settings) -> None:
    """Refuse (``bad_bot``) the bots of ``request`` if ``player`` may not have them, given
    the player's unfinished tables ``active``."""
    guest = player.login_name is None
    levels = [seat.level for seat in request.seats or [] if seat.kind == "bot"]
    for level in levels:
        check_bot_level(
            request.game,
            level,
            max_seconds=settings.guest_bot_seconds if guest else MAX_BOT_SECONDS,
            max_iterations=settings.guest_bot_iterations if guest else 100_000,
        )
    budget = settings.bot_seconds_per_guest if guest else settings.bot_seconds_per_player
    wanted = _total(levels)
    if not wanted:
        return
    running = _total(seat.level for _, seats in active for seat in seats if seat.kind == "bot")
    if running + wanted > budget:
        raise TableError(
            "bad_bot",
            f"your bots would think up to {running + wanted:g} s a move across your "
            f"unfinished tables; the most is {budget:g} s: finish some tables first",
            {"level": max(levels, key=think_seconds)},
        )


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
