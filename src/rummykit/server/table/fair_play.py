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
"""

from __future__ import annotations

from rummykit.server.protocol.messages import LastAction
from rummykit.server.storage.models import TableRow


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
