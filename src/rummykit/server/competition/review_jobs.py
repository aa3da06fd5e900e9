"""Reviews of finished games, computed in the background in the bot worker processes.

A review is one asyncio task per (table, seat) that hands the worker pool one decision
at a time (:mod:`rummykit.server.competition.review`), behind the table bots' decisions and the
hints (:mod:`rummykit.server.bots.queue`), with the reviewing player as the owner;
``review_workers`` reviews search at once.  Each decision is searched with the hint's
budget (``hint_iterations``) and the table's seed commitment, as its hint was.  A player
has one review under way at most: starting another raises
:class:`~rummykit.server.bots.errors.BotBusy` (``review_pending``).  Progress is the
number of decisions reviewed out of the seat's decisions.  Reviews live in memory: the
newest ``reviews_kept`` are kept, and a review asked for again after a restart is
computed again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal

from rummykit.server.bots.errors import BotBusy
from rummykit.server.bots.service import BotService
from rummykit.server.cancelling import cancel
from rummykit.server.competition.review import decision_points, review_decision
from rummykit.server.operations.events_log import log_event
from rummykit.server.settings import Settings
from rummykit.server.storage.store import StoredTable

ReviewStatus = Literal["running", "done", "failed"]


@dataclass
class ReviewJob:
    """One seat's review: ``items`` grow in decision order until ``done == total``."""

    table_id: str
    seat: int
    player_id: str
    total: int
    items: list[dict[str, Any]] = field(default_factory=list)
    status: ReviewStatus = "running"
    task: asyncio.Task[None] | None = None

    @property
    def done(self) -> int:
        return len(self.items)


class ReviewJobs:
    """The server's reviews, started on request and kept in memory."""

    def __init__(self, runner: BotService, settings: Settings) -> None:
        self._runner = runner
        self._settings = settings
        self._slots = asyncio.Semaphore(settings.review_workers)
        self._jobs: OrderedDict[tuple[str, int], ReviewJob] = OrderedDict()

    def get(self, table_id: str, seat: int) -> ReviewJob | None:
        return self._jobs.get((table_id, seat))

    def start(self, stored: StoredTable, seat: int, *, player_id: str) -> ReviewJob:
        """The review of ``seat`` in the finished game ``stored``, asked for by
        ``player_id``: the one under way or done (a failed one is started again), or a
        new one, unless the player has another review under way (:class:`BotBusy`)."""
        table = stored.table
        key = (table.id, seat)
        job = self._jobs.get(key)
        if job is not None and job.status != "failed":
            return job
        if any(j.player_id == player_id and j.status == "running" for j in self._jobs.values()):
            raise BotBusy("review_pending", "a review of yours is already being worked out")
        chosen = [
            row.state_number for row in stored.actions if row.seat == seat and row.actor == "human"
        ]
        job = ReviewJob(table_id=table.id, seat=seat, player_id=player_id, total=len(chosen))
        self._jobs[key] = job
        self._forget_old()
        actions = [row.action for row in stored.actions]
        job.task = asyncio.create_task(
            self._run(job, table.game, table.rules, table.seed, actions, chosen, table.commitment)
        )
        log_event(table.id, "review_started", seat=seat, decisions=job.total)
        return job

    async def _run(
        self,
        job: ReviewJob,
        game: str,
        rules: dict[str, Any],
        seed: int,
        actions: list[str],
        chosen: list[int],
        salt: str,
    ) -> None:
        iterations = self._settings.hint_iterations
        owner = job.player_id
        try:
            async with self._slots:
                points = await self._runner.run(
                    decision_points, game, rules, seed, actions, job.seat, chosen, owner=owner
                )
            job.total = len(points)
            for point in points:
                async with self._slots:
                    item = await self._runner.run(
                        review_decision,
                        game,
                        point,
                        iterations=iterations,
                        salt=salt,
                        owner=owner,
                    )
                job.items.append(item)
        except Exception as error:
            job.status = "failed"
            log_event(job.table_id, "review_failed", level=logging.ERROR, error=repr(error))
            return
        job.status = "done"
        log_event(job.table_id, "review_done", seat=job.seat, decisions=job.total)

    def _forget_old(self) -> None:
        """Drop the oldest finished reviews beyond ``reviews_kept``."""
        excess = len(self._jobs) - self._settings.reviews_kept
        for key in [k for k, j in self._jobs.items() if j.status != "running"][: max(0, excess)]:
            del self._jobs[key]

    async def close(self) -> None:
        """Stop the reviews under way (at server shutdown)."""
        await cancel({job.task for job in self._jobs.values() if job.task})
