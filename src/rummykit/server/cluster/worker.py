"""One worker of a site of several server processes sharing PostgreSQL and Redis.

``rummykit serve --redis redis://…`` (on PostgreSQL) makes the process a worker.  Each
live table is hosted by the one worker holding its lease (``leases.py``,
``lease_keeper.py``); any worker accepts any client.  :class:`Cluster` is that worker:
it puts together the parts of the cluster room and runs their loops
(``docs/scale-out.md`` has the whole design and its failure analysis):

- **The Redis link** (``redis_link.py``): this worker's channels, the envelopes it
  publishes and receives, and its heartbeat.
- **The gateway's side** (``gateway.py``): its clients of tables hosted elsewhere.
- **The owner's side** (``owner.py``): other gateways' clients at its tables.
- **Failover and the stop rule** (``failover.py``): the leases it keeps, the orphaned
  tables it takes over, the tables it lets go when cut off.
- **Presence** (``presence.py``): the waiting tables whose players are all away.
- **Bot requests** (``bot_requests.py``): calls to the site's bot workers.
- **Socket counts** (``redis_sockets.py``): each player's open table sockets, counted
  for the whole site.

Heartbeats tie them together: an owner detaches the clients of a gateway whose key
lapsed (and answers any later command of theirs by telling their gateway to close
them); a gateway closes the clients of an owner whose key lapsed, and all of its
clients when its own key no longer reaches Redis, and they reconnect.
Redis pub/sub delivers at most once: a lost command gets no answer (the gateway times a
join or leave out as ``table_unavailable``), a lost view is made good by the state
numbers every message carries (a client that sees a gap reconnects).

This module only assembles, routes envelopes to their side and runs loops: what each
part does is its own module's, and it never reads a table's state itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
from typing import TYPE_CHECKING, Any

from rummykit.server.accounts.throttles import AccountLimits
from rummykit.server.cancelling import cancel
from rummykit.server.cluster.bot_requests import BotRequests
from rummykit.server.cluster.failover import Failover
from rummykit.server.cluster.gateway import GatewaySide
from rummykit.server.cluster.owner import OwnerSide
from rummykit.server.cluster.presence import Presence
from rummykit.server.cluster.redis_link import RedisLink
from rummykit.server.cluster.redis_sockets import RENEW_SECONDS, RedisSockets
from rummykit.server.cluster.tasks import OneOffWork, every
from rummykit.server.operations.events_log import log_event, set_worker
from rummykit.server.settings import Settings
from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.fencing import Lease
from rummykit.server.storage.leases import LeaseStore
from rummykit.server.storage.store import Storage
from rummykit.server.table.registry import TableRegistry
from rummykit.server.table.remote import RemoteTable

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from sqlalchemy.ext.asyncio import AsyncEngine

HEARTBEAT_SECONDS = 0.5
SCAN_SECONDS = 1.0
"""The longest between two scans for orphaned tables; a quarter of the lease's ttl when
that is shorter, so that a table moves soon after its lease lapses."""
LEASE_CONNECTIONS = 3
"""The connections of a worker's lease statements, a pool of their own: renewals, takes,
releases and owner lookups never wait for a connection behind other work, such as the
restores of many tables just taken over, which could hold every connection of the main
pool past the leases' safe time (they would lapse on a worker merely busy).  The renewals
that wait on no row lock have one more connection to themselves (one such renewal is out
at a time), so that the takes and lookups of a takeover, many at once, never hold them
up either."""
FOLLOW_MARGIN = 2.0
"""How long past a lease's ttl a gateway waits to hear where a table let go went, before
its clients reconnect instead."""


def new_worker_id() -> str:
    """A worker's id, new at every start: host name, process id and a random part."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"


def _lease_engine(settings: Settings, connections: int) -> AsyncEngine:
    """A pool of ``connections`` of a worker's own for its lease statements, each
    statement held to the lease's time like the worker's other statements."""
    return make_engine(
        settings.database_url,
        schema=settings.database_schema,
        pool_size=connections,
        max_overflow=0,
        time_limit=settings.lease_seconds,
    )


class Cluster:
    """This process as one worker of a site: its leases, channels and heartbeats."""

    def __init__(self, settings: Settings, *, worker_id: str | None = None) -> None:
        self.worker_id = worker_id or new_worker_id()
        self.scan_seconds = min(SCAN_SECONDS, settings.lease_seconds / 4)
        self.link = RedisLink(settings, worker_id=self.worker_id)
        self.prefix = self.link.prefix
        self.redis: Redis = self.link.redis
        self.lease_engine = _lease_engine(settings, LEASE_CONNECTIONS)
        self.renewal_engine = _lease_engine(settings, 1)
        self.leases = LeaseStore(self.lease_engine, renewals=self.renewal_engine)
        self.registry: TableRegistry | None = None
        self._work = OneOffWork()  # one-off work (releases, answers)
        self._background: set[asyncio.Task[Any]] = set()  # the loops of a running worker
        self.gateway = GatewaySide(
            worker_id=self.worker_id,
            leases=self.leases,
            alive=self.link.alive,
            publish=self.link.publish,
            spawn=self._work.spawn,
            follow_seconds=settings.lease_seconds + FOLLOW_MARGIN,
            reaches_redis=self.link.reaches_redis,
        )
        self.owner = OwnerSide(
            worker_id=self.worker_id, publish=self.link.publish, spawn=self._work.spawn
        )
        self.failover = Failover(
            worker_id=self.worker_id,
            leases=self.leases,
            ttl=settings.lease_seconds,
            reaches_redis=self.link.reaches_redis,
            spawn=self._work.spawn,
            on_taken=self._taken_over,
            on_lost=self.owner.let_go,
        )
        self.keeper = self.failover.keeper
        self.owner.may_host = self.failover.may_host
        self.owner.database_failed = self.keeper.failed
        self.presence = Presence(
            self.redis, prefix=self.prefix, alive_seconds=self.link.alive_seconds
        )
        self.bots = BotRequests(self.redis, reply_channel=self.link.channel(self.worker_id))
        self.sockets = RedisSockets(
            self.redis,
            prefix=self.prefix,
            limit=settings.sockets_per_player,
            worker_id=self.worker_id,
        )

    # -- running -------------------------------------------------------------------------

    async def start(self, registry: TableRegistry) -> None:
        """Join the site: announce this worker, listen to its channels, keep its leases
        and take over orphaned tables."""
        self.registry = registry
        self.failover.registry = registry
        self.owner.registry = registry
        self.presence.registry = registry
        await self.link.beat()
        pubsub = await self.link.subscribe()
        self.link.start_sending()
        for work in (
            self.link.listen(pubsub, self._handle),
            self._every(HEARTBEAT_SECONDS, self.link.beat),
            self._every(self.scan_seconds, self.failover.take_orphans),
            self._every(HEARTBEAT_SECONDS, self._watch_peers),
            self._every(HEARTBEAT_SECONDS / 2, self._check_cut_off),
            self._every(HEARTBEAT_SECONDS, self.presence.publish_presence),
            self._every(RENEW_SECONDS, self.sockets.renew),
            self.keeper.run(),
        ):
            self._background.add(asyncio.create_task(work))
        set_worker(self.worker_id)  # every structured log line of the process names it
        log_event(None, "worker_started", worker=self.worker_id)

    async def stop_taking(self) -> None:
        """Stop taking tables, renewing leases and listening (at shutdown, before the
        hosts stop: a table let go must not be taken straight back here)."""
        await cancel(self._background)

    async def close(self) -> None:
        """Leave the site: release every lease still held (the tables move at once)
        and say this worker is gone."""
        await self.stop_taking()
        await self._work.finish(timeout=5)  # the releases of the hosts just stopped
        await self.link.stop_sending()
        with contextlib.suppress(Exception):
            await self.keeper.close()
        await self.lease_engine.dispose()
        await self.renewal_engine.dispose()
        await self.link.close()

    async def _every(self, seconds: float, work: Any) -> None:
        await every(seconds, work, worker_id=self.worker_id)

    # -- the parts, as the rest of the server sees them ----------------------------------

    def channel(self, worker: str) -> str:
        return self.link.channel(worker)

    def publish(self, worker: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``worker`` (sent in order by one task)."""
        self.link.publish(worker, message)

    def reaches_redis(self) -> bool:
        """Whether this worker's last heartbeat is recent enough to act as part of the
        site (``redis_link.CUT_OFF_MARGIN``)."""
        return self.link.reaches_redis()

    async def alive(self, workers: set[str]) -> set[str]:
        """Which of ``workers`` have a live heartbeat."""
        return await self.link.alive(workers)

    def shared_limits(self, settings: Settings) -> AccountLimits:
        """The account limits (logins, registrations, guest sessions), counted in Redis
        for every worker of the site."""
        from rummykit.server.cluster.redis_throttles import shared_limits

        return shared_limits(self.redis, self.prefix, settings)

    def fencing(self, table_id: str) -> Lease | None:
        """The lease to write ``table_id``'s actions under (``None``: stop acting)."""
        return self.failover.fencing(table_id)

    async def take(self, table_id: str) -> Lease | None:
        """This worker's lease of ``table_id`` (taken now if nobody holds it), or
        ``None``; ``StorageError`` if there is no such table."""
        return await self.failover.take(table_id)

    def host_stopped(self, table_id: str, *, unfinished: bool = False) -> None:
        """A host of this worker stopped: release its lease (``Failover.host_stopped``);
        if its game goes on, its clients elsewhere follow it to its next owner."""
        if unfinished:
            self.owner.let_go(table_id)
        self.failover.host_stopped(table_id)

    async def remote_table(self, table_id: str, storage: Storage) -> RemoteTable | None:
        """The gateway's stand-in for ``table_id`` hosted by another live worker;
        ``None`` when no live worker holds it."""
        return await self.gateway.remote_table(table_id, storage)

    async def hidden_elsewhere(self, table_ids: list[str]) -> set[str]:
        """Which of ``table_ids`` (hosted by other workers) their owners mark as away."""
        return await self.presence.hidden_elsewhere(table_ids)

    async def player_back(self, table_id: str) -> None:
        """A player came back to ``table_id``, a waiting table here that the lobbies left
        out: its away mark goes now (``Presence.unmark``)."""
        await self.presence.unmark(table_id)

    async def ask_bots(self, stream: str, call: str, timeout: float) -> str | None:
        """Put ``call`` on a bot stream and wait for a bot worker's answer; ``None`` if
        none came within ``timeout`` seconds or Redis could not be reached."""
        return await self.bots.ask(stream, call, timeout)

    def signed_out(self, player_id: str) -> None:
        """``player_id`` logged out here: close their clients this worker is the gateway
        of, and tell every worker to close theirs and detach them from its tables."""
        self.gateway.close_connections(player_id)
        self.link.publish_all({"k": "signed_out", "p": player_id})

    def vacations_changed(self, player_id: str) -> None:
        """``player_id`` declared a vacation here: every other worker's tables where they
        sit read their vacations again (this worker's did already)."""
        self.link.publish_all({"k": "vacation", "p": player_id, "o": self.worker_id})

    def _taken_over(self, table_id: str) -> None:
        """This worker took ``table_id`` over: its own clients of the former owner
        reconnect to the host here, and every other worker moves its clients here."""
        self.gateway.table_moved(table_id)
        self.link.publish_all({"k": "moved", "t": table_id, "o": self.worker_id})

    # -- routing -------------------------------------------------------------------------

    async def _handle(self, message: dict[str, Any]) -> None:
        """Hand an envelope that reached this worker's channels to its side."""
        kind = message["k"]
        if kind in GatewaySide.KINDS:
            self.gateway.receive(message)
        elif kind in BotRequests.KINDS:
            self.bots.receive(message)
        elif kind == "signed_out":
            player_id = str(message.get("p"))
            self.gateway.close_connections(player_id)
            if self.registry is not None:
                await self.registry.sign_out(player_id)
        elif kind == "vacation":
            if self.registry is not None and message.get("o") != self.worker_id:
                self.registry.vacations_changed(str(message.get("p")))
        elif kind in OwnerSide.KINDS:
            await self.owner.receive(message)

    async def _check_cut_off(self) -> None:
        """Cut off from Redis: stop the tables hosted here (``Failover.check_cut_off``)
        and close this gateway's clients of tables hosted elsewhere, whom no owner can
        hear from here (they reconnect through a worker that can serve them)."""
        if self.link.reaches_redis():
            return
        self.gateway.cut_off()
        await self.failover.check_cut_off()

    async def _watch_peers(self) -> None:
        """Detach the clients of gateways that died; close this gateway's clients of
        tables whose owner died or stopped (they reconnect to the next owner)."""
        self.owner.forget_stopped()
        alive = await self.link.alive(self.owner.gateways() | self.gateway.owners())
        self.owner.detach_dead_gateways(alive)
        self.gateway.forget_dead_owners(alive)
