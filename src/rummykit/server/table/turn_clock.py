"""The turn timer of one table, and each seat's time bank.

A turn begins when the player to move changes (or a hand ends); ``turn_key`` is the
state number at which it began, so a timer armed for an earlier turn is recognised
and ignored when it rings.  A seat has ``turn_seconds`` for each turn and, at a table
with a time bank, a bank for the whole game that a long turn draws on (as lichess's
correspondence and Board Game Arena's "extra time" do): the turn's deadline is its
start plus the turn time plus what is left in the mover's bank, and whatever a turn
took beyond its turn time is taken from the bank when it ends.  Deadlines and banks
are derived from stored times only (the table's start, each stored action's time), so
a restored table keeps its timers and banks.  When the timer rings, the turn is
marked timed out and a bot plays it; the player's own actions are refused for the
rest of that turn.

>>> from rummykit.server.clock import FakeClock
>>> turn = TurnClock(clock=FakeClock(), turn_seconds=30, bank_seconds=120, players=2,
...     mover=0, started_at=0.0)
>>> turn.deadline()
150.0
>>> turn.begin_turn(5, 50.0, mover=1)  # seat 0 took 50 s: 20 s came from its bank
>>> turn.banks
[100.0, 120.0]
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.server.clock import Clock, Timer
from rummykit.server.protocol.messages import TurnInfo


class TurnClock:
    """The current turn, its deadline, its timer and the seats' banks."""

    def __init__(
        self,
        *,
        clock: Clock,
        turn_seconds: float | None,
        bank_seconds: float | None = None,
        players: int = 2,
        mover: int | None = None,
        started_at: float,
    ) -> None:
        self.clock = clock
        self.turn_seconds = turn_seconds
        self.bank_seconds = bank_seconds if turn_seconds is not None else None
        self.banks = [float(self.bank_seconds or 0.0)] * players
        self.mover = mover
        self.turn_key = 0
        self.turn_started_at = started_at
        self.timeout_turn: int | None = None
        self._timer: Timer | None = None
        self._timer_key: int | None = None

    def begin_turn(self, state_number: int, at: float, mover: int | None) -> None:
        """A new turn of ``mover`` begins at ``state_number`` (a new mover, a new hand,
        the start); the turn that ends takes its overtime from its mover's bank."""
        if self.turn_seconds is not None and self.mover is not None:
            overtime = at - self.turn_started_at - self.turn_seconds
            if overtime > 0:
                self.banks[self.mover] = max(0.0, self.banks[self.mover] - overtime)
        self.turn_key = state_number
        self.turn_started_at = at
        self.mover = mover
        self.timeout_turn = None

    @property
    def timed_out(self) -> bool:
        """Whether the current turn's timer ran out (a bot plays the rest of it)."""
        return self.timeout_turn == self.turn_key

    def deadline(self) -> float | None:
        if self.turn_seconds is None:
            return None
        bank = self.banks[self.mover] if self.mover is not None else 0.0
        return self.turn_started_at + self.turn_seconds + bank

    def info(self, player: int) -> TurnInfo:
        deadline = self.deadline()
        if deadline is None:
            return TurnInfo(player=player)
        left = max(0.0, deadline - self.clock.now())
        return TurnInfo(
            player=player,
            deadline=round(deadline, 3),
            seconds_left=round(left, 3),
            banks=None if self.bank_seconds is None else [round(b, 3) for b in self.banks],
        )

    def arm(self, ring: Callable[[int], None]) -> None:
        """Call ``ring(turn_key)`` at the current turn's deadline (once per turn)."""
        deadline = self.deadline()
        if deadline is None or self._timer_key == self.turn_key:
            return
        self.disarm()
        key = self.turn_key
        self._timer_key = key
        self._timer = self.clock.call_at(deadline, lambda: ring(key))

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_key = None

    def rang(self, key: int) -> bool:
        """The timer of turn ``key`` rang: whether that is still the current turn (it is
        then marked timed out)."""
        if key != self.turn_key:
            return False
        self._timer = None
        self.timeout_turn = key
        return True
