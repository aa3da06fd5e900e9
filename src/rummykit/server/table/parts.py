"""What the host's collaborators may read of it and ask of it, as a :class:`Protocol`.

The table host (:mod:`~rummykit.server.table.host`) hands each kind of command to a
collaborator in its own module (views, bot driver, chat and hints, the game's end,
seats asked for through the lobby).  They need the host's table, never its class: each
declares the part of the host it uses as a protocol built on :class:`TableCore`, so no
collaborator imports the host and the host's module imports them all without a cycle.
A test double with these attributes drives a collaborator alone.

This module holds types only: it never runs a command or touches storage.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, Literal, Protocol

from rummykit.games.core import GameState
from rummykit.games.registry import AnyGame
from rummykit.server.bots.service import BotService
from rummykit.server.clock import Clock
from rummykit.server.protocol.messages import LastAction, TurnInfo
from rummykit.server.settings import Settings
from rummykit.server.storage.fencing import Lease
from rummykit.server.storage.models import TableRow
from rummykit.server.storage.store import Storage
from rummykit.server.table.commands import Command
from rummykit.server.table.seating import Seating
from rummykit.server.table.turn_clock import TurnClock

Status = Literal["waiting", "playing", "over"]
"""A table's life: seats being taken, the game being played, the game over."""


class TableCore(Protocol):
    """The table as every collaborator sees it: its row and game, its seats, its parts
    (storage, bot workers, clock, settings), and the way back into the host's inbox."""

    table_id: str
    row: TableRow
    game: AnyGame
    state: GameState[Any, Any, Any, Any]
    status: Status
    seating: Seating
    turn: TurnClock
    storage: Storage
    runner: BotService
    settings: Settings
    clock: Clock
    last_action: LastAction | None

    @property
    def state_number(self) -> int:
        """How many actions the state has applied."""
        ...

    def mover(self) -> int | None:
        """The seat to move while the game is played, else ``None``."""
        ...

    def turn_info(self) -> TurnInfo | None:
        """The mover's turn clock, for the views."""
        ...

    def write_lease(self) -> Lease | None:
        """The lease a write of the table is made under (``StorageError`` if lost)."""
        ...

    def submit(self, command: Command) -> None:
        """Queue ``command`` in the host's inbox (work done elsewhere comes back so)."""
        ...

    def spawn(self, coroutine: Coroutine[Any, Any, None], *, statement: bool = False) -> None:
        """Run work for the table until its host stops (storage work, a ``statement``,
        left to finish then)."""
        ...
