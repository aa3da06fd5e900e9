"""Vacations from turn-based games: a player's yearly allowance, declared time away, and
a day taken automatically when a turn's time would run out.

A player has ``vacation_days_per_year`` days a calendar year (UTC), counted by the
vacations that start in it.  While a player is on vacation the clocks of their
turn-based games stand still (:func:`~rummykit.server.table.turn_clock.run_out_at`).
A vacation is declared in whole days, starting now or later; when a mover's time would
run out and a day of the allowance is left, that day is taken for them (one at a time,
for as long as the allowance lasts), so one missed deadline in a busy week costs a day
rather than a game.  Every vacation is stored under the player's lock, after the
allowance is read in the same transaction, so games ending their time at once in
several processes take one day, not one each.  This module decides allowances only.
"""

from __future__ import annotations

from datetime import UTC, datetime

from rummykit.server.protocol.refusals import TableError
from rummykit.server.settings import Settings
from rummykit.server.storage.player_locks import holding_player
from rummykit.server.storage.store import Storage
from rummykit.server.storage.turn_based import (
    add_vacation,
    vacation_seconds_since,
    vacations_in,
)

DAY = 86_400.0


def year_start(now: float) -> float:
    """The start of ``now``'s calendar year (UTC), in unix seconds.

    >>> year_start(1_767_225_600.0 + 5 * DAY)  # 2026-01-06
    1767225600.0
    """
    moment = datetime.fromtimestamp(now, UTC)
    return datetime(moment.year, 1, 1, tzinfo=UTC).timestamp()


async def days_left(storage: Storage, player_id: str, now: float, settings: Settings) -> int:
    """The whole days of ``player_id``'s allowance left this year."""
    async with storage.reading() as session:
        used = await vacation_seconds_since(session, player_id, year_start(now))
    return max(0, int(settings.vacation_days_per_year - used / DAY + 1e-9))


async def declare(
    storage: Storage, player_id: str, starts_at: float, days: int, now: float, settings: Settings
) -> tuple[float, float]:
    """Store ``days`` whole days of vacation from ``starts_at`` (now or later, not
    overlapping one already taken); ``bad_vacation`` past the allowance left.  The
    vacation, as stored."""
    async with holding_player(storage, player_id) as session:
        used = await vacation_seconds_since(session, player_id, year_start(now))
        left = max(0, int(settings.vacation_days_per_year - used / DAY + 1e-9))
        mine = (await vacations_in(session, [player_id], now)).get(player_id, [])
        overlaps = any(start < starts_at + days * DAY and end > starts_at for start, end in mine)
        if not 1 <= days <= left or starts_at < now - 60 or overlaps:
            raise TableError(
                "bad_vacation",
                f"a vacation is 1 to {left} whole days, starting now or later",
                {"days_left": left},
            )
        await add_vacation(session, player_id, starts_at, starts_at + days * DAY, declared=True)
    return starts_at, starts_at + days * DAY


async def take_a_day(
    storage: Storage, player_id: str, at: float, now: float, settings: Settings
) -> bool:
    """Take a day of ``player_id``'s allowance from ``at`` (a turn's time running out),
    unless a vacation already covers that moment; whether the player is away at ``at``
    now (false: no day was left)."""
    async with holding_player(storage, player_id) as session:
        mine = (await vacations_in(session, [player_id], at)).get(player_id, [])
        if any(start <= at < end for start, end in mine):
            return True
        used = await vacation_seconds_since(session, player_id, year_start(now))
        if settings.vacation_days_per_year - used / DAY < 1 - 1e-9:
            return False
        await add_vacation(session, player_id, at, at + DAY, declared=False)
    return True
