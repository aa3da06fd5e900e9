"""Reports and moderation in storage: roles, players' reports, moderators' measures
(sanctions) and their log.

A sanction is in force from its ``at`` until its ``until`` (none: until lifted) unless
it was lifted.  ``engine`` and ``booster`` mark an account (out of the leaderboards and
tournaments), ``mute`` silences its chat, ``closed`` shuts it.  Nothing here decides who
may do what: the API checks the moderator's role before any of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import ColumnElement, Select, and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from rummykit.server.storage.models import (
    ModerationLogRow,
    PlayerRow,
    ReportRow,
    RoleRow,
    SanctionRow,
)
from rummykit.server.storage.ratings import refund_opponents

MARKS: Final = ("engine", "booster")
"""The sanctions that mark an account: out of the leaderboards and tournaments."""


def _in_force_at(now: float) -> ColumnElement[bool]:
    """A sanction in force at ``now``: begun, not lifted, not run out."""
    return and_(
        SanctionRow.lifted_at.is_(None),
        SanctionRow.at <= now,
        or_(SanctionRow.until.is_(None), SanctionRow.until > now),
    )


def in_force(now: float) -> Select[Any]:
    """The ids of players marked at ``now`` (a subquery for other reads)."""
    return select(SanctionRow.player_id).where(SanctionRow.kind.in_(MARKS), _in_force_at(now))


async def reports_since(session: AsyncSession, reporter_id: str, since: float) -> int:
    """How many reports ``reporter_id`` made since ``since``."""
    count = await session.scalar(
        select(func.count())
        .select_from(ReportRow)
        .where(ReportRow.reporter_id == reporter_id, ReportRow.at >= since)
    )
    return int(count or 0)


async def marked_in(session: AsyncSession, player_ids: Sequence[str], now: float) -> set[str]:
    """Those of ``player_ids`` marked at ``now``."""
    if not player_ids:
        return set()
    found = await session.execute(in_force(now).where(SanctionRow.player_id.in_(player_ids)))
    return {str(player_id) for player_id in found.scalars()}


class ModerationStore:
    """Reads and writes of moderation (a part of
    :class:`~rummykit.server.storage.store.Storage`)."""

    engine: AsyncEngine
    _sessions: async_sessionmaker[AsyncSession]

    async def grant_role(self, player_id: str, role: str, at: float) -> None:
        """Give ``player_id`` the ``role`` (again: nothing changes)."""
        try:
            async with self._sessions.begin() as session:
                session.add(RoleRow(player_id=player_id, role=role, granted_at=at))
        except IntegrityError:
            pass

    async def has_role(self, player_id: str, role: str) -> bool:
        async with self._sessions() as session:
            found = await session.get(RoleRow, (player_id, role))
            return found is not None

    async def open_reports(self, limit: int) -> list[tuple[ReportRow, str, str]]:
        """The open reports, oldest first, each with its reporter's name (empty for the
        fair-play assessment's) and the reported player's."""
        reporter = PlayerRow.__table__.alias("reporter")
        reported = PlayerRow.__table__.alias("reported")
        async with self._sessions() as session:
            rows = await session.execute(
                select(ReportRow, func.coalesce(reporter.c.name, ""), reported.c.name)
                .outerjoin(reporter, reporter.c.id == ReportRow.reporter_id)
                .join(reported, reported.c.id == ReportRow.reported_id)
                .where(ReportRow.open.is_(True))
                .order_by(ReportRow.at, ReportRow.id)
                .limit(limit)
            )
            return [(row, str(by), str(on)) for row, by, on in rows.all()]

    async def reports_about(self, player_id: str, limit: int) -> list[ReportRow]:
        async with self._sessions() as session:
            rows = await session.execute(
                select(ReportRow)
                .where(ReportRow.reported_id == player_id)
                .order_by(ReportRow.at.desc(), ReportRow.id.desc())
                .limit(limit)
            )
            return list(rows.scalars())

    async def close_report(self, report_id: int) -> str | None:
        """Close the open report ``report_id``; the reported player's id (``None``: no
        such open report)."""
        async with self._sessions.begin() as session:
            report = await session.get(ReportRow, report_id)
            if report is None or not report.open:
                return None
            report.open = False
            return report.reported_id

    async def sanctions(self, player_id: str, now: float) -> list[SanctionRow]:
        """``player_id``'s sanctions in force at ``now``."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(SanctionRow).where(SanctionRow.player_id == player_id, _in_force_at(now))
            )
            return list(rows.scalars())

    async def moderate(
        self,
        moderator_id: str,
        player_id: str,
        action: str,
        reason: str,
        at: float,
        *,
        sanction: str | None = None,
        until: float | None = None,
        lift: str | None = None,
    ) -> None:
        """Log a moderator's ``action`` and, in the same transaction, put ``sanction`` in
        force (until ``until``) or lift the sanctions of kind ``lift``."""
        async with self._sessions.begin() as session:
            if sanction is not None:
                session.add(SanctionRow(player_id=player_id, kind=sanction, at=at, until=until))
            if sanction in MARKS:  # what the account took from its opponents goes back
                await refund_opponents(session, player_id)
            if lift is not None:
                await session.execute(
                    update(SanctionRow)
                    .where(
                        SanctionRow.player_id == player_id,
                        SanctionRow.kind == lift,
                        SanctionRow.lifted_at.is_(None),
                    )
                    .values(lifted_at=at)
                )
            session.add(
                ModerationLogRow(
                    moderator_id=moderator_id,
                    player_id=player_id,
                    action=action,
                    reason=reason,
                    at=at,
                )
            )

    async def moderation_log(
        self, limit: int, player_id: str | None = None
    ) -> list[tuple[ModerationLogRow, str, str | None]]:
        """The latest moderators' actions (of one player's with ``player_id``), newest
        first, with the moderator's and the player's names."""
        moderator = PlayerRow.__table__.alias("moderator")
        player = PlayerRow.__table__.alias("player")
        query = (
            select(ModerationLogRow, moderator.c.name, player.c.name)
            .join(moderator, moderator.c.id == ModerationLogRow.moderator_id)
            .outerjoin(player, player.c.id == ModerationLogRow.player_id)
            .order_by(ModerationLogRow.at.desc(), ModerationLogRow.id.desc())
            .limit(limit)
        )
        if player_id is not None:
            query = query.where(ModerationLogRow.player_id == player_id)
        async with self._sessions() as session:
            rows = await session.execute(query)
            return [(row, str(by), None if on is None else str(on)) for row, by, on in rows.all()]
