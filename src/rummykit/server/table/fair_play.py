"""Fair play at a table: when hints may be asked for, and who hears a bot's reason.

**Hints.**  A hint is the strongest bot's move; while a rated or tournament game is
played nobody gets one (the host refuses with ``hint_not_allowed``, and every ``state``
message says ``hints: false`` so a client hides its hint button instead of guessing
from the table's rules).  Casual tables and games against the computer keep hints, and
the review of a finished game stays for everyone.

**Reasons.**  A bot's reason for a move (a substitute's, a timed-out turn's or a bot
seat's own) is worked out from that seat's hand: "it leaves the least deadwood, 28"
tells the hand.  The reason therefore goes to that seat's own connections only; every
other seat and every watcher is sent the move without it (:func:`last_action_for`).
The move itself is what every seat sees played.

**Focus.**  At a rated or tournament table the page says when it lost the player's
attention during their turn (``focus_lost``); the first time in a turn is stored
(:class:`FocusLosses`) for the fair-play assessment, and nobody is told.  Anything else
(another turn, a watcher, a casual table, the same turn again) is dropped without a
word or a write.
"""

from __future__ import annotations

from rummykit.server.protocol.messages import LastAction
from rummykit.server.storage.models import TableRow
from rummykit.server.table.commands import ClientFocusLost
from rummykit.server.table.parts import TableCore


def hints_allowed(row: TableRow) -> bool:
    """Whether the players of the table ``row`` may ask for hints: not at a rated table
    nor at a tournament's, yes at any other (casual tables, games against bots)."""
    return not row.rated and row.tournament_id is None


def last_action_for(last: LastAction | None, seat: int | None) -> LastAction | None:
    """``last`` as seat ``seat`` (``None``: a watcher) may be sent it: with its reason
    only for the seat that made the move, else without it.

    >>> move = LastAction(seat=1, action="discard 9h", actor="substitute", reason="it leaves 28")
    >>> last_action_for(move, 1) is move
    True
    >>> last_action_for(move, 0).reason is None, last_action_for(move, None).reason is None
    (True, True)
    """
    if last is None or last.reason is None or seat == last.seat:
        return last
    return last.model_copy(update={"reason": None})


class FocusLosses:
    """The turns of one table in which a player's page lost focus, stored once each."""

    def __init__(self, host: TableCore) -> None:
        self.host = host
        self._counted: set[tuple[int, int]] = set()

    async def lost(self, command: ClientFocusLost) -> None:
        host = self.host
        seat = command.connection.seat
        turn = (seat, command.state_number) if seat is not None else None
        if (
            turn is None
            or hints_allowed(host.row)
            or host.status != "playing"
            or seat != host.mover()
            or command.state_number != host.state_number
            or turn in self._counted
        ):
            return
        self._counted.add(turn)
        await host.storage.record_focus_loss(host.table_id, turn[0], turn[1])
