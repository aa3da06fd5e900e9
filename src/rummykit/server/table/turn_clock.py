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

A turn-based table (a game over days) has a time per move of days and no bank.  Its
clock stands still while the mover is on vacation (``pauses``, the mover's vacations
as stored), and when its timer rings the turn is only marked *expired*: nobody plays
it yet.  The other players choose (:mod:`~rummykit.server.table.turn_based`): claim
the win, or hand the move to a stand-in (:meth:`TurnClock.hand_over`, after which the
turn counts as timed out).  Until they choose, the late player may still move.

>>> from rummykit.server.clock import FakeClock
>>> turn = TurnClock(clock=FakeClock(), turn_seconds=30, bank_seconds=120, players=2,
...     mover=0, started_at=0.0)
>>> turn.deadline()
150.0
>>> turn.begin_turn(5, 50.0, mover=1)  # seat 0 took 50 s: 20 s came from its bank
>>> turn.banks
[100.0, 120.0]
>>> days = TurnClock(clock=FakeClock(0.0), turn_seconds=86400, players=2, mover=0,
...     started_at=0.0, turn_based=True)
>>> days.pauses = [(3600.0, 7200.0)]  # an hour away, an hour into the turn
>>> days.deadline()
90000.0
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
        turn_based: bool = False,
    ) -> None:
        self.clock = clock
        self.turn_based = turn_based
        # the mover's vacations (start, end), which stop a turn-based clock
        self.pauses: list[tuple[float, float]] = []
        # the turn whose time ran out at a turn-based table (the others choose)
        self.expired_turn: int | None = None
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
        self.expired_turn = None
        self.pauses = []

    @property
    def timed_out(self) -> bool:
        """Whether the current turn's timer ran out (a bot plays the rest of it)."""
        return self.timeout_turn == self.turn_key

    @property
    def expired(self) -> bool:
        """Whether a turn-based turn's time ran out (and nobody has chosen yet, or a
        stand-in plays it)."""
        return self.expired_turn == self.turn_key

    def hand_over(self) -> None:
        """The others chose a stand-in for the expired turn: it is timed out."""
        self.timeout_turn = self.turn_key

    def deadline(self) -> float | None:
        if self.turn_seconds is None:
            return None
        bank = self.banks[self.mover] if self.mover is not None else 0.0
        return run_out_at(self.turn_started_at, self.turn_seconds + bank, self.pauses)

    def away_until(self) -> float | None:
        """The end of the mover's vacation under way now, if any."""
        now = self.clock.now()
        ends = [end for start, end in self.pauses if start <= now < end]
        return max(ends) if ends else None

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
            expired=self.expired,
            vacation_until=self.away_until(),
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
        if self.turn_based:
            self.expired_turn = key
        else:
            self.timeout_turn = key
        return True

    def rearm(self, ring: Callable[[int], None]) -> None:
        """Arm the timer again for the current turn (its deadline moved: a vacation)."""
        self.disarm()
        self.arm(ring)


def run_out_at(start: float, seconds: float, pauses: list[tuple[float, float]]) -> float:
    """When ``seconds`` of running time from ``start`` are spent, the clock standing
    still during each of ``pauses`` (intervals, in any order, overlapping or not).

    >>> run_out_at(0.0, 10.0, [])
    10.0
    >>> run_out_at(0.0, 10.0, [(4.0, 6.0), (5.0, 9.0), (20.0, 30.0), (-5.0, 1.0)])
    16.0
    """
    at, remaining = start, seconds
    for pause_start, pause_end in sorted(pauses):
        if pause_end <= at:
            continue
        if pause_start > at:
            running = pause_start - at
            if running > remaining:  # (a pause from the very end still counts)
                return at + remaining
            remaining -= running
        at = pause_end
    return at + remaining
