"""Who is at a table: connections coming and going, and a person's grace period.

A connection is attached once its player may watch (a public table, a seat here or kept
here for them, or the invitation link): it is bound to its player's seat if they hold
one, else it watches, and it is sent the state, the chat and, after the game, the result.
When a seat's last connection goes, a grace period starts; past it a substitute plays
the seat (at a tournament's table a player who never came forfeits).  This module
decides presence only: what each connection may see is the views' to check at sending.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.messages import ErrorMessage, RematchOffer
from rummykit.server.table.abandonment import Abandonment
from rummykit.server.table.bot_driver import BotDriver
from rummykit.server.table.broadcast import RECENT_EVENTS, TableViews
from rummykit.server.table.commands import GraceExpired
from rummykit.server.table.connection import Connection
from rummykit.server.table.ending import GameEnd
from rummykit.server.table.parts import TableCore
from rummykit.server.table.seating import SeatState
from rummykit.server.table.talk import TableTalk


class PresentTable(TableCore, Protocol):
    """What presence asks of its table: its parts that send, and its lingering."""

    views: TableViews
    bots: BotDriver
    talk: TableTalk
    ending: GameEnd
    abandonment: Abandonment
    rematch: RematchOffer | None

    def linger_if_idle(self) -> None: ...

    def awaits_players(self) -> bool: ...

    async def player_back(self) -> None: ...

    def cancel_linger(self) -> None: ...


class Presence:
    """The connections and the absent players of one table."""

    def __init__(self, host: PresentTable) -> None:
        self.host = host

    def may_watch(self, player_id: str, token: str | None) -> bool:
        """Whether ``player_id`` may watch: a public table, a seat here (or kept here for
        them), or the token."""
        host = self.host
        if not host.row.private or host.seating.seat_of(player_id) is not None:
            return True
        if any(seat.kept_for == player_id for seat in host.seating):
            return True
        return host.row.invites(token)

    async def attach(self, connection: Connection) -> None:
        host = self.host
        if connection.closed:
            return
        if not self.may_watch(connection.player_id, connection.token):
            connection.send(
                ErrorMessage(code="private_table", message="this table is private: use its link")
            )
            connection.close()
            return
        host.cancel_linger()
        left_out = host.status == "waiting" and not host.awaits_players()
        seat = host.seating.bind(connection)
        if seat is None:
            log_event(host.table_id, "watcher_joined", player=connection.player_id)
            host.views.send_state(connection, recent=True)
        else:
            was_present = len(seat.connections) > 1 and not seat.away
            if not seat.seen and host.row.tournament_id is not None:
                # stored first: after a restart the player still came (no forfeit)
                await host.storage.mark_came(host.table_id, seat.index, host.clock.now())
            seat.seen = True
            seat.cancel_grace()
            if seat.away:  # back from an absence: no longer gone
                seat.stand_in_turns = 0
            seat.away = False
            host.abandonment.mark()
            if left_out:  # every lobby lists the table again before its player sees it
                await host.player_back()
            log_event(host.table_id, "connected", seat=seat.index, player=connection.player_id)
            if was_present:
                host.views.send_state(connection, recent=True)
            else:
                connection.events_sent = max(0, len(host.state.events) - RECENT_EVENTS)
                host.views.broadcast()
                host.bots.after_change()
        history = host.talk.history()
        if history is not None:  # a reload shows the conversation again
            connection.send(history)
        if host.status == "over":  # a late arrival learns the result and the seed too
            connection.send(host.ending.message())
            if host.rematch is not None and seat is not None:
                connection.send(host.rematch)

    def signed_out(self, player_id: str, result: asyncio.Future[None]) -> None:
        """Close every connection of ``player_id``'s here, then answer."""
        for connection in self.host.seating.connections():
            if connection.player_id == player_id:
                self.detach(connection)
        if not result.done():
            result.set_result(None)

    def detach(self, connection: Connection) -> None:
        host = self.host
        connection.close()
        if not connection.attached:
            return
        seat = host.seating.unbind(connection)
        if seat is not None:
            log_event(host.table_id, "disconnected", seat=seat.index)
            if not seat.connections:
                host.seating.present_at = host.clock.now()
                if host.status == "playing":
                    self.start_grace(seat)
                    host.views.broadcast()
        host.linger_if_idle()

    def start_grace(self, seat: SeatState) -> None:
        """Start the grace period of a seat whose player has no connection (none at a
        turn-based table: its players come and go over days)."""
        host = self.host
        if host.row.days_per_move is not None:
            return
        index = seat.index
        host.seating.start_grace(
            seat, host.settings.grace_seconds, lambda: host.submit(GraceExpired(index))
        )

    async def grace_expired(self, index: int) -> None:
        """A substitute takes the seat of a player away past the grace period; at a
        tournament's table a player who never came forfeits (counted as having left)."""
        host = self.host
        seat = host.seating[index]
        seat.grace = None
        if seat.connections or host.status != "playing":
            return
        seat.away = True
        host.abandonment.mark()
        if await host.abandonment.abort_if_deserted():
            return
        if host.row.tournament_id is not None and not seat.seen:
            await host.storage.mark_left(
                host.table_id, index, host.clock.now(), lease=host.write_lease()
            )
            log_event(host.table_id, "forfeited", seat=index)
        log_event(host.table_id, "substitute_on", seat=index)
        host.views.broadcast()
        host.bots.after_change()
