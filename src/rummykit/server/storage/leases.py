"""The rows of table leases: taken, renewed and ended in PostgreSQL, each in one
statement timed by the database's own clock (``now()``), so the processes' clocks never
matter.

A lease's ``token`` goes up by one whenever the table changes owner and is never reused
(the row outlives its leases).  Which process should hold a table, and when it must
stop acting for it, is the cluster's business (:mod:`~rummykit.server.cluster.leases`,
:mod:`~rummykit.server.cluster.lease_keeper`); the check of a write against its lease,
in the write's own transaction, is :mod:`.fencing`.  ``docs/scale-out.md`` has the
design and its failure analysis.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import NamedTuple

from sqlalchemy import ColumnElement, func, literal, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from rummykit.server.storage.errors import StorageError
from rummykit.server.storage.fencing import Lease, lease_clock
from rummykit.server.storage.models import LeaseRow, TableRow


class Renewal(NamedTuple):
    """What a renewal of several leases did, by table id."""

    renewed: set[str]
    """Pushed to the database's ``now() + ttl``."""
    busy: set[str]
    """Still held, but not renewed this time (a renewal that does not wait): the row is
    locked by a write of its holder's own that is under way (:mod:`.fencing`)."""
    sent_at: float
    """The holder's clock (:func:`~.fencing.lease_clock`) as the first statement was
    sent, a connection in hand: a wait for a free connection does not shorten the time
    the renewed leases allow."""


def check_ttl(ttl: float) -> None:
    """Refuse a ttl that is not a positive, finite number of seconds."""
    if not (isinstance(ttl, int | float) and math.isfinite(ttl) and ttl > 0):
        raise ValueError(f"a lease's ttl must be a positive number of seconds, not {ttl!r}")


def _seconds(ttl: float) -> ColumnElement[timedelta]:
    return literal(timedelta(seconds=ttl))


class LeaseStore:
    """Table leases in PostgreSQL, timed by the database's clock.

    Every statement runs alone in autocommit: the database runs and commits it as one
    message, so a process cut off at any moment never leaves a lease row locked by an
    open transaction (which would block every takeover until its connection is found
    dead).  Database errors (a lost connection, a timeout) are raised as they are: to
    the holder a renewal that failed is simply one that did not happen.
    """

    fencing = True

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        renewals: AsyncEngine | None = None,
        clock: Callable[[], float] = lease_clock,
    ) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError(
                "table leases need PostgreSQL (a single server process uses LocalLeases)"
            )
        self.engine = engine
        self._alone = engine.execution_options(isolation_level="AUTOCOMMIT")
        # the renewals that wait on no row lock, on connections of their own if given:
        # a holder's many takes and lookups at once (a takeover) never hold them up
        self._renewing = (renewals or engine).execution_options(isolation_level="AUTOCOMMIT")
        self._clock = clock

    async def acquire(self, table_id: str, owner: str, ttl: float) -> Lease | None:
        """Take the table for ``owner`` for ``ttl`` seconds if nobody holds it (no lease
        yet, or the last one expired or was released); ``None`` if someone does, even
        ``owner`` itself.  The token is 1 for a table's first lease, then one more than
        the last.  ``StorageError`` if the table is not stored.

        One ``INSERT ... ON CONFLICT DO UPDATE ... WHERE expired RETURNING``: of any
        number of processes racing for a table, exactly one gets it.
        """
        check_ttl(ttl)
        now = func.now()
        first = insert(LeaseRow).values(
            table_id=table_id, owner=owner, token=1, expires_at=now + _seconds(ttl)
        )
        statement = first.on_conflict_do_update(
            index_elements=[LeaseRow.table_id],
            set_={
                "owner": first.excluded.owner,
                "token": LeaseRow.token + 1,
                "expires_at": first.excluded.expires_at,
            },
            where=LeaseRow.expires_at <= now,
        ).returning(LeaseRow.token)
        try:
            async with self._alone.connect() as connection:
                sent_at = self._clock()  # not before: waiting for a connection sends nothing
                token = await connection.scalar(statement)
        except IntegrityError as error:
            raise StorageError(f"table {table_id} is not stored") from error
        if token is None:
            return None
        return Lease(table_id=table_id, owner=owner, token=token, ttl=ttl, acquired_at=sent_at)

    async def renew(self, lease: Lease) -> bool:
        """Push the lease's expiry to the database's ``now() + ttl``; false (and nothing
        changed) if it was not renewed: no longer held (expired, released or taken over:
        a lease that expired is never brought back, even if nobody took it meanwhile;
        its holder must acquire the table again, a new token, and reload it), or
        :attr:`Renewal.busy`."""
        return lease.table_id in (await self.renew_many([lease])).renewed

    async def renew_many(self, leases: Iterable[Lease], *, wait: bool = True) -> Renewal:
        """Renew several leases at once (one statement for each ``ttl`` among them).

        The rows that the holder's own writes hold (``FOR SHARE`` until their commit,
        which a busy process may be slow to send) are waited for; unless ``wait`` is
        false: they are then skipped and reported :attr:`Renewal.busy`, so that a
        holder may renew its other tables first, held up by no write of theirs.
        """
        held = list(leases)
        renewed: set[str] = set()
        busy: set[str] = set()
        if not held:
            return Renewal(renewed, busy, self._clock())
        async with (self._alone if wait else self._renewing).connect() as connection:
            sent_at = self._clock()
            for ttl in sorted({lease.ttl for lease in held}):
                check_ttl(ttl)
                keys = [(x.table_id, x.owner, x.token) for x in held if x.ttl == ttl]
                still_held = select(LeaseRow.table_id).where(
                    tuple_(LeaseRow.table_id, LeaseRow.owner, LeaseRow.token).in_(keys),
                    LeaseRow.expires_at > func.now(),
                )
                free = still_held.with_for_update(key_share=True, skip_locked=not wait)
                result = await connection.execute(
                    update(LeaseRow)
                    .where(LeaseRow.table_id.in_(free))
                    .values(expires_at=func.now() + _seconds(ttl))
                    .returning(LeaseRow.table_id)
                )
                now_renewed = set(result.scalars())
                renewed |= now_renewed
                if not wait and len(now_renewed) < len(keys):  # which were skipped
                    busy |= set((await connection.execute(still_held)).scalars()) - now_renewed
        return Renewal(renewed, busy, sent_at)

    async def release(self, lease: Lease) -> None:
        """End the lease now, if it is still held (the row stays, keeping the token)."""
        async with self._alone.connect() as connection:
            await connection.execute(
                update(LeaseRow)
                .where(
                    LeaseRow.table_id == lease.table_id,
                    LeaseRow.owner == lease.owner,
                    LeaseRow.token == lease.token,
                    LeaseRow.expires_at > func.now(),
                )
                .values(expires_at=func.now())
            )

    async def owner_of(self, table_id: str) -> str | None:
        """Who holds the table's lease now (where its commands go), if anyone."""
        async with self._alone.connect() as connection:
            owner: str | None = await connection.scalar(
                select(LeaseRow.owner).where(
                    LeaseRow.table_id == table_id, LeaseRow.expires_at > func.now()
                )
            )
            return owner

    async def expired_tables(self, limit: int = 100, *, newborn: float = 10.0) -> list[str]:
        """Unfinished tables that nobody holds (an expired or released lease, or none
        yet ``newborn`` seconds after the table's creation: its creator takes the first
        lease right after storing it), oldest first: the orphans a process may take."""
        unleased_since = func.extract("epoch", func.now()) - newborn
        async with self._alone.connect() as connection:
            result = await connection.execute(
                select(TableRow.id)
                .outerjoin(LeaseRow, LeaseRow.table_id == TableRow.id)
                .where(
                    TableRow.status != "over",
                    (LeaseRow.table_id.is_(None) & (TableRow.created_at < unleased_since))
                    | (LeaseRow.expires_at <= func.now()),
                )
                .order_by(TableRow.created_at, TableRow.id)
                .limit(limit)
            )
            return list(result.scalars())
