"""A table's lease as storage checks it: the fencing token every write of the table
is made under.

Which process holds a table, and for how long, is the cluster's business
(:mod:`~rummykit.server.cluster.leases` names the leases a process holds,
:mod:`~rummykit.server.cluster.lease_keeper` decides when to stop acting); the
statements that take and renew them are :mod:`~rummykit.server.storage.leases`.  Storage only
compares a write's :class:`Lease` with the table's current token in the write's own
transaction and refuses a stale one (``LeaseLost``), so the value lives here, below both.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import func, select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from rummykit.server.storage.models import LeaseRow


def lease_clock() -> float:
    """Seconds on the clock a holder times its leases by: ``CLOCK_BOOTTIME`` where the
    system has it (it never goes back and, unlike ``time.monotonic`` on Linux, it goes
    on while the machine is suspended), else :func:`time.monotonic`."""
    boottime = getattr(time, "CLOCK_BOOTTIME", None)
    if boottime is not None:
        return time.clock_gettime(boottime)
    return time.monotonic()


@dataclass(frozen=True, slots=True)
class Lease:
    """One owner's hold on one table.

    ``token`` is the fencing token: strictly increasing per table, so a newer owner
    always holds a higher one.  ``acquired_at`` is the holder's :func:`lease_clock`
    just *before* the acquiring statement was sent: the database set the expiry to its
    ``now() + ttl`` after that moment, so the lease lasts at least until
    ``acquired_at + ttl`` on the holder's clock (give or take the two clocks' drift).
    """

    table_id: str
    owner: str
    token: int
    ttl: float
    acquired_at: float

    def safe_until(self, margin: float) -> float:
        """The holder's clock reading after which it must stop acting under this lease
        unless it has renewed it since (``acquired_at + ttl - margin``)."""
        return self.acquired_at + self.ttl - margin


async def held_leases(connection: AsyncConnection, leases: list[Lease]) -> set[Lease]:
    """Those of ``leases`` still held (right owner and token, not expired by the
    database's clock), their rows locked against a takeover until the commit."""
    if not leases:
        return set()
    held = select(LeaseRow.table_id, LeaseRow.owner, LeaseRow.token)
    if connection.dialect.name == "postgresql":
        # A process cut off after this statement would keep the rows it locked, and
        # so block any takeover, until its TCP connection is found dead (hours): the
        # database ends the transaction once it has been idle for a ttl instead.  Set
        # by the statement itself (for each row found, before it is locked): no
        # extra round trip.
        idle_ms = max(1, int(min(x.ttl for x in leases) * 1000))
        held = held.add_columns(
            func.set_config("idle_in_transaction_session_timeout", str(idle_ms), True)
        )
    found = await connection.execute(
        held.where(
            tuple_(LeaseRow.table_id, LeaseRow.owner, LeaseRow.token).in_(
                sorted({(x.table_id, x.owner, x.token) for x in leases})
            ),
            LeaseRow.expires_at > func.now(),
        ).with_for_update(read=True)
    )
    keys = {(row[0], row[1], row[2]) for row in found}
    return {x for x in leases if (x.table_id, x.owner, x.token) in keys}


async def held(session: AsyncSession, lease: Lease | None) -> bool:
    """Whether a write made in ``session``'s transaction may go on under ``lease``: no
    lease (a single process, which owns every table), or one that still holds its table;
    its row then stays locked against a takeover until the transaction ends."""
    if lease is None:
        return True
    return bool(await held_leases(await session.connection(), [lease]))
