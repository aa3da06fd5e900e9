"""Tournaments on the server: :class:`Tournaments`, the one object a server process
holds for them, takes the requests and moves the events on in the background.

Pairing and standings are the simulator's (:mod:`rummykit.pairings.swiss`,
:mod:`rummykit.pairings.knockout`, :mod:`rummykit.pairings.standings`), so an event of people
and bots here and one of bots from ``rummykit tournament`` follow the same rules.

A tournament's state lives in the database alone (``tournaments``, their entrants and
the ``tournament_tables`` of their rounds), so that any server process may move an
event on and a crash loses nothing.  The work is done by the modules beside this one:

- :mod:`.tournament_registration`: creating an event, entering and withdrawing, and the
  start (entrants numbered, people first in the order they registered, then the bots
  that fill the seats still empty; the first round planned).
- :mod:`.tournament_rounds`: planning a round (every table of it on the same secret
  deal, Mitchell style) and moving on under the tournament's row lock once tables end
  (results and forfeits stored, the round's deal revealed and its tables made public
  only once all of them are over, then the next round or the end).
- :mod:`.tournament_tables`: making the planned tables, each once: a round's plan is
  committed before its tables are made, so a table already made (by another process,
  or before a crash) is never made twice, and one planned but not made is made by the
  next sweep.
- :mod:`.tournament_standings`: results, the Swiss record, knockout winners and the
  standings, worked out from the stored tables (a forfeit places its player last at
  that table: ``TableHost`` counts a seat not taken within the grace period, or left
  during the game, as left).
- :mod:`.tournament_pages`: the list and a tournament's view.
- :mod:`.tournament_rows`: entries, pairs and seats per table, the tournament under
  its lock, and :class:`TournamentError`; the rows themselves are read and written by
  :mod:`rummykit.server.storage.tournaments`.

This module decides *when* things happen and holds no rule of its own: it makes a
round's tables only after the session that planned them is committed.  The sweep,
every ``tournament_sweep_seconds`` in each process, starts the events whose time has
come and moves on any whose tables ended while no process was told (a table ends in
the process that hosts it, which tells this module at once); and it makes the tables
this process hosts follow a round ended elsewhere (public, their deal shown).  Its
time is the server's clock, so a test's fake clock decides when it sweeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from rummykit.server.cancelling import cancel
from rummykit.server.clock import Clock, SystemClock
from rummykit.server.competition.tournament_pages import TournamentPages
from rummykit.server.competition.tournament_registration import Registration
from rummykit.server.competition.tournament_rounds import Rounds
from rummykit.server.competition.tournament_rows import TournamentError
from rummykit.server.competition.tournament_tables import TableMaker
from rummykit.server.protocol.tournaments import (
    CreateTournament,
    TournamentSummary,
    TournamentView,
)
from rummykit.server.settings import Settings
from rummykit.server.storage.models import PlayerRow, TableRow
from rummykit.server.storage.store import Storage
from rummykit.server.storage.tournaments import due_tournaments, running_tournaments
from rummykit.server.table.registry import TableRegistry

CLOSE_GRACE_SECONDS = 10.0
"""How long a closing server waits for a sweep under way (a database cut makes it long)."""


class Tournaments:
    """Every tournament of a server (the same in each of a site's processes)."""

    def __init__(
        self,
        *,
        storage: Storage,
        tables: TableRegistry,
        settings: Settings,
        clock: Clock | None = None,
    ) -> None:
        self.storage = storage
        self.tables = tables
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.registration = Registration(storage=storage, settings=settings, clock=self.clock)
        self.rounds = Rounds(storage=storage, clock=self.clock)
        self.table_maker = TableMaker(storage=storage, tables=tables, clock=self.clock)
        self.pages = TournamentPages(storage=storage)
        self._sweeper: asyncio.Task[None] | None = None
        self._moving: set[asyncio.Task[None]] = set()
        self._closing = False
        self._due = asyncio.Event()  # the sweeper's wait for its next sweep
        tables.finish_listeners.append(self._table_over)

    # -- running in the background ------------------------------------------------------

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="tournaments")

    async def close(self) -> None:
        """Stop sweeping: a sweep under way, and the events being moved on, finish first
        (for :data:`CLOSE_GRACE_SECONDS` at most); cancelled half-way, a statement makes
        SQLAlchemy close its connection, which with aiosqlite can wait for good."""
        self._closing = True
        self._due.set()
        tasks = {t for t in [self._sweeper, *self._moving] if t is not None}
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_GRACE_SECONDS)
        await cancel(tasks)

    def _table_over(self, row: TableRow) -> None:
        if row.tournament_id is not None:
            task = asyncio.create_task(self._advance_logged(row.tournament_id))
            self._moving.add(task)
            task.add_done_callback(self._moving.discard)

    async def _advance_logged(self, tournament_id: str) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:  # the sweep tries again
            logging.getLogger("rummykit.server").exception(
                "tournament=%s event=advance_failed", tournament_id
            )

    async def _sweep_forever(self) -> None:
        """Sweep every ``tournament_sweep_seconds`` of the server's clock."""
        while not self._closing:
            self._due = due = asyncio.Event()  # set by the clock, or by close
            timer = self.clock.call_at(
                self.clock.now() + self.settings.tournament_sweep_seconds, due.set
            )
            try:
                await due.wait()
            finally:
                timer.cancel()
            if self._closing:
                return
            try:
                await self.sweep()
            except Exception:
                logging.getLogger("rummykit.server").exception("event=tournament_sweep_failed")

    async def sweep(self) -> None:
        """Start the events whose start time has come; move on every running one."""
        now = self.clock.now()
        async with self.storage.reading() as session:
            due = await due_tournaments(session, now)
            running = await running_tournaments(session)
        for tournament_id in due:
            with contextlib.suppress(TournamentError):
                await self.start_event(tournament_id, by=None)
        for tournament_id in running:
            await self.advance(tournament_id)
        # a round that ended in another process: this one's tables follow the database
        await self.tables.follow_reveals()

    # -- requests -------------------------------------------------------------------------

    async def create(self, request: CreateTournament, creator: PlayerRow) -> str:
        """Store a new tournament (its creator entered unless ``enter`` is false)."""
        tournament_id = await self.registration.create(request, creator)
        if request.enter:
            await self.register(tournament_id, creator)
        return tournament_id

    async def register(
        self,
        tournament_id: str,
        player: PlayerRow,
        partner: str | None = None,
        pair_token: str | None = None,
    ) -> None:
        """Enter ``player`` (in a tournament of pairs: as the partner of the pair of
        ``partner`` that invited them, or of the pair whose link holds ``pair_token``);
        the event starts when this fills it."""
        if await self.registration.register(tournament_id, player, partner, pair_token):
            await self._open_tables(tournament_id)

    async def invite(self, tournament_id: str, player: PlayerRow, invited: PlayerRow) -> None:
        await self.registration.invite(tournament_id, player, invited)

    async def withdraw(self, tournament_id: str, player: PlayerRow) -> None:
        await self.registration.withdraw(tournament_id, player)

    async def start_event(self, tournament_id: str, *, by: PlayerRow | None) -> None:
        """Start now (``by`` its creator; ``None``: its start time has come)."""
        await self.registration.start(tournament_id, by=by)
        await self._open_tables(tournament_id)

    # -- moving on ------------------------------------------------------------------------

    async def advance(self, tournament_id: str) -> None:
        """Store the results of the round's finished tables; when the round is over,
        show its deal and plan the next round or end the event (the live tables of the
        round follow: public, and their seed told); then make any table planned and not
        made yet."""
        if await self.rounds.move_on(tournament_id):
            await self.tables.follow_reveals(tournament_id)
            await self._open_tables(tournament_id)

    async def _open_tables(self, tournament_id: str) -> None:
        """Make the round's planned tables that do not exist yet (once the session that
        planned them is committed)."""
        await self.table_maker.open_tables(tournament_id)

    # -- what the pages show ---------------------------------------------------------------

    async def listing(self) -> list[TournamentSummary]:
        """The tournaments still to be played (newest first), then the latest ones over."""
        return await self.pages.listing()

    async def view(self, tournament_id: str, player_id: str | None) -> TournamentView:
        return await self.pages.view(tournament_id, player_id)
