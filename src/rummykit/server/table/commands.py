"""What a table host's inbox carries: every change to a table is one of these.

Commands from clients carry their :class:`~rummykit.server.table.connection.Connection`,
never a seat: the host decides which seat (if any) a connection speaks for when it
handles the command.  Commands that answer a caller (``Join``, ``Leave``) carry a
future the host resolves.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from rummykit.server.protocol.refusals import TableError
from rummykit.server.table.connection import Connection

Actor = Literal["human", "bot", "timeout", "substitute"]


@dataclass(frozen=True)
class Attach:
    """A new connection: the host seats it if its player holds a seat, else it watches
    (a private table's watcher needs the invitation token)."""

    connection: Connection


@dataclass(frozen=True)
class Detach:
    connection: Connection


@dataclass(frozen=True)
class ClientAction:
    """A person's move, with when it was received (``time.perf_counter``; 0: unknown)."""

    connection: Connection
    state_number: int
    action: str
    received_at: float = 0.0


@dataclass(frozen=True)
class ClientChat:
    connection: Connection
    text: str
    client_id: str | None = None


@dataclass(frozen=True)
class ClientHint:
    connection: Connection


@dataclass(frozen=True)
class ClientClaim:
    """The connection's player claims the win over a side that abandoned the game."""

    connection: Connection


@dataclass(frozen=True)
class ClientSubstitute:
    """The connection's player lets a stand-in play a turn-based move whose time ran
    out."""

    connection: Connection


@dataclass(frozen=True)
class LowTime:
    """The warning that turn ``key``'s time runs low rang (a turn-based table)."""

    key: int


@dataclass(frozen=True)
class PausesRead:
    """The vacations of turn ``key``'s mover, as stored (a turn-based table)."""

    key: int
    pauses: list[tuple[float, float]]


@dataclass(frozen=True)
class TurnRanOut:
    """Turn ``key``'s time ran out with no vacation day left (a turn-based table)."""

    key: int


@dataclass(frozen=True)
class ClientFocusLost:
    """The connection's page lost focus during its player's turn at ``state_number``."""

    connection: Connection
    state_number: int


@dataclass(frozen=True)
class BotDecided:
    """A bot's (or substitute's) decision for state ``state_number``; ``action`` is
    ``None`` when no decision could be made (the host asks again later)."""

    state_number: int
    seat: int
    action: str | None
    reason: str
    actor: Actor


@dataclass(frozen=True)
class BotRetry:
    """Ask again for the decision of state ``state_number`` after a failure."""

    state_number: int


@dataclass(frozen=True)
class TimerFired:
    turn_key: int


@dataclass(frozen=True)
class GraceExpired:
    seat: int


@dataclass(frozen=True)
class Join:
    player_id: str
    name: str
    seat: int | None
    result: asyncio.Future[int]


@dataclass(frozen=True)
class Leave:
    player_id: str
    result: asyncio.Future[None]


@dataclass(frozen=True)
class SignedOut:
    """``player_id`` logged out: every connection of theirs at this table is closed,
    then ``result`` is set (so the logout is answered only once they are)."""

    player_id: str
    result: asyncio.Future[None]


@dataclass(frozen=True)
class RematchMade:
    """The finished table's rematch ``table_id`` (joined with ``invite_token``) was made
    at the asking of seat ``by``: offer it to the seated players, now and whenever they
    come back."""

    table_id: str
    invite_token: str | None
    by: int


@dataclass(frozen=True)
class Linger:
    """A finished table's time in memory is up: stop unless someone is connected."""


@dataclass(frozen=True)
class Stop:
    pass


@dataclass(frozen=True)
class HintReady:
    """A hint worked out for ``seat``: ``message`` (a ``HintMessage`` or an
    ``ErrorMessage``, naming its state number) goes to ``connection`` only if it still
    speaks for that seat when the host handles this."""

    connection: Connection
    seat: int
    message: BaseModel


Command = (
    Attach
    | Detach
    | ClientAction
    | ClientChat
    | ClientHint
    | ClientClaim
    | ClientSubstitute
    | ClientFocusLost
    | BotDecided
    | BotRetry
    | TimerFired
    | LowTime
    | PausesRead
    | TurnRanOut
    | GraceExpired
    | Join
    | Leave
    | SignedOut
    | RematchMade
    | Linger
    | Stop
    | HintReady
)


def turn_away(command: Command) -> None:
    """Answer a command a stopped host will not handle: close a new connection, tell a
    waiting caller to try again."""
    match command:
        case Attach(connection):
            connection.close()
        case Join(result=result) | Leave(result=result) if not result.done():
            result.set_exception(TableError("table_unavailable", "the table is busy; try again"))
        case SignedOut(result=result) if not result.done():
            result.set_result(None)  # a stopped host has closed every connection
