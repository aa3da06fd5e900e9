"""The fair-play assessment of finished rated and tournament games, in the background.

Each process of a site looks for seats due (``storage/assessments.py``) whenever one of
its tables ends and every ``assessment_poll_seconds`` besides, claims one at a time, and
has the bot workers assess it at the queue's lowest priority, one decision a call
(:func:`stored_points`, then :func:`~rummykit.fairplay.seat.assess_point` for each):
never ahead of a table's bot or a hint, and never holding a worker for longer than one
decision's search.  Only the moves the seat's player chose are
assessed (not the substitute's), each with the time it took: from the action before it
(or the game's start) to its own, as stored, and the turns in which the page lost
focus (``table/fair_play.py``).  The search is salted with the table's
public seed commitment, so ``rummykit fairplay assess`` on the game's record gives the
same figures.

After each seat, the player's latest ``assessment_games`` assessed games are pooled
(:mod:`rummykit.fairplay.account`); past the thresholds the player is reported to the
moderators (one open report at a time, its figures on the player's case in the
moderator's language), and that is all: no sanction is automatic.
A process that dies or freezes mid-assessment leaves its claim, which another process
takes over once the lease has run out.  A process that shuts down stops at the next
decision or claim, never in the middle of a database statement (a statement cancelled
half-way can leave its connection to be collected unclosed): :meth:`AssessmentJobs.close`
waits up to :data:`CLOSE_SECONDS` for that, and cancels only a loop still stuck after it
(a database out of reach); the seat it was assessing is taken over after its lease.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from rummykit.fairplay.account import assess_account
from rummykit.fairplay.seat import (
    SeatAssessment,
    SeatPoints,
    assess_point,
    seat_points,
    summarize_seat,
)
from rummykit.games.core import rules_from_json
from rummykit.games.record import GameRecord
from rummykit.games.registry import game_named
from rummykit.server.bots.service import BotService
from rummykit.server.cancelling import cancel
from rummykit.server.clock import Clock, Timer
from rummykit.server.operations.events_log import log_event
from rummykit.server.operations.metrics import ASSESSMENTS_DUE, OLDEST_DUE
from rummykit.server.settings import Settings
from rummykit.server.storage.assessments import DueSeat, file_assessment_report
from rummykit.server.storage.models import AssessmentRow, TableRow
from rummykit.server.storage.player_locks import holding_player
from rummykit.server.storage.store import Storage

BATCH = 20
"""Seats read at once when looking for work."""
CLOSE_SECONDS = 5.0
"""How long a shutdown waits for the loop to reach a point where it may stop."""


class _Stopping(Exception):
    """The process is shutting down: leave the seat under way to the lease."""


def stored_points(
    game_name: str,
    rules: dict[str, Any],
    seed: int,
    actions: list[str],
    seat: int,
    player: str,
    chosen: list[int],
) -> SeatPoints:
    """The decisions of one seat of a stored game (in a worker: it replays the game)."""
    game = game_named(game_name)
    record = GameRecord(
        game=game.name,
        rules=rules_from_json(game.rules_type, rules),
        seed=seed,
        actions=tuple(actions),
        totals=(),
        players=tuple(player if index == seat else "" for index in range(seat + 1)),
    )
    return seat_points(record, seat, chosen)


def seat_of(row: AssessmentRow) -> SeatAssessment:
    """A stored assessment's figures, back as the seat's assessment."""
    return SeatAssessment.from_json(row.figures or {})


class AssessmentJobs:
    """This process's share of the site's assessments."""

    def __init__(
        self, storage: Storage, runner: BotService, settings: Settings, clock: Clock
    ) -> None:
        self._storage = storage
        self._runner = runner
        self._settings = settings
        self._clock = clock
        self.worker = f"fairplay-{uuid.uuid4().hex[:12]}"
        self._wake = asyncio.Event()
        self._timer: Timer | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        if self._settings.fairplay:
            self._task = asyncio.create_task(self._run())

    def game_over(self, row: TableRow) -> None:
        """A table of this process ended: look for work now."""
        if row.rated or row.tournament_id is not None:
            self._wake.set()

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                await self.work_once()
            except _Stopping:
                return
            except Exception as error:  # the database or the workers failed: try later
                log_event(None, "assessment_failed", level=logging.WARNING, error=repr(error))
            if self._stopping:
                return
            self._timer = self._clock.call_at(
                self._clock.now() + self._settings.assessment_poll_seconds, self._wake.set
            )
            await self._wake.wait()
            self._timer.cancel()

    def _check_stopping(self) -> None:
        if self._stopping:
            raise _Stopping

    async def work_once(self) -> int:
        """Assess every seat due now, claiming one at a time (a claim ages only while
        its seat is assessed); how many this process assessed."""
        done = 0
        while True:
            self._check_stopping()
            now = self._clock.now()
            lease = self._settings.assessment_lease_seconds
            backlog = await self._storage.assessment_backlog(now, lease)
            ASSESSMENTS_DUE.set(backlog.due)
            OLDEST_DUE.set(backlog.oldest_game_over_at or 0)
            due = await self._storage.assessments_due(now, lease, BATCH)
            for seat in due:
                self._check_stopping()
                if await self._storage.claim_assessment(seat, self.worker, now):
                    done += await self._assess(seat)
                    break
            else:  # nothing due, or every seat taken by other processes
                return done

    async def _assess(self, due: DueSeat) -> int:
        stored = await self._storage.load_table(due.table_id)
        if stored is None:
            return 0
        table = stored.table
        chosen: list[int] = []
        times: list[float] = []
        before = table.started_at or table.created_at
        for row in stored.actions:
            if row.seat == due.seat and row.actor == "human":
                chosen.append(row.state_number)
                times.append(max(0.0, row.at - before))
            before = row.at
        name = next((s.name or "" for s in stored.seats if s.seat == due.seat), "")
        try:
            figures = await self._assessed(stored, due, name, chosen, times)
        except _Stopping:
            raise
        except Exception as error:  # the record or a worker failed: the lease retries it
            log_event(due.table_id, "assessment_failed", level=logging.WARNING, error=repr(error))
            return 0
        now = self._clock.now()
        if not await self._storage.finish_assessment(
            due.table_id, due.seat, self.worker, figures, now
        ):
            return 0
        log_event(
            due.table_id,
            "assessed",
            seat=due.seat,
            verdict=figures["verdict"],
            evidence=figures["evidence"],
        )
        await self._pool(due.player_id, name, now)
        return 1

    async def _assessed(
        self, stored: Any, due: DueSeat, name: str, chosen: list[int], times: list[float]
    ) -> dict[str, Any]:
        """The seat's figures: its decisions listed in one worker call, then searched one
        call each, so that no call holds a worker for longer than one decision."""
        table = stored.table
        run = self._runner.assess
        iterations = self._settings.assessment_iterations
        found = await run(
            stored_points,
            table.game,
            table.rules,
            table.seed,
            [row.action for row in stored.actions],
            due.seat,
            name,
            chosen,
        )
        results = []
        for point in found.points:
            self._check_stopping()
            results.append(
                await run(
                    assess_point, found.game, point, found.partner,
                    iterations=iterations, salt=table.commitment,
                )
            )  # fmt: skip
        focus = await self._storage.focus_losses(due.table_id, due.seat)
        assessed = summarize_seat(found, results, iterations, times=times, focus_losses=focus)
        return assessed.to_json()

    async def _pool(self, player_id: str, name: str, now: float) -> None:
        rows = await self._storage.assessments_of(player_id, self._settings.assessment_games)
        account = assess_account(name, [seat_of(row) for row in rows])
        if not account.reported:
            return
        async with holding_player(self._storage, player_id) as session:
            filed = await file_assessment_report(session, player_id, now)
        if filed:
            log_event(None, "assessment_reported", player_id=player_id)

    async def close(self) -> None:
        """Stop the loop at its next safe point (cancelled only after
        :data:`CLOSE_SECONDS`)."""
        self._stopping = True
        if self._timer is not None:
            self._timer.cancel()
        self._wake.set()
        if self._task is not None:
            await asyncio.wait({self._task}, timeout=CLOSE_SECONDS)
            await cancel({self._task})
