"""The traces that link accounts of one person (``account_links``): each account's
browsers and addresses, as keyed hashes only, with when each was first and last seen.

A trace is written when a session starts (a guest's, a login, a registration); traces
older than the retention are deleted as the player's next trace is written, and never
read.  Two accounts are linked by a trace both have been seen with since a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from rummykit.server.storage.models import AccountLinkRow

Trace = tuple[str, str]
"""A trace: its kind (``browser``, ``address``) and its keyed hash."""
DECIDING_KINDS: Final = ("browser",)
"""The traces that refuse a second account a seat: one browser's accounts are one
person's; an address only informs moderators (households, offices and mobile networks
share addresses)."""
DAY: Final = 86_400.0


def window_start(now: float, link_days: float) -> float:
    """When the traces that still link accounts begin: ``link_days`` before ``now``.

    >>> window_start(10 * DAY, 7)
    259200.0
    """
    return now - link_days * DAY


async def linked_in(
    session: AsyncSession,
    player_id: str,
    others: Iterable[str],
    *,
    since: float,
    kinds: Iterable[str] = DECIDING_KINDS,
) -> set[str]:
    """Those of ``others`` linked to ``player_id`` by a trace of one of ``kinds`` (by
    default those that refuse a seat) that both were seen with since ``since`` (a read
    in the caller's transaction)."""
    others = [o for o in set(others) if o != player_id]
    if not others:
        return set()
    mine = (
        select(AccountLinkRow.kind, AccountLinkRow.key)
        .where(
            AccountLinkRow.player_id == player_id,
            AccountLinkRow.kind.in_(list(kinds)),
            AccountLinkRow.last_seen >= since,
        )
        .subquery()
    )
    found = await session.execute(
        select(AccountLinkRow.player_id)
        .join(mine, (AccountLinkRow.kind == mine.c.kind) & (AccountLinkRow.key == mine.c.key))
        .where(AccountLinkRow.player_id.in_(others), AccountLinkRow.last_seen >= since)
        .distinct()
    )
    return set(found.scalars())


class LinkStore:
    """Reads and writes of the traces (a part of
    :class:`~rummykit.server.storage.store.Storage`)."""

    engine: AsyncEngine
    _sessions: async_sessionmaker[AsyncSession]

    async def record_traces(
        self, player_id: str, traces: Iterable[Trace], *, at: float, forget_before: float
    ) -> None:
        """Note that ``player_id`` was seen with ``traces`` at ``at``, and forget the
        player's traces last seen before ``forget_before``."""
        for kind, key in traces:
            async with self._sessions.begin() as session:
                seen = await session.execute(
                    update(AccountLinkRow)
                    .where(
                        AccountLinkRow.player_id == player_id,
                        AccountLinkRow.kind == kind,
                        AccountLinkRow.key == key,
                    )
                    .values(last_seen=at)
                )
                if getattr(seen, "rowcount", 0):
                    continue
            try:
                async with self._sessions.begin() as session:
                    session.add(
                        AccountLinkRow(
                            player_id=player_id, kind=kind, key=key, first_seen=at, last_seen=at
                        )
                    )
            except IntegrityError:  # the same trace, written at once by another request
                pass
        async with self._sessions.begin() as session:
            await session.execute(
                delete(AccountLinkRow).where(
                    AccountLinkRow.player_id == player_id,
                    AccountLinkRow.last_seen < forget_before,
                )
            )

    async def linked_to(
        self,
        player_id: str,
        others: Iterable[str],
        *,
        since: float,
        kinds: Iterable[str] = DECIDING_KINDS,
    ) -> set[str]:
        """Those of ``others`` linked to ``player_id`` (see :func:`linked_in`)."""
        async with self._sessions() as session:
            return await linked_in(session, player_id, others, kinds=kinds, since=since)

    async def links_of(self, player_id: str, *, since: float) -> list[tuple[str, str]]:
        """Every account linked to ``player_id`` since ``since``, with the kind of trace
        that links them: ``(player id, kind)`` pairs, for moderators."""
        async with self._sessions() as session:
            mine = (
                select(AccountLinkRow.kind, AccountLinkRow.key)
                .where(AccountLinkRow.player_id == player_id, AccountLinkRow.last_seen >= since)
                .subquery()
            )
            found = await session.execute(
                select(AccountLinkRow.player_id, AccountLinkRow.kind)
                .join(
                    mine, (AccountLinkRow.kind == mine.c.kind) & (AccountLinkRow.key == mine.c.key)
                )
                .where(AccountLinkRow.player_id != player_id, AccountLinkRow.last_seen >= since)
                .distinct()
                .order_by(AccountLinkRow.player_id, AccountLinkRow.kind)
            )
            return [(row[0], row[1]) for row in found.all()]
