"""A tournament's rounds planned and moved on, in the database.

- **Planning** (:func:`plan_round`) pairs round ``number`` from the stored results
  (Swiss, or the knockout bracket) and writes its tables with their ids and the
  round's one secret deal (duplicate deals, Mitchell style: every table of a round
  plays the same deal), before any table is made.
- **Moving on** (:meth:`Rounds.move_on`), under the tournament's row lock, stores the
  result of every table of the round under way that has ended, forfeits included (a
  seat whose player never came or left: ``TableHost`` counts it as left); once all
  have, it lifts the held reveal of the round's deal and makes the round's tables
  public, then plans the next round or ends the event.

Nothing here makes a table (:mod:`.tournament_tables` does, after the plan is
committed) or starts the sweep; and a round's deal is never revealed, nor its tables
made public, before every table of the round is over.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.pairings.knockout import first_round, next_round
from rummykit.pairings.swiss import pair_round
from rummykit.server.clock import Clock
from rummykit.server.competition.tournament_rows import entries_per_table, locked
from rummykit.server.competition.tournament_standings import (
    knockout_winner,
    last_round,
    round_over,
    swiss_record,
)
from rummykit.server.operations.events_log import log_event
from rummykit.server.storage.models import TournamentRow, TournamentTableRow
from rummykit.server.storage.store import Storage
from rummykit.server.storage.tournaments import (
    add_round_table,
    entries_of,
    finished_tables,
    lift_held_reveals,
    tables_of,
)
from rummykit.server.table import committed_deal


async def plan_round(
    session: AsyncSession,
    tournament: TournamentRow,
    number: int,
    played: Sequence[TournamentTableRow],
) -> None:
    """Store round ``number``'s tables (ids and the round's deal chosen now)."""
    entrants = len(await entries_of(session, tournament.id))
    if tournament.format == "swiss":
        record = swiss_record(tournament.game, entrants, played)
        lines = record.standings()
        pairing = pair_round(
            [line.player for line in lines],
            table_size=entries_per_table(tournament),
            points={line.player: line.points for line in lines},
            met=record.met(),
            byes=record.byes(),
        )
        seatings = list(pairing.tables) + [(p,) for p in pairing.byes]
    elif number == 0:
        seatings = first_round(entrants, entries_per_table(tournament))
    else:
        last = [row for row in played if row.round == number - 1]
        winners = [knockout_winner(tournament.game, row) for row in last]
        seatings = next_round([w for w in winners if w is not None], entries_per_table(tournament))
    deal = committed_deal.draw_secret_deal()
    for index, seating in enumerate(seatings):
        alone = len(seating) == 1
        add_round_table(
            session,
            TournamentTableRow(
                tournament_id=tournament.id,
                round=number,
                number=index,
                table_id=None if alone else secrets.token_hex(8),
                entries=list(seating),
                totals=None,
                forfeits=None,
                seed=None if alone else deal.seed,
                nonce=None if alone else deal.nonce,
            ),
        )
    tournament.round = number


async def store_results(session: AsyncSession, rows: Sequence[TournamentTableRow]) -> None:
    """Copy the totals of every one of these tables that is over, and its forfeits: the
    entrants whose seat was left (or never taken before the grace period ended).  At a
    table of pairs entry ``i`` sits at seats ``i`` and ``i + pairs`` and its total is
    its first seat's (a seat's total is its team's); a pair forfeits if either left."""
    waiting = {row.table_id: row for row in rows if row.table_id and row.totals is None}
    if not waiting:
        return
    for table, seats in await finished_tables(session, list(waiting)):
        row = waiting[table.id]
        count = len(row.entries)
        row.totals = [float(t) for t in (table.totals or ())[:count]]
        row.forfeits = sorted({row.entries[s.seat % count] for s in seats if s.left_at is not None})


class Rounds:
    """Moves the events on, round by round, from what the database holds."""

    def __init__(self, *, storage: Storage, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock

    async def move_on(self, tournament_id: str) -> bool:
        """Store the results of the round's finished tables; when the round is over,
        show its deal and plan the next round or end the event.  False: the event is
        not running (nothing to make)."""
        async with self.storage.writing() as session:
            tournament = await locked(session, tournament_id)
            if tournament.status != "running":
                return False
            played = await tables_of(session, tournament_id)
            current = [row for row in played if row.round == tournament.round]
            await store_results(session, current)
            if round_over(current):
                await lift_held_reveals(session, tournament_id)
                if last_round(tournament, current):
                    tournament.status = "over"
                    tournament.finished_at = self.clock.now()
                    log_event(None, "tournament_over", tournament=tournament_id)
                else:
                    await plan_round(session, tournament, tournament.round + 1, played)
                    log_event(None, "tournament_round", tournament=tournament_id)
        return True
