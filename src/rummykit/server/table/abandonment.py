"""Abandonment of a rated or tournament game: who is gone, the win claimed over them, and
the abort of a game nobody plays any more.

At a rated table, at a tournament's, and at a turn-based one, a person is *gone* while
they are away past the grace period (at a tournament's, that includes a player who never
came), or once a stand-in (the turn timer's or a substitute) has played their last
``abandon_turns`` turns in a row; their next own move, or their return, brings them
back.  Short absences stay the substitute's to play.  While a seat of another side is
gone, a present player may claim the win: the game ends at once with their side the
winner, the sides that are gone placed last (as leavers: rated so, and forfeiting at a
tournament's table), and says it was ``abandoned``.  When every person at the table has
left (away, or their turns played by a stand-in) the game is ``aborted``: it ends
unrated and nobody wins (at a tournament's table every person forfeits).  Casual live
tables play on as before.

At a turn-based table (casual or rated) the same holds, but nobody is away for being
disconnected (players come and go over days), and a mover whose time per move ran out
is gone too until the turn passes or the others hand the move to a stand-in
(``turn_based.py``); such a lateness alone never aborts a game.
"""

from __future__ import annotations

from typing import Protocol

from rummykit.server.operations.events_log import log_event
from rummykit.server.table.broadcast import TableViews
from rummykit.server.table.commands import Actor
from rummykit.server.table.connection import Connection
from rummykit.server.table.ending import GameEnd
from rummykit.server.table.parts import TableCore

STAND_INS: frozenset[Actor] = frozenset({"timeout", "substitute"})


class AbandonedTable(TableCore, Protocol):
    """What abandonment asks of its table: to send, and to end its game."""

    views: TableViews
    ending: GameEnd


class Abandonment:
    """Keeps each seat's ``gone`` mark of one table, and ends its game when asked."""

    def __init__(self, host: AbandonedTable) -> None:
        self.host = host

    @property
    def applies(self) -> bool:
        """Whether the table's game can be abandoned: a rated one, a tournament's, or a
        turn-based one."""
        row = self.host.row
        return bool(row.rated) or row.tournament_id is not None or row.days_per_move is not None

    def moved(self, seat: int, actor: Actor, turn_ended: bool) -> None:
        """Count a move of ``seat``'s: a person's own brings them back, a stand-in's
        that ends their turn counts towards abandonment."""
        state = self.host.seating[seat]
        if state.kind != "human":
            return
        if actor == "human":
            state.stand_in_turns = 0
        elif actor in STAND_INS and turn_ended:
            state.stand_in_turns += 1
        self.mark()

    def mark(self) -> None:
        """Mark every seat gone or not as it stands now."""
        host = self.host
        turn = host.turn
        late = host.mover() if turn.expired and not turn.timed_out else None
        for seat in host.seating:
            seat.gone = self.applies and (self._left(seat.index) or seat.index == late)

    def _left(self, index: int) -> bool:
        """Whether the person of seat ``index`` left: away, or a stand-in played their
        last ``abandon_turns`` turns."""
        seat = self.host.seating[index]
        limit = self.host.settings.abandon_turns
        return seat.kind == "human" and (seat.away or seat.stand_in_turns >= limit)

    def _side(self, seat: int) -> int:
        team_of = self.host.game.team_of
        return seat if team_of is None else team_of(seat)

    async def claim(self, connection: Connection) -> None:
        """End the game as won by the claimer's side over the sides that are gone."""
        host = self.host
        seat = connection.seat
        self.mark()
        gone = [s.index for s in host.seating if s.gone]
        if (
            host.status != "playing"
            or seat is None
            or not host.seating.may_see(connection, seat)
            or host.seating[seat].gone
            or not any(self._side(g) != self._side(seat) for g in gone)
        ):
            host.views.refuse(
                connection, "nothing_to_claim", "no other side has abandoned this game"
            )
            return
        side = self._side(seat)
        winners = [s.index for s in host.seating if self._side(s.index) == side]
        log_event(host.table_id, "win_claimed", seat=seat, gone=gone)
        await host.ending.finish(
            host.clock.now(), ended_by="abandoned", winners=winners, gone=tuple(gone)
        )

    async def abort_if_deserted(self) -> bool:
        """End the game unrated when every person at the table is gone; whether it was."""
        host = self.host
        people = [s for s in host.seating if s.kind == "human"]
        if (
            host.status != "playing"
            or not self.applies
            or not people
            or not all(self._left(s.index) for s in people)
        ):
            return False
        log_event(host.table_id, "aborted")
        # at a tournament's table every person forfeits (left, placed last)
        gone = tuple(s.index for s in people) if host.row.tournament_id is not None else ()
        await host.ending.finish(host.clock.now(), ended_by="aborted", winners=[], gone=gone)
        return True
