"""The turn timer of one table.

A turn begins when the player to move changes (or a hand ends); ``turn_key`` is the
state number at which it began, so a timer armed for an earlier turn is recognised
and ignored when it rings.  The deadline is derived from stored times only (the
table's start, each stored action's time), so a restored table keeps its timers.
When the timer rings, the turn is marked timed out and a bot plays it; the player's
own actions are refused for the rest of that turn.
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.server.clock import Clock, Timer
from rummykit.server.protocol import TurnInfo


class TurnClock:
    """The current turn, its deadline and its timer."""

    def __init__(self, *, clock: Clock, turn_seconds: float | None, started_at: float) -> None:
        self.clock = clock
        self.turn_seconds = turn_seconds
        self.turn_key = 0
        self.turn_started_at = started_at
        self.timeout_turn: int | None = None
        self._timer: Timer | None = None
        self._timer_key: int | None = None

    def begin_turn(self, state_number: int, at: float) -> None:
        """A new turn begins at ``state_number`` (a new mover, a new hand, the start)."""
        self.turn_key = state_number
        self.turn_started_at = at
        self.timeout_turn = None

    @property
    def timed_out(self) -> bool:
        """Whether the current turn's timer ran out (a bot plays the rest of it)."""
        return self.timeout_turn == self.turn_key

    def deadline(self) -> float | None:
        if self.turn_seconds is None:
            return None
        return self.turn_started_at + self.turn_seconds

    def info(self, player: int) -> TurnInfo:
        deadline = self.deadline()
        if deadline is None:
            return TurnInfo(player=player)
        left = max(0.0, deadline - self.clock.now())
        return TurnInfo(player=player, deadline=round(deadline, 3), seconds_left=round(left, 3))

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
