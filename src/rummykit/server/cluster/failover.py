"""Which tables this worker hosts: its leases, the takeover of orphaned tables, and the
stop rule.

- **Failover.** Every second (every quarter of the lease's ``ttl`` when that is
  shorter) the worker takes over unfinished tables whose lease expired or was released
  (``LeaseStore.expired_tables``), each on its own, and restores them from their log,
  so a table whose owner died goes on (turn timers, bots) within about the lease's
  ``ttl`` plus a second, whether or not a client is there.
- **The stop rule.** The keeper (``lease_keeper.py``) renews this worker's leases; a
  table whose lease lapses by the rule is stopped here at once (its clients reconnect),
  and every action is written under the lease (:meth:`Failover.fencing`).  A worker cut
  off from Redis takes no table and stops those it holds, releasing their leases, so
  that a worker its clients can reach takes them over.

This module never sends or reads an envelope and never touches a client: it decides
only whether a table's host may run here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from rummykit.server.cluster.lease_keeper import LeaseKeeper
from rummykit.server.cluster.tasks import Spawn
from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.errors import StorageError
from rummykit.server.storage.fencing import Lease, lease_clock
from rummykit.server.storage.leases import LeaseStore
from rummykit.server.table.host import TableHost
from rummykit.server.table.registry import TableRegistry


class Failover:
    """This worker's leases of tables, kept, taken, taken over and let go."""

    def __init__(
        self,
        *,
        worker_id: str,
        leases: LeaseStore,
        ttl: float,
        reaches_redis: Callable[[], bool],
        spawn: Spawn,
        on_taken: Callable[[str], None] = lambda table_id: None,
        on_lost: Callable[[str], None] = lambda table_id: None,
    ) -> None:
        self.worker_id = worker_id
        self.ttl = ttl
        self.on_taken = on_taken  # a table was just taken over here
        self.on_lost = on_lost  # a table was just let go here (before its host stops)
        self._let_go_at: dict[str, float] = {}  # the tables lost here, and when
        self.leases = leases
        self.reaches_redis = reaches_redis
        self.spawn = spawn
        self.registry: TableRegistry | None = None  # set when the worker joins the site
        self._taking: set[str] = set()  # the orphaned tables being taken over now
        self.keeper = LeaseKeeper(
            leases,
            owner=worker_id,
            ttl=ttl,
            margin=ttl / 4,
            renew_every=ttl / 4,
            on_lost=self.lost,
        )

    def fencing(self, table_id: str) -> Lease | None:
        """The lease to write ``table_id``'s actions under (``None``: stop acting)."""
        return self.keeper.lease_for(table_id)

    async def take(self, table_id: str) -> Lease | None:
        """This worker's lease of ``table_id`` (taken now if nobody holds it), or
        ``None``; ``StorageError`` if there is no such table."""
        if not self.reaches_redis():
            return None
        return await self.keeper.take(table_id)

    def may_host(self, table_id: str) -> bool:
        """Whether this worker may try to host (restore) ``table_id`` now: not a table it
        lost within the last two ``ttl``s (another worker is taking it over), and not
        while its renewals fail (the database is out of reach: a restore would only wait
        on it)."""
        now = lease_clock()
        for lost_id, at in list(self._let_go_at.items()):
            if now - at >= 2 * self.ttl:
                del self._let_go_at[lost_id]
        return table_id not in self._let_go_at and not self.keeper.failing()

    def lost(self, table_id: str) -> None:
        """The keeper let ``table_id`` go: hand its clients on and stop its host here."""
        self._let_go_at[table_id] = lease_clock()
        hosts = {} if self.registry is None else self.registry.hosts
        host = hosts.get(table_id)
        if host is not None:
            log_event(table_id, "lease_lost", worker=self.worker_id)
            self.on_lost(table_id)
            # its clients go now, and no new one is handed this host: it may be waiting
            # on a write that the database's time limit ends only later, and they
            # reconnect to the next owner
            host.seating.close_all()
            del hosts[table_id]
            self.spawn(host.stop())

    def host_stopped(self, table_id: str) -> None:
        """A host of this worker stopped (finished and idle, or failed): release its
        lease so that another worker can take the table at once."""
        lease = self.keeper.let_go(table_id)
        if lease is not None:
            self.spawn(self.leases.release(lease))

    async def take_orphans(self) -> None:
        """Take over the unfinished tables whose lease expired or was released, each on
        its own: a table whose restore waits (on a row a frozen worker still locks) holds
        up no other, and is not started twice while it waits."""
        assert self.registry is not None
        if not self.reaches_redis():
            return
        for table_id in await self.leases.expired_tables(limit=50):
            if table_id not in self._taking:
                self._taking.add(table_id)
                self.spawn(self._take_over(table_id))

    async def _take_over(self, table_id: str) -> None:
        assert self.registry is not None
        try:
            host = await self.registry.host(table_id)
        except (StorageError, TableError):  # gone, or another worker was first
            return
        except Exception as error:  # the database failed: the next scan tries again
            log_event(table_id, "take_over_failed", level=logging.WARNING, error=repr(error))
            return
        finally:
            self._taking.discard(table_id)
        if isinstance(host, TableHost):
            log_event(table_id, "taken_over", worker=self.worker_id)
            self.on_taken(table_id)

    async def check_cut_off(self) -> None:
        """Cut off from Redis: stop every table here (each lease is released, so that a
        worker the clients can reach takes the table over)."""
        if self.reaches_redis() or self.registry is None:
            return
        held = [t for t in self.keeper.tables() if t in self.registry.hosts]
        for table_id in held:
            log_event(table_id, "redis_lost", worker=self.worker_id)
            await self.registry.hosts[table_id].stop()
