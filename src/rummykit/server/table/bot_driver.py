"""Who plays a seat when its person does not, and asking the bot workers for it.

A seat is played by a bot when it is a bot's seat, when its player is away (a
substitute), or when the turn timer ran out (for the rest of that turn).  The driver
asks the workers once per state number; the answer comes back through the host's
inbox as :class:`BotDecided` and is played only if the table is still at that state
and the seat is still the bot's to play.  A decision that could not be made is asked
for again after a pause: a bot never plays a move it did not choose.  A bot playing
for a person chooses among cautious moves only (:mod:`~rummykit.server.table.stand_in`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from rummykit.server.clock import Timer
from rummykit.server.operations.events_log import log_event
from rummykit.server.table import committed_deal
from rummykit.server.table.broadcast import TableViews
from rummykit.server.table.commands import Actor, BotDecided, BotRetry, TimerFired
from rummykit.server.table.connection import Connection
from rummykit.server.table.parts import TableCore
from rummykit.server.table.stand_in import cautious_moves

# who plays a turn whose timer ran out, and a seat whose player is away
STAND_IN_LEVEL = "greedy"
RETRY_SECONDS = 2.0


class DrivenTable(TableCore, Protocol):
    """What the driver asks of its table: the views a bot is shown, and playing a move."""

    views: TableViews

    async def play(
        self,
        seat: int,
        text: str,
        actor: Actor,
        reason: str | None,
        connection: Connection | None = None,
    ) -> bool: ...

    def turn_armed(self) -> None: ...


class BotDriver:
    """Bot turns, substitutes and timed-out turns of one table."""

    def __init__(self, host: DrivenTable) -> None:
        self.host = host
        # the state number whose decision is being made (or waits for a retry)
        self._pending: int | None = None
        # the pause before a bot's move, or the wait before asking again
        self._timer: Timer | None = None

    def controller(self, index: int) -> tuple[Actor, str] | None:
        """Who plays for seat ``index`` now, and at which level: ``None`` for its person."""
        seat = self.host.seating[index]
        if seat.kind == "bot":
            return "bot", seat.level or STAND_IN_LEVEL
        if seat.away:
            return "substitute", STAND_IN_LEVEL
        if self.host.turn.timed_out:
            return "timeout", STAND_IN_LEVEL
        return None

    def _later(self, seconds: float, callback: Callable[[], None]) -> None:
        self.cancel()
        clock = self.host.clock
        self._timer = clock.call_at(clock.now() + seconds, callback)

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def timer_fired(self, key: int) -> None:
        """The turn timer ``key`` rang: a stand-in plays the turn, if it is still on."""
        host = self.host
        if host.status != "playing" or not host.turn.rang(key):
            return
        log_event(host.table_id, "turn_timed_out", seat=host.state.current_player)
        self.after_change()

    def after_change(self) -> None:
        """After anything changed: start the bot's thinking if a bot is to move, else
        arm the turn timer for the person to move."""
        host = self.host
        if host.status != "playing":
            host.turn.disarm()
            return
        mover = host.state.current_player
        if mover is None:
            return
        controller = self.controller(mover)
        if controller is None:
            host.turn.arm(lambda key: host.submit(TimerFired(key)))
            host.turn_armed()
            return
        host.turn.disarm()
        number = host.state_number
        if self._pending == number:
            return
        self._pending = number
        actor, spec = controller
        observation = host.views.observation(mover)
        legal = host.views.legal_texts()
        if actor != "bot":
            legal = cautious_moves(observation, legal, whole_pile=host.game.takes_whole_pile)
        seed = committed_deal.bot_seed(host.row.nonce, number, mover)
        owner = host.row.creator_id or host.table_id

        async def think() -> None:
            try:
                # the workers' time is shared between players: the table's bots think
                # on its creator's share (a tournament's on its creator's)
                action, reason = await host.runner.decide(
                    host.game.name, spec, observation, legal, seed, owner=owner
                )
            except Exception as error:
                log_event(host.table_id, "bot_failed", level=logging.ERROR, error=repr(error))
                host.submit(BotDecided(number, mover, None, "", actor))
            else:
                host.submit(BotDecided(number, mover, action, reason, actor))

        pause = host.settings.bot_pause_seconds if actor == "bot" else 0.0
        if pause:
            self._later(pause, lambda: host.spawn(think()))
        else:
            host.spawn(think())

    async def decided(self, command: BotDecided) -> None:
        """Play a decision if the table is still where it was asked for."""
        host = self.host
        if command.state_number != host.state_number or host.status != "playing":
            if self._pending == command.state_number:
                self._pending = None
            return
        controller = self.controller(command.seat)
        if controller is None or host.state.current_player != command.seat:
            self._pending = None
            self.after_change()
            return
        played = command.action is not None and await host.play(
            command.seat, command.action, controller[0], command.reason
        )
        if played:
            return
        log_event(host.table_id, "bot_move_dropped", level=logging.WARNING, seat=command.seat)
        number = command.state_number
        self._later(RETRY_SECONDS, lambda: host.submit(BotRetry(number)))

    def retry(self, command: BotRetry) -> None:
        if self._pending == command.state_number == self.host.state_number:
            self._pending = None
            self.after_change()
