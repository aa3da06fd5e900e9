"""The turns of turn-based tables, told to their players: ``your_turn`` when the turn
passes to a person, ``time_low`` when that person's time runs low.

The table registry calls :meth:`TurnNotices.your_turn` and :meth:`TurnNotices.time_low`
(its turn and low-time listeners) in the table's task, once the move that passed the
turn is stored; each queues its message in a transaction of its own, on a task of its
own, and wakes the sender.  A message is keyed by the seat and the moment its turn began
(``turn_since``), so a turn told twice is queued once.  A process that stops between a
move's write and this queueing leaves the notice to the table's next host, which tells
its listeners the turn again when it restores the table (at a restart, or a failover).
A notice the database refuses is queued again after each of :data:`RETRY_SECONDS`
(the key keeps it once), and given up, with a warning, only after the last.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from rummykit.server.clock import Clock, Timer
from rummykit.server.operations.events_log import log_event
from rummykit.server.storage.models import TableRow
from rummykit.server.storage.notifications import Writes, queue_notification

RETRY_SECONDS: Final = (5.0, 30.0, 120.0, 600.0)
"""The waits before each new attempt to queue a notice the database refused."""


@dataclass(frozen=True, slots=True)
class Notice:
    """One notice to queue: its kind, for whom, about which table, and its key."""

    table_id: str
    player_id: str
    kind: str
    params: dict[str, Any]
    key: str


class TurnNotices:
    """Queues the notices of turn-based turns for the sender (woken by ``wake``)."""

    def __init__(self, storage: Writes, clock: Clock, wake: Callable[[], None]) -> None:
        self._storage = storage
        self._clock = clock
        self._wake = wake
        self._tasks: set[asyncio.Task[None]] = set()
        self._retries: set[Timer] = set()

    def your_turn(self, row: TableRow, seat: int, player_id: str) -> None:
        self._queue(row, seat, player_id, "your_turn")

    def time_low(self, row: TableRow, seat: int, player_id: str) -> None:
        self._queue(row, seat, player_id, "time_low")

    def _queue(self, row: TableRow, seat: int, player_id: str, kind: str) -> None:
        key = f"{seat}@{row.turn_since}"
        self._spawn(Notice(row.id, player_id, kind, {"game": row.game}, key), attempt=0)

    def _spawn(self, notice: Notice, attempt: int) -> None:
        task = asyncio.create_task(self._store(notice, attempt))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _store(self, notice: Notice, attempt: int) -> None:
        try:
            channels = await queue_notification(
                self._storage, notice.player_id, notice.kind, notice.table_id,
                at=self._clock.now(), params=notice.params, key=notice.key,
            )  # fmt: skip
        except Exception as error:  # the database away: try again later, not the game
            table_id = notice.table_id
            if attempt == len(RETRY_SECONDS):
                log_event(table_id, "notice_failed", level=logging.WARNING, error=repr(error))
                return
            log_event(table_id, "notice_retry", level=logging.WARNING, error=repr(error))
            at = self._clock.now() + RETRY_SECONDS[attempt]
            timer = self._clock.call_at(at, lambda: self._again(timer, notice, attempt + 1))
            self._retries.add(timer)
            return
        if channels:
            self._wake()

    def _again(self, timer: Timer, notice: Notice, attempt: int) -> None:
        self._retries.discard(timer)
        self._spawn(notice, attempt)

    async def close(self) -> None:
        """Wait for the notices being queued (a shutdown); those waiting to be tried
        again are left to the table's next host."""
        for timer in self._retries:
            timer.cancel()
        self._retries.clear()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=5)
