"""Seats and presence at one table: who holds each seat, which connections speak for
it, who watches, and who is away.

The rule this module keeps: a connection is in a seat's set exactly when its player
holds that seat now.  :meth:`Seating.bind` decides a connection's seat from the seats
as they are when the host handles the connection (never from anything the client or
the transport said), and :meth:`Seating.rebind` moves every connection of a player
whose seat changed.  :meth:`Seating.may_see` is asked before any seat's view is sent.
It changes nothing in storage: the host stores a seat change first, then tells it here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from rummykit.server.bots.names import computer_name
from rummykit.server.clock import Clock, Timer
from rummykit.server.protocol.messages import PlayerInfo
from rummykit.server.storage.models import SeatRow
from rummykit.server.table.connection import Connection


@dataclass
class SeatState:
    """A seat at a live table."""

    index: int
    kind: Literal["human", "bot"]
    level: str | None
    player_id: str | None
    name: str
    connections: set[Connection] = field(default_factory=set)
    # a human seat whose player is gone past the grace period (or left a game under
    # way): a substitute plays it until the player comes back
    away: bool = False
    grace: Timer | None = None
    # whether the seat's player has come to the table (stored at a tournament's table,
    # where a player who never came forfeits: a restart must not forget it)
    seen: bool = False
    # a rematch's seat is kept for the player who held it at the finished table
    kept_for: str | None = None
    # turns in a row a stand-in (the turn timer's or a substitute) played for the
    # person, and whether the seat counts as abandoned (``abandonment.py``)
    stand_in_turns: int = 0
    gone: bool = False

    @property
    def occupied(self) -> bool:
        return self.kind == "bot" or self.player_id is not None

    def cancel_grace(self) -> None:
        if self.grace is not None:
            self.grace.cancel()
            self.grace = None


def seat_name(row: SeatRow) -> str:
    if row.kind == "bot":
        return row.name or computer_name(row.level)
    return row.name or ""


class Seating:
    """The seats, watchers and presence of one table."""

    def __init__(self, rows: list[SeatRow], *, clock: Clock, since: float) -> None:
        self.seats = [
            SeatState(
                index=row.seat,
                kind="bot" if row.kind == "bot" else "human",
                level=row.level,
                player_id=row.player_id,
                name=seat_name(row),
                # a player who left the game under way stays away after a restart
                away=row.kind == "human" and row.left_at is not None,
                kept_for=row.kept_for,
                seen=row.came_at is not None,
            )
            for row in rows
        ]
        self.watchers: set[Connection] = set()
        self.clock = clock
        # when a seated player was last known to be at the table: its creation, a seat
        # taken or left, a seat's last connection closed (see awaits_players)
        self.present_at = since

    def __getitem__(self, index: int) -> SeatState:
        return self.seats[index]

    def __iter__(self) -> Iterator[SeatState]:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    @property
    def full(self) -> bool:
        return all(seat.occupied for seat in self.seats)

    def free_for(self, player_id: str) -> list[SeatState]:
        """The free human seats ``player_id`` may take, the one kept for them first (a
        seat kept for someone else is not among them)."""
        free = [
            seat
            for seat in self.seats
            if seat.kind == "human"
            and seat.player_id is None
            and seat.kept_for in (None, player_id)
        ]
        return sorted(free, key=lambda seat: seat.kept_for is None)

    def seat_of(self, player_id: str) -> int | None:
        """The human seat ``player_id`` holds now."""
        for seat in self.seats:
            if seat.kind == "human" and seat.player_id == player_id:
                return seat.index
        return None

    # -- connections --------------------------------------------------------------------

    def bind(self, connection: Connection) -> SeatState | None:
        """Put ``connection`` with the seat its player holds now (or with the watchers);
        that seat, if any."""
        index = self.seat_of(connection.player_id)
        connection.seat = index
        connection.attached = True
        if index is None:
            self.watchers.add(connection)
            return None
        seat = self.seats[index]
        seat.connections.add(connection)
        return seat

    def unbind(self, connection: Connection) -> SeatState | None:
        """Take ``connection`` away from its seat or the watchers; the seat it left."""
        self.watchers.discard(connection)
        seat = None if connection.seat is None else self.seats[connection.seat]
        if seat is not None:
            seat.connections.discard(connection)
        connection.seat = None
        return seat

    def rebind(self, player_id: str) -> list[Connection]:
        """Bind every connection of ``player_id`` again after its seat changed: the
        connections whose seat changed (each needs a whole new view)."""
        moved = []
        for connection in self.connections():
            if connection.player_id != player_id:
                continue
            before = connection.seat
            self.unbind(connection)
            self.bind(connection)
            if connection.seat != before:
                moved.append(connection)
        return moved

    def may_see(self, connection: Connection, seat: int) -> bool:
        """Whether ``connection`` may be sent ``seat``'s hidden cards now: its player
        holds that seat, and the connection is bound to it."""
        holder = self.seats[seat]
        return (
            holder.kind == "human"
            and holder.player_id == connection.player_id
            and connection.seat == seat
            and connection in holder.connections
        )

    def connections(self) -> list[Connection]:
        found = list(self.watchers)
        for seat in self.seats:
            found.extend(seat.connections)
        return found

    def has_connections(self) -> bool:
        return bool(self.watchers) or any(seat.connections for seat in self.seats)

    def close_all(self) -> None:
        for seat in self.seats:
            seat.cancel_grace()
        for connection in self.connections():
            connection.close()

    # -- presence -----------------------------------------------------------------------

    def start_grace(self, seat: SeatState, seconds: float, expired: Callable[[], None]) -> None:
        """Call ``expired`` once ``seat`` has had no connection for ``seconds``."""
        if seat.grace is not None or seat.away:
            return
        seat.grace = self.clock.call_at(self.clock.now() + seconds, expired)

    def awaits_players(self, grace_seconds: float) -> bool:
        """Whether a waiting table is listed: whoever holds a seat is at it, or was
        within the grace period.  One whose seated players closed their pages drops
        from the list until one of them returns; one with no one seated is open to
        anyone."""
        seated = [seat for seat in self.seats if seat.kind == "human" and seat.player_id]
        if not seated or any(seat.connections for seat in seated):
            return True
        return self.clock.now() - self.present_at < grace_seconds

    # -- views --------------------------------------------------------------------------

    def players(self) -> list[PlayerInfo]:
        return [
            PlayerInfo(
                seat=seat.index,
                name=seat.name,
                kind=seat.kind,
                level=seat.level,
                connected=seat.kind == "bot" or bool(seat.connections),
                substitute=seat.kind == "human" and seat.away,
                gone=seat.gone,
                kept=seat.player_id is None and seat.kept_for is not None,
            )
            for seat in self.seats
        ]

    def rows(self, table_id: str) -> list[SeatRow]:
        """The seats as the database holds them now (each seat change is stored first)."""
        return [
            SeatRow(
                table_id=table_id,
                seat=seat.index,
                kind=seat.kind,
                level=seat.level,
                player_id=seat.player_id,
                name=seat.name if seat.kind == "human" and seat.player_id is not None else None,
                kept_for=seat.kept_for,
            )
            for seat in self.seats
        ]
