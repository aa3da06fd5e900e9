"""Seats taken and given up through the lobby: a table's ``Join`` and ``Leave``.

A person takes a seat of a waiting table (any free one, or the one they name; a seat
kept for a player only by that player), and the last free seat starts the game in the
same transaction.  Giving up a seat frees it while the table waits, and marks the
player as having left once the game is played (a substitute plays on).  The answer goes
back through the command's future; a refusal is a :class:`TableError`.  This module
never decides who a connection speaks for (the seating does, when the host rebinds).
"""

from __future__ import annotations

from functools import partial
from typing import Protocol

from rummykit.server.bots.admission import admit_turn_based_seat
from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.account_links import window_start
from rummykit.server.storage.errors import StorageError
from rummykit.server.storage.player_locks import holding_player
from rummykit.server.table.bot_driver import BotDriver
from rummykit.server.table.broadcast import RECENT_EVENTS, TableViews
from rummykit.server.table.commands import Join, Leave
from rummykit.server.table.parts import TableCore


class JoinedTable(TableCore, Protocol):
    """What seat requests ask of their table: send, wake its bots, start its game."""

    views: TableViews
    bots: BotDriver

    def may_watch(self, player_id: str, token: str | None) -> bool: ...

    def started(self, at: float) -> None: ...


class SeatRequests:
    """Joins and leaves of one table."""

    def __init__(self, host: JoinedTable) -> None:
        self.host = host

    async def join(self, command: Join) -> None:
        if command.result.done():
            return
        try:
            seat = await self._take_seat(command)
        except TableError as error:
            command.result.set_exception(error)
            return
        command.result.set_result(seat)

    async def _take_seat(self, command: Join) -> int:
        host = self.host
        existing = host.seating.seat_of(command.player_id)
        if existing is not None:
            return existing
        if host.status != "waiting":
            raise TableError("table_started", "the game has started; you can watch it")
        free = host.seating.free_for(command.player_id)
        if command.seat is not None:
            if not 0 <= command.seat < len(host.seating):
                raise TableError("no_such_seat", "there is no such seat", {"seat": command.seat})
            chosen = [s for s in free if s.index == command.seat]
            if not chosen:
                raise TableError("seat_taken", "that seat is not free", {"seat": command.seat})
            seat = chosen[0]
        elif free:
            seat = free[0]
        else:
            raise TableError("table_full", "every seat is taken")
        if host.row.rated:
            await _refuse_linked(host, command.player_id)
        at = host.clock.now()
        # the last free seat starts the game, in the same transaction
        starts = all(s.occupied for s in host.seating if s is not seat)
        if not await self._store_seat(command, seat.index, at if starts else None):
            raise TableError("seat_taken", "that seat is not free", {"seat": seat.index})
        seat.player_id = command.player_id
        seat.name = command.name
        host.seating.present_at = at
        log_event(host.table_id, "seat_taken", seat=seat.index, player=command.player_id)
        for connection in host.seating.rebind(command.player_id):
            connection.events_sent = max(0, len(host.state.events) - RECENT_EVENTS)
        if starts:
            host.started(at)
        host.views.broadcast()
        host.bots.after_change()
        return seat.index

    async def _store_seat(self, command: Join, index: int, start_at: float | None) -> bool:
        """Store the seat taken; at a turn-based table under the player's lock, after
        checking in the same transaction that the player may have one more
        (``too_many_turn_based``: joins in any process are admitted one at a time)."""
        host = self.host
        store = host.storage
        take = partial(
            store.take_seat,
            host.table_id,
            index,
            command.player_id,
            command.name,
            start_at=start_at,
            lease=host.write_lease(),
        )
        if host.row.days_per_move is None:
            return await take()
        async with holding_player(store, command.player_id) as session:
            await admit_turn_based_seat(session, command.player_id, host.settings)
            return await take(session=session)

    async def leave(self, command: Leave) -> None:
        host = self.host
        index = host.seating.seat_of(command.player_id)
        if index is None:
            command.result.set_exception(TableError("not_seated", "you have no seat here"))
            return
        seat = host.seating[index]
        if host.status == "waiting":
            freed = await host.storage.free_seat(
                host.table_id, index, command.player_id, lease=host.write_lease()
            )
            if not freed:  # the database seats someone else: this memory is stale
                raise StorageError(f"table {host.table_id}: seat {index} is not theirs")
            seat.player_id = None
            seat.name = ""
            host.seating.present_at = host.clock.now()
            for connection in host.seating.rebind(command.player_id):
                if not host.may_watch(connection.player_id, connection.token):
                    host.seating.unbind(connection)
                    connection.close()
        elif host.status == "playing":
            await host.storage.mark_left(
                host.table_id, index, host.clock.now(), lease=host.write_lease()
            )
            seat.away = True
            seat.cancel_grace()
        log_event(host.table_id, "left", seat=index)
        command.result.set_result(None)
        host.views.broadcast()
        host.bots.after_change()


async def _refuse_linked(host: JoinedTable, player_id: str) -> None:
    """Refuse a seat at a rated table to an account linked to one seated there (one
    browser's: ``accounts/links.py``).  The table takes its joins one at a time, so two
    linked accounts racing for its seats cannot both sit."""
    seated = [s.player_id for s in host.seating if s.player_id is not None]
    since = window_start(host.clock.now(), host.settings.link_days)
    if await host.storage.linked_to(player_id, seated, since=since):
        raise TableError(
            "linked_account", "an account linked to yours already sits at this rated table"
        )
