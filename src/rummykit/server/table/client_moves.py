"""Whether a person's move reaches the engine: the table's own refusals, asked before
the engine checks the move.

A move is refused here when its connection speaks for no seat (a watcher, or a seat
its player no longer holds), when the table is not being played, when it was made
against an earlier state, or when a stand-in plays the rest of the mover's turn (the
turn timer ran out; at a turn-based table, the others handed the move over).  This
module decides refusals only; the host plays what passes.
"""

from __future__ import annotations

from typing import Protocol

from rummykit.server.table.broadcast import TableViews
from rummykit.server.table.commands import ClientAction
from rummykit.server.table.parts import TableCore


class MovedTable(TableCore, Protocol):
    """What the check of a person's move asks of its table: to refuse."""

    views: TableViews


def refused(host: MovedTable, command: ClientAction) -> bool:
    """Refuse ``command`` if the table does (the refusal sent to its connection);
    whether it did.  What passes, the engine is to judge."""
    connection = command.connection
    seat = connection.seat
    refuse = host.views.refuse
    if seat is None or not host.seating.may_see(connection, seat):
        refuse(connection, "not_seated", "watchers cannot play")
    elif host.status == "waiting":
        refuse(connection, "table_not_started", "the table is waiting for players")
    elif host.status == "over":
        refuse(connection, "game_over", "the game is over")
    elif command.state_number != host.state_number:
        refuse(
            connection,
            "stale_state",
            f"the table is at state {host.state_number}, not {command.state_number}",
            {"state_number": host.state_number, "sent": command.state_number},
        )
    elif host.turn.timed_out and host.state.current_player == seat:
        refuse(connection, "turn_timed_out", "the turn timer ran out: greedy plays this turn")
    else:
        return False
    return True
