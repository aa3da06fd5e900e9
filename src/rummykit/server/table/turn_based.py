"""Turn-based play at one table (a game over days): what happens as its turns pass and
when a mover's time runs out.

A turn-based table's clock is its :class:`~rummykit.server.table.turn_clock.TurnClock`
with a time per move of days, derived from stored times like any other.  This module
adds what a game over days needs beside it:

- **Whose turn, for the lobby.**  Each time the turn passes the table's row is told
  the seat to move and since when (``turn_seat``, ``turn_since``), written by one
  writer task that always writes the newest turn, under the table's lease.  The row
  only follows the host (a restored host writes it again).
- **Listeners.**  When the turn passes to a person, ``on_turn(row, seat, player_id)``
  is called; when a person's time runs low (a quarter of the time per move left, at
  most ``turn_low_hours``), ``on_low_time(row, seat, player_id)``, once a turn.  Both
  are called only at turn-based tables, from the host's task; they must not block.
- **Vacations.**  The mover's clock stands still while they are on vacation: their
  vacations are read from the database when the turn begins, when a connection comes,
  when they declare one (in any process: the site tells every worker) and when the
  timer rings.
- **Time out.**  When the mover's time would run out and a day of their vacation
  allowance is left, that day is taken (``vacations.py``) and the clock waits.  Else
  nobody plays for them at once: the turn is *expired*, the mover's seat counts as gone
  (``abandonment.py``), and the other players choose.  A player of another side may
  ``claim`` the win (a rated game is then lost by the late player's side); any other
  seated person may instead let a stand-in play that move (``substitute``).  Until one
  of them chooses, the late player may still move.  A stand-in's first move of the turn
  is stored with actor ``timeout``, so a restored table knows the choice was made.

It never decides a move and never writes anything but the row's turn index.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from rummykit.server.clock import Timer
from rummykit.server.operations.events_log import log_event
from rummykit.server.storage.models import TableRow
from rummykit.server.table.abandonment import Abandonment
from rummykit.server.table.bot_driver import BotDriver
from rummykit.server.table.broadcast import TableViews
from rummykit.server.table.commands import (
    ClientSubstitute,
    LowTime,
    PausesRead,
    TimerFired,
    TurnRanOut,
)
from rummykit.server.table.connection import Connection
from rummykit.server.table.parts import TableCore
from rummykit.server.table.turn_clock import run_out_at
from rummykit.server.table.vacations import take_a_day

TurnListener = Callable[[TableRow, int, str], None]
"""Told ``(table row, seat, player id)`` of a person at a turn-based table."""

DAY = 86_400.0
RETRY_SECONDS = 60.0


class TurnBasedTable(TableCore, Protocol):
    """What turn-based play asks of its table: send, play a stand-in, mark who is gone,
    and tell its listeners."""

    views: TableViews
    bots: BotDriver
    abandonment: Abandonment
    on_turn: TurnListener | None
    on_low_time: TurnListener | None


class TurnBasedPlay:
    """The turn-based part of one table (inert at a live table)."""

    def __init__(self, host: TurnBasedTable) -> None:
        self.host = host
        self.applies = host.row.days_per_move is not None
        # the turn the row's index shows, and the one it should show
        self._written: tuple[int | None, float | None] = (host.row.turn_seat, host.row.turn_since)
        self._wanted = self._written
        self._idle = asyncio.Event()  # no write under way
        self._idle.set()
        self._low: Timer | None = None
        self._low_key: int | None = None
        self._told_low: int | None = None  # the turn whose low time was told
        self._retry: Timer | None = None
        # the deadline the turn timer was last armed for here
        self._armed_for: float | None = None

    def handle(self, command: ClientSubstitute | LowTime | PausesRead | TurnRanOut) -> None:
        """A command of turn-based play, from the host's inbox."""
        match command:
            case ClientSubstitute(connection):
                self.substitute(connection)
            case LowTime(key):
                self.low_time(key)
            case PausesRead(key, pauses):
                self.pauses_read(key, pauses)
            case TurnRanOut(key):
                self.expired(key)

    def resume(self) -> None:
        """A restored table plays on: its index and its mover's vacations as stored.  Its
        listeners are told the turn again, and its time running low if it already is: a
        process that stopped between a move's write and its notice leaves the notice to
        the table's next host (the notices are keyed by the turn, so told once)."""
        self.sync()
        self.refresh()
        self._tell_turn()

    # -- the lobby's index -------------------------------------------------------------

    def sync(self) -> None:
        """Have the row show the turn as it is now: the host's copy at once, the
        database's by one writer task (newest last)."""
        if not self.applies:
            return
        host = self.host
        playing = host.status == "playing"
        self._wanted = (
            host.mover() if playing else None,
            host.turn.turn_started_at if playing else None,
        )
        host.row.turn_seat, host.row.turn_since = self._wanted
        if self._wanted != self._written and self._idle.is_set():
            self._idle.clear()
            host.spawn(self._write(), statement=True)

    async def written(self) -> None:
        """Wait until the database's row shows the turn (or its write failed)."""
        await self._idle.wait()

    async def _write(self) -> None:
        host = self.host
        try:
            while self._wanted != self._written:
                seat, since = wanted = self._wanted
                await host.storage.note_turn(host.table_id, seat, since, lease=host.write_lease())
                self._written = wanted
        except Exception as error:  # the row lags; a restored host writes it again
            log_event(host.table_id, "turn_index_failed", level=logging.WARNING, error=repr(error))
        finally:
            self._idle.set()

    # -- turns -------------------------------------------------------------------------

    def _person_to_move(self) -> tuple[int, str] | None:
        host = self.host
        seat = host.mover()
        if seat is None:
            return None
        state = host.seating[seat]
        if state.kind != "human" or state.player_id is None or state.away:
            return None
        return seat, state.player_id

    def turn_passed(self) -> None:
        """A new turn began (a move passed it, or the game started): index it and tell
        the listeners if a person is to move."""
        if not self.applies:
            return
        self.sync()
        self._cancel_low()
        self.refresh()
        self._tell_turn()

    def _tell_turn(self) -> None:
        person = self._person_to_move()
        if self.applies and person is not None and self.host.on_turn is not None:
            self.host.on_turn(self.host.row, *person)

    def arm_low_time(self) -> None:
        """Arm this turn's warning that time runs low (once a turn; none if past)."""
        host = self.host
        deadline = host.turn.deadline()
        if not self.applies or deadline is None or self._low_key == host.turn.turn_key:
            return
        self._cancel_low()
        days = host.row.days_per_move or 1
        before = min(host.settings.turn_low_hours * 3600.0, days * DAY / 4)
        at = deadline - before
        key = host.turn.turn_key
        self._low_key = key
        if at > host.clock.now():
            self._low = host.clock.call_at(at, lambda: host.submit(LowTime(key)))
        else:  # low already (a restored table): told now, once by its key
            host.submit(LowTime(key))

    def _cancel_low(self) -> None:
        if self._low is not None:
            self._low.cancel()
        self._low = None
        self._low_key = None

    def low_time(self, key: int) -> None:
        """The warning of turn ``key`` rang: tell the listeners, if it is still on."""
        host = self.host
        self._low = None
        if host.status != "playing" or key != host.turn.turn_key or host.turn.expired:
            return
        if key == self._told_low:
            return
        self._told_low = key
        person = self._person_to_move()
        if person is not None and host.on_low_time is not None:
            log_event(host.table_id, "time_low", seat=person[0])
            host.on_low_time(host.row, *person)

    def stop(self) -> None:
        self._cancel_low()
        if self._retry is not None:
            self._retry.cancel()

    # -- vacations ---------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the mover's vacations again; they come back as :class:`PausesRead`."""
        host = self.host
        person = self._person_to_move()
        if not self.applies or host.status != "playing" or person is None:
            return
        key, since, player_id = host.turn.turn_key, host.turn.turn_started_at, person[1]

        async def read() -> None:
            found = await host.storage.vacations_of([player_id], since)
            host.submit(PausesRead(key, found.get(player_id, [])))

        host.spawn(read(), statement=True)

    def pauses_read(self, key: int, pauses: list[tuple[float, float]]) -> None:
        """The mover's vacations of turn ``key``: the deadline follows them."""
        host = self.host
        turn = host.turn
        if host.status != "playing" or key != turn.turn_key or turn.expired:
            return
        changed = pauses != turn.pauses
        turn.pauses = pauses
        if changed or turn.deadline() != self._armed_for:
            self._arm()
            if changed:
                host.views.broadcast()

    def _arm(self) -> None:
        host = self.host
        if host.bots.controller(host.mover() or 0) is not None:
            return  # a bot or a stand-in plays: no clock to keep
        self._armed_for = host.turn.deadline()
        host.turn.rearm(lambda key: host.submit(TimerFired(key)))
        self._cancel_low()
        self.arm_low_time()

    def ring(self, key: int) -> None:
        """The timer of turn ``key`` rang: the mover's vacations are read again, a day of
        their allowance is taken if one is left, else the turn is expired."""
        host = self.host
        turn = host.turn
        person = self._person_to_move()
        if host.status != "playing" or key != turn.turn_key:
            return
        if person is None:
            self.expired(key)
            return
        since, seconds, player_id = turn.turn_started_at, turn.turn_seconds or 0.0, person[1]

        async def check() -> None:
            storage = host.storage
            try:
                pauses = (await storage.vacations_of([player_id], since)).get(player_id, [])
                at = run_out_at(since, seconds, pauses)
                now = host.clock.now()
                # a day at a time, for as long as the allowance lasts (a server that was
                # down for days takes the days its players were away)
                while at <= now and await take_a_day(storage, player_id, at, now, host.settings):
                    log_event(host.table_id, "vacation_taken", player=player_id, at=at)
                    found = await storage.vacations_of([player_id], since)
                    pauses = found.get(player_id, [])
                    later = run_out_at(since, seconds, pauses)
                    if later <= at:
                        break
                    at = later
            except Exception as error:  # try again a little later
                log_event(
                    host.table_id, "vacation_unread", level=logging.WARNING, error=repr(error)
                )
                later = host.clock.now() + RETRY_SECONDS
                self._retry = host.clock.call_at(later, lambda: host.submit(TimerFired(key)))
                return
            host.submit(PausesRead(key, pauses) if at > now else TurnRanOut(key))

        host.spawn(check(), statement=True)

    # -- time out ----------------------------------------------------------------------

    def expired(self, key: int) -> None:
        """The timer of turn ``key`` rang: the turn is expired, if it is still on; the
        late seat is gone until the others choose or the turn passes."""
        host = self.host
        if host.status != "playing" or not host.turn.rang(key):
            return
        log_event(host.table_id, "turn_expired", seat=host.mover())
        host.abandonment.mark()
        host.views.broadcast()

    def substitute(self, connection: Connection) -> None:
        """Let a stand-in play the expired move: asked by a seated person other than the
        late player, while the turn is expired and nobody plays it yet."""
        host = self.host
        seat = connection.seat
        mover = host.mover()
        if (
            not self.applies
            or host.status != "playing"
            or not host.turn.expired
            or host.turn.timed_out
            or seat is None
            or seat == mover
            or not host.seating.may_see(connection, seat)
        ):
            host.views.refuse(
                connection,
                "nothing_to_substitute",
                "the time of the player to move has not run out",
            )
            return
        log_event(host.table_id, "stand_in_chosen", seat=mover, by=seat)
        host.turn.hand_over()
        host.abandonment.mark()
        host.bots.after_change()
        host.views.broadcast()
