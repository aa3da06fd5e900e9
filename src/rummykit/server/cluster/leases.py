"""Table leases with fencing tokens: which server process owns a live table.

When several server processes share one PostgreSQL database, each live table has one
owner at a time: the process holding its lease, a row of ``table_leases(table_id,
owner, token, expires_at)``.  :class:`LeaseStore` (storage's statements,
:mod:`~rummykit.server.storage.leases`, named here with the other kind of leases)
takes, renews and ends leases, each in one statement timed by the database's own clock
(``now()``), so the processes' clocks never matter.  A lease's ``token`` goes up by one
whenever the table changes owner and is never reused (the row outlives its leases), and
every action written under a lease is checked against it in the insert's own
transaction (``Storage.append_action(..., lease=...)``): an owner that lost its table
can no longer write to it, however late its write arrives.  ``docs/scale-out.md`` has
the design and its failure analysis.

A single server process (the default, on SQLite or PostgreSQL) owns every table and
needs no lease: :class:`LocalLeases` always grants one, and its leases are not
checked at the write (``fencing`` is false; pass ``lease=None`` to storage).

This module never decides *when* to renew or to stop acting for a table: that is the
holder's rule (:mod:`~rummykit.server.cluster.lease_keeper`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Protocol

from rummykit.server.storage.errors import LeaseLost
from rummykit.server.storage.fencing import Lease, lease_clock
from rummykit.server.storage.leases import LeaseStore, Renewal, check_ttl

__all__ = [
    "Lease",
    "LeaseLost",
    "LeaseStore",
    "Leases",
    "LocalLeases",
    "Renewal",
    "lease_clock",
]


class Leases(Protocol):
    """What a server process asks of table leases (:class:`LeaseStore` or
    :class:`LocalLeases`)."""

    fencing: bool
    """Whether storage must check this store's leases at every write."""

    async def acquire(self, table_id: str, owner: str, ttl: float) -> Lease | None: ...

    async def renew(self, lease: Lease) -> bool: ...

    async def renew_many(self, leases: Iterable[Lease], *, wait: bool = True) -> Renewal: ...

    async def release(self, lease: Lease) -> None: ...

    async def expired_tables(self, limit: int = 100, *, newborn: float = 10.0) -> list[str]: ...


class LocalLeases:
    """The leases of a single server process, which owns every table: in memory, never
    expiring and never checked at the write (``fencing`` is false).

    A table taken again gets a higher token, and the earlier lease no longer renews,
    so a holder behaves the same under both stores.
    """

    fencing = False

    def __init__(self, *, clock: Callable[[], float] = lease_clock) -> None:
        self._clock = clock
        self._tokens = itertools.count(1)
        self._held: dict[str, Lease] = {}

    async def acquire(self, table_id: str, owner: str, ttl: float) -> Lease:
        check_ttl(ttl)
        lease = Lease(
            table_id=table_id,
            owner=owner,
            token=next(self._tokens),
            ttl=ttl,
            acquired_at=self._clock(),
        )
        self._held[table_id] = lease
        return lease

    async def renew(self, lease: Lease) -> bool:
        return self._held.get(lease.table_id) == lease

    async def renew_many(self, leases: Iterable[Lease], *, wait: bool = True) -> Renewal:
        held = {lease.table_id for lease in leases if self._held.get(lease.table_id) == lease}
        return Renewal(renewed=held, busy=set(), sent_at=self._clock())

    async def release(self, lease: Lease) -> None:
        if self._held.get(lease.table_id) == lease:
            del self._held[lease.table_id]

    async def expired_tables(self, limit: int = 100, *, newborn: float = 10.0) -> list[str]:
        """None: the one process restores every unfinished table itself."""
        return []
