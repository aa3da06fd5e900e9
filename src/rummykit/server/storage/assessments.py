"""Fair-play assessments in storage: which seats are due, who works on each, the results.

A seat is due once its rated or tournament game is over (not aborted) and a person sat
there; nothing needs to be queued when a game ends, so a game finished while every
process was down is found later all the same.  A process **claims** a due seat by
inserting its row (``running``, with its name and the time): the primary key lets one
process win.  A claim older than the lease may be taken over by another process (its
claimer died or froze), by a conditional update that only one taker can make; a seat
claimed :data:`MAX_ATTEMPTS` times without a result is ``failed`` and left alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, TypeVarTuple

from sqlalchemy import ColumnElement, Select, and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from rummykit.server.storage.models import (
    AssessmentRow,
    FocusLossRow,
    ReportRow,
    SeatRow,
    TableRow,
)

Row = TypeVarTuple("Row")

MAX_ATTEMPTS: Final = 3
FAIRPLAY_REPORTER: Final = "fairplay"
"""The reporter id of the reports the assessment files (no player has it: ids are
random hex)."""


@dataclass(frozen=True, slots=True)
class DueSeat:
    """A seat to assess; ``claimed_at`` is the stale claim to take over, if any."""

    table_id: str
    seat: int
    player_id: str
    claimed_at: float | None = None


@dataclass(frozen=True, slots=True)
class Backlog:
    """The seats due and the end of the oldest game among those never claimed."""

    due: int
    oldest_game_over_at: float | None


def _unclaimed(query: Select[*Row]) -> Select[*Row]:
    """``query`` over the seats of a person at a rated or tournament game over (not
    aborted) that no process has claimed yet."""
    return (
        query.select_from(SeatRow)
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .outerjoin(
            AssessmentRow,
            and_(AssessmentRow.table_id == SeatRow.table_id, AssessmentRow.seat == SeatRow.seat),
        )
        .where(
            TableRow.status == "over",
            or_(TableRow.rated.is_(True), TableRow.tournament_id.is_not(None)),
            or_(TableRow.ended_by.is_(None), TableRow.ended_by != "aborted"),
            SeatRow.kind == "human",
            SeatRow.player_id.is_not(None),
            AssessmentRow.table_id.is_(None),
        )
    )


def _stale(now: float, lease: float) -> ColumnElement[bool]:
    """A claim under way for longer than ``lease``: its process died or froze."""
    return and_(AssessmentRow.status == "running", AssessmentRow.claimed_at < now - lease)


class AssessmentStore:
    """Reads and writes of assessments (a part of
    :class:`~rummykit.server.storage.store.Storage`)."""

    engine: AsyncEngine
    _sessions: async_sessionmaker[AsyncSession]

    async def assessments_due(self, now: float, lease: float, limit: int) -> list[DueSeat]:
        """Seats never claimed, oldest game first, then claims older than ``lease``."""
        async with self._sessions() as session:
            fresh = await session.execute(
                _unclaimed(select(SeatRow.table_id, SeatRow.seat, SeatRow.player_id))
                .order_by(TableRow.finished_at, SeatRow.table_id, SeatRow.seat)
                .limit(limit)
            )
            due = [DueSeat(str(t), int(s), str(p)) for t, s, p in fresh.all()]
            stale = await session.scalars(
                select(AssessmentRow)
                .where(_stale(now, lease))
                .order_by(AssessmentRow.claimed_at)
                .limit(limit)
            )
            due += [DueSeat(r.table_id, r.seat, r.player_id, r.claimed_at) for r in stale]
            return due

    async def assessment_backlog(self, now: float, lease: float) -> Backlog:
        """How many seats are due (as :meth:`assessments_due` finds them, without a
        limit), and when the oldest game of a seat never claimed ended."""
        async with self._sessions() as session:
            fresh = await session.execute(
                _unclaimed(select(func.count(), func.min(TableRow.finished_at)))
            )
            count, oldest = fresh.one()
            stale = await session.scalar(
                select(func.count()).select_from(AssessmentRow).where(_stale(now, lease))
            )
            return Backlog(int(count) + int(stale or 0), None if oldest is None else float(oldest))

    async def claim_assessment(self, due: DueSeat, worker: str, now: float) -> bool:
        """Claim ``due`` for ``worker``; whether this call won it."""
        if due.claimed_at is None:
            new = AssessmentRow(
                table_id=due.table_id,
                seat=due.seat,
                player_id=due.player_id,
                status="running",
                claimed_by=worker,
                claimed_at=now,
                attempts=1,
            )
            try:
                async with self._sessions.begin() as session:
                    session.add(new)
            except IntegrityError:
                return False
            return True
        async with self._sessions.begin() as session:
            row = await session.get(AssessmentRow, (due.table_id, due.seat))
            if row is None or row.attempts >= MAX_ATTEMPTS:
                if row is not None and row.status == "running":
                    await session.execute(
                        update(AssessmentRow)
                        .where(*_claim_of(due))
                        .values(status="failed", done_at=now)
                    )
                return False
            taken = await session.execute(
                update(AssessmentRow)
                .where(*_claim_of(due))
                .values(claimed_by=worker, claimed_at=now, attempts=AssessmentRow.attempts + 1)
            )
            return bool(taken.rowcount)  # type: ignore[attr-defined]

    async def finish_assessment(
        self, table_id: str, seat: int, worker: str, figures: dict[str, Any], now: float
    ) -> bool:
        """Store the result of ``worker``'s claim; ``False`` if the claim was taken over."""
        async with self._sessions.begin() as session:
            done = await session.execute(
                update(AssessmentRow)
                .where(
                    AssessmentRow.table_id == table_id,
                    AssessmentRow.seat == seat,
                    AssessmentRow.claimed_by == worker,
                    AssessmentRow.status == "running",
                )
                .values(
                    status="done",
                    done_at=now,
                    verdict=str(figures["verdict"]),
                    evidence=float(figures["evidence"]),
                    figures=figures,
                )
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    async def assessments_of(self, player_id: str, limit: int) -> list[AssessmentRow]:
        """The player's finished assessments, the newest first."""
        async with self._sessions() as session:
            rows = await session.scalars(
                select(AssessmentRow)
                .where(AssessmentRow.player_id == player_id, AssessmentRow.status == "done")
                .order_by(AssessmentRow.done_at.desc(), AssessmentRow.table_id)
                .limit(limit)
            )
            return list(rows)

    async def record_focus_loss(self, table_id: str, seat: int, state_number: int) -> None:
        """Note that the seat's page lost focus in the turn at ``state_number`` (once)."""
        try:
            async with self._sessions.begin() as session:
                session.add(FocusLossRow(table_id=table_id, seat=seat, state_number=state_number))
        except IntegrityError:
            pass

    async def focus_losses(self, table_id: str, seat: int) -> int:
        """In how many of the seat's turns its page lost focus."""
        async with self._sessions() as session:
            count = await session.scalar(
                select(func.count())
                .select_from(FocusLossRow)
                .where(FocusLossRow.table_id == table_id, FocusLossRow.seat == seat)
            )
            return int(count or 0)


async def file_assessment_report(session: AsyncSession, player_id: str, now: float) -> bool:
    """File the assessment's report on ``player_id`` in ``session`` unless one is still
    open (the caller holds the player's lock, ``player_locks.py``, so that two processes
    file one); whether it was filed."""
    open_one = await session.scalar(
        select(ReportRow.id).where(
            ReportRow.reported_id == player_id,
            ReportRow.reporter_id == FAIRPLAY_REPORTER,
            ReportRow.open.is_(True),
        )
    )
    if open_one is not None:
        return False
    session.add(
        ReportRow(
            reporter_id=FAIRPLAY_REPORTER,
            reported_id=player_id,
            reason="assessment",
            text="",
            at=now,
            open=True,
        )
    )
    return True


def _claim_of(due: DueSeat) -> tuple[Any, ...]:
    """The stale claim ``due`` names, as it was read (only one taker matches it)."""
    return (
        AssessmentRow.table_id == due.table_id,
        AssessmentRow.seat == due.seat,
        AssessmentRow.status == "running",
        AssessmentRow.claimed_at == due.claimed_at,
    )
