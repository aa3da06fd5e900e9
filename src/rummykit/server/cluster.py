"""One worker of a site of several server processes sharing PostgreSQL and Redis.

``rummykit serve --redis redis://…`` (on PostgreSQL) makes the process a worker.  Each
live table is hosted by the one worker holding its lease (``leases.py``,
``lease_keeper.py``); any worker accepts any client.  What this module adds
(``docs/scale-out.md`` has the whole design and its failure analysis):

- **Channels.** Each worker reads the Redis pub/sub channel ``<prefix>:worker:<id>``
  (envelopes for it) and ``<prefix>:all`` (a logout).  A gateway sends a client's
  commands to the table's owner there, the owner sends each connection what its host
  sends it (:mod:`rummykit.server.remote_table`), and join and leave get an answer.
- **Heartbeats.** Each worker keeps the key ``<prefix>:alive:<id>`` alive (a few seconds'
  expiry, renewed every second).  An owner detaches the clients of a gateway whose key
  lapsed; a gateway closes the clients of an owner whose key lapsed, and they reconnect.
- **Failover.** Every second each worker takes over unfinished tables whose lease
  expired or was released (``LeaseStore.expired_tables``) and restores them from their
  log, so a table whose owner died goes on (turn timers, bots) within about the lease's
  ``ttl`` plus a second, whether or not a client is there.
- **The stop rule.** The keeper renews this worker's leases; a table whose lease lapses
  by the rule is stopped here at once (its clients reconnect), and every action is
  written under the lease, so a worker cut off from the database or Redis never commits
  for a table another worker may hold.

Redis pub/sub delivers at most once: a lost command gets no answer (the gateway times a
join or leave out as ``table_unavailable``), a lost view is made good by the state
numbers every message carries (a client that sees a gap reconnects).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncEngine

from rummykit.server.commands import (
    Attach,
    ClientAction,
    ClientChat,
    ClientHint,
    Detach,
    Join,
    Leave,
    RematchMade,
    TableError,
)
from rummykit.server.connection import Connection
from rummykit.server.events_log import log_event
from rummykit.server.host import TableHost
from rummykit.server.lease_keeper import LeaseKeeper
from rummykit.server.leases import Lease, LeaseStore
from rummykit.server.remote_table import Refusal, RemoteConnection, RemoteTable, envelope
from rummykit.server.settings import Settings
from rummykit.server.storage import Storage, StorageError
from rummykit.server.throttles import AccountLimits

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from rummykit.server.tables import TableRegistry

log = logging.getLogger("rummykit.server")

HEARTBEAT_SECONDS = 0.5
SCAN_SECONDS = 1.0
REDIS_TIMEOUT = 1.0
STREAM_LENGTH = 100_000  # bot stream entries kept (the oldest, long answered, trimmed)
CUT_OFF_MARGIN = 1.0
"""A worker whose heartbeat has not reached Redis for ``alive_seconds - CUT_OFF_MARGIN``
lets its tables go: its clients elsewhere can no longer reach it, so another worker,
which they can reach, must host them."""


def new_worker_id() -> str:
    """A worker's id, new at every start: host name, process id and a random part."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"


class Cluster:
    """This process as one worker of a site: its leases, channels and heartbeats."""

    def __init__(
        self, settings: Settings, engine: AsyncEngine, *, worker_id: str | None = None
    ) -> None:
        try:
            from redis.asyncio import Redis
        except ImportError:  # pragma: no cover - the extra is installed with the tests
            raise SystemExit(
                "several server processes need Redis's client: pip install 'rummykit[scale]'"
            ) from None
        if settings.redis_url is None:
            raise ValueError("a worker of a site needs settings.redis_url")
        self.worker_id = worker_id or new_worker_id()
        self.prefix = settings.redis_prefix
        # commands time out (a heartbeat that hangs is one that failed); the channels'
        # subscription waits as long as it must, on its own connection
        self.redis: Redis = Redis.from_url(
            settings.redis_url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
        )
        self._listener: Redis = Redis.from_url(settings.redis_url)
        self._heard_until = 0.0  # until when the last heartbeat proves Redis reachable
        # how long a heartbeat keeps a worker alive in the others' eyes: at least three
        # seconds, and no less than a lease (a busy machine delays heartbeats too)
        self.alive_seconds = max(3.0, settings.lease_seconds)
        self.leases = LeaseStore(engine)
        ttl = settings.lease_seconds
        self.keeper = LeaseKeeper(
            self.leases,
            owner=self.worker_id,
            ttl=ttl,
            margin=ttl / 4,
            renew_every=ttl / 4,
            on_lost=self._lost,
        )
        self.registry: TableRegistry | None = None
        # the gateway's side: its clients of tables hosted elsewhere, by connection id,
        # and the joins and leaves waiting for an owner's answer
        self.gateway_connections: dict[str, tuple[Connection, RemoteTable]] = {}
        self.replies: dict[str, asyncio.Future[Any]] = {}
        # answers of the site's bot workers (``bot_stream.py``) by request id
        self.bot_answers: dict[str, asyncio.Future[str]] = {}
        # the owner's side: clients of other gateways at this worker's tables
        self.remote_connections: dict[str, tuple[RemoteConnection, TableHost]] = {}
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()  # one-off work (releases, answers)
        self._background: set[asyncio.Task[Any]] = set()  # the loops of a running worker
        self._sender: asyncio.Task[None] | None = None

    # -- names ---------------------------------------------------------------------------

    def channel(self, worker: str) -> str:
        return f"{self.prefix}:worker:{worker}"

    def alive_key(self, worker: str) -> str:
        return f"{self.prefix}:alive:{worker}"

    @property
    def everyone(self) -> str:
        return f"{self.prefix}:all"

    # -- running -------------------------------------------------------------------------

    async def start(self, registry: TableRegistry) -> None:
        """Join the site: announce this worker, listen to its channels, keep its leases
        and take over orphaned tables."""
        self.registry = registry
        await self._beat()
        pubsub = self._listener.pubsub()
        await pubsub.subscribe(self.channel(self.worker_id), self.everyone)
        self._sender = asyncio.create_task(self._send_all())
        for work in (
            self._listen(pubsub),
            self._every(HEARTBEAT_SECONDS, self._beat),
            self._every(SCAN_SECONDS, self._take_orphans),
            self._every(HEARTBEAT_SECONDS, self._watch_peers),
            self._every(HEARTBEAT_SECONDS / 2, self._check_cut_off),
            self._every(HEARTBEAT_SECONDS, self._publish_presence),
            self.keeper.run(),
        ):
            self._background.add(asyncio.create_task(work))
        log_event(None, "worker_started", worker=self.worker_id)

    async def stop_taking(self) -> None:
        """Stop taking tables, renewing leases and listening (at shutdown, before the
        hosts stop: a table let go must not be taken straight back here)."""
        await _cancel(self._background)

    async def close(self) -> None:
        """Leave the site: release every lease still held (the tables move at once)
        and say this worker is gone."""
        await self.stop_taking()
        if self._tasks:  # the releases of the hosts just stopped
            await asyncio.wait(set(self._tasks), timeout=5)
        await _cancel(self._tasks)
        if self._sender is not None:
            await _cancel({self._sender})
        with contextlib.suppress(Exception):
            await self.keeper.close()
        with contextlib.suppress(Exception):
            await self.redis.delete(self.alive_key(self.worker_id))
        await self.redis.aclose()
        await self._listener.aclose()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _every(self, seconds: float, work: Any) -> None:
        while True:
            try:
                await work()
            except Exception:  # Redis or the database away: try again next time
                log.warning("worker %s: %s failed", self.worker_id, work.__name__, exc_info=True)
            await asyncio.sleep(seconds)

    async def _beat(self) -> None:
        sent = time.monotonic()
        alive = int(self.alive_seconds * 1000)
        await self.redis.set(self.alive_key(self.worker_id), b"1", px=alive)
        self._heard_until = sent + self.alive_seconds - CUT_OFF_MARGIN

    def reaches_redis(self) -> bool:
        """Whether this worker's last heartbeat is recent enough to act as part of the
        site (see :data:`CUT_OFF_MARGIN`)."""
        return time.monotonic() < self._heard_until

    async def _check_cut_off(self) -> None:
        """Cut off from Redis: stop every table here (each lease is released, so that a
        worker the clients can reach takes the table over)."""
        if self.reaches_redis() or self.registry is None:
            return
        held = [t for t in self.keeper.tables() if t in self.registry.hosts]
        for table_id in held:
            log_event(table_id, "redis_lost", worker=self.worker_id)
            await self.registry.hosts[table_id].stop()

    async def alive(self, workers: set[str]) -> set[str]:
        """Which of ``workers`` have a live heartbeat."""
        names = sorted(workers)
        if not names:
            return set()
        found = await self.redis.mget([self.alive_key(name) for name in names])
        return {name for name, value in zip(names, found, strict=True) if value is not None}

    def shared_limits(self, settings: Settings) -> AccountLimits:
        """The account limits (logins, registrations, guest sessions), counted in Redis
        for every worker of the site."""
        from rummykit.server.redis_throttles import shared_limits

        return shared_limits(self.redis, self.prefix, settings)

    # -- the lobby -----------------------------------------------------------------------

    def hidden_key(self, table_id: str) -> str:
        return f"{self.prefix}:away:{table_id}"

    async def _publish_presence(self) -> None:
        """Mark the waiting tables here whose players are all away (the lobby of every
        worker leaves them out); a mark lapses unless renewed."""
        if self.registry is None:
            return
        away = [
            table_id
            for table_id, host in self.registry.hosts.items()
            if host.status == "waiting" and not host.awaits_players()
        ]
        if away:
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id in away:
                    pipe.set(self.hidden_key(table_id), b"1", px=int(self.alive_seconds * 1000))
                await pipe.execute()

    async def hidden_elsewhere(self, table_ids: list[str]) -> set[str]:
        """Which of ``table_ids`` (hosted by other workers) their owners mark as away."""
        try:
            found = await self.redis.mget([self.hidden_key(t) for t in table_ids])
        except Exception:  # Redis away: list them all rather than none
            return set()
        return {t for t, value in zip(table_ids, found, strict=True) if value is not None}

    # -- leases --------------------------------------------------------------------------

    def fencing(self, table_id: str) -> Lease | None:
        """The lease to write ``table_id``'s actions under (``None``: stop acting)."""
        return self.keeper.lease_for(table_id)

    async def take(self, table_id: str) -> Lease | None:
        """This worker's lease of ``table_id`` (taken now if nobody holds it), or
        ``None``; ``StorageError`` if there is no such table."""
        if not self.reaches_redis():
            return None
        return await self.keeper.take(table_id)

    def _lost(self, table_id: str) -> None:
        """The keeper let ``table_id`` go: stop its host here."""
        host = None if self.registry is None else self.registry.hosts.get(table_id)
        if host is not None:
            log_event(table_id, "lease_lost", worker=self.worker_id)
            self._spawn(host.stop())

    def host_stopped(self, table_id: str) -> None:
        """A host of this worker stopped (finished and idle, or failed): release its
        lease so that another worker can take the table at once."""
        lease = self.keeper.let_go(table_id)
        if lease is not None:
            self._spawn(self.leases.release(lease))

    async def _take_orphans(self) -> None:
        assert self.registry is not None
        if not self.reaches_redis():
            return
        for table_id in await self.leases.expired_tables(limit=50):
            with contextlib.suppress(StorageError):
                host = await self.registry.host(table_id)
                if isinstance(host, TableHost):
                    log_event(table_id, "taken_over", worker=self.worker_id)

    async def remote_table(self, table_id: str, storage: Storage) -> RemoteTable | None:
        """The gateway's stand-in for ``table_id`` hosted by another live worker;
        ``None`` when no live worker holds it."""
        owner = await self.leases.owner_of(table_id)
        if owner is None or owner == self.worker_id:
            return None
        try:
            if not await self.alive({owner}):
                return None
        except Exception:  # Redis away: no owner can be reached from here
            return None
        found = await storage.table_with_seats(table_id)
        if found is None:
            return None
        row, seats = found
        return RemoteTable(
            row=row,
            seats=seats,
            owner=owner,
            gateway=self.worker_id,
            publish=self.publish,
            connections=self.gateway_connections,
            replies=self.replies,
        )

    def signed_out(self, player_id: str) -> None:
        """``player_id`` logged out here: close their clients this worker is the gateway
        of, and tell every worker to close theirs and detach them from its tables."""
        self._close_gateway_connections(player_id)
        self.publish_all({"k": "signed_out", "p": player_id})

    def _close_gateway_connections(self, player_id: str) -> None:
        for connection, _table in list(self.gateway_connections.values()):
            if connection.player_id == player_id:
                connection.close()

    # -- sending -------------------------------------------------------------------------

    def publish(self, worker: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``worker`` (sent in order by one task)."""
        self._outbox.put_nowait((self.channel(worker), json.dumps(message)))

    def publish_all(self, message: dict[str, Any]) -> None:
        self._outbox.put_nowait((self.everyone, json.dumps(message)))

    async def _send_all(self) -> None:
        while True:
            channel, data = await self._outbox.get()
            batch = [(channel, data)]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception:
                log.warning(
                    "worker %s: %d messages lost", self.worker_id, len(batch), exc_info=True
                )

    async def ask_bots(self, stream: str, call: str, timeout: float) -> str | None:
        """Put ``call`` on a bot stream and wait for a bot worker's answer; ``None`` if
        none came within ``timeout`` seconds or Redis could not be reached."""
        request_id = secrets.token_hex(8)
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.bot_answers[request_id] = answer
        entry = {"id": request_id, "reply": self.channel(self.worker_id), "call": call}
        try:
            await self.redis.xadd(stream, entry, maxlen=STREAM_LENGTH, approximate=True)  # type: ignore[arg-type]
            return await asyncio.wait_for(answer, timeout)
        except Exception:  # a timeout, or Redis away
            return None
        finally:
            self.bot_answers.pop(request_id, None)

    # -- receiving -----------------------------------------------------------------------

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    found = envelope(message["data"])
                    if found is not None:
                        try:
                            await self._handle(found)
                        except Exception:
                            log.exception(
                                "worker %s: envelope %s failed", self.worker_id, found.get("k")
                            )
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection to Redis broke: subscribe again
                log.warning("worker %s: Redis subscription lost", self.worker_id, exc_info=True)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self.channel(self.worker_id), self.everyone)

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message["k"]
        match kind:
            # the gateway's side
            case "send" | "close":
                found = self.gateway_connections.get(str(message.get("c")))
                if found is not None:
                    connection, table = found
                    if kind == "close":
                        connection.close()
                    else:
                        table.state_number = int(message.get("sn", table.state_number))
                        connection.send_text(str(message["x"]))
            case "reply":
                result = self.replies.get(str(message.get("r")))
                if result is not None and not result.done():
                    if message.get("ok"):
                        result.set_result(message.get("v"))
                    else:
                        result.set_exception(Refusal.read(message.get("e")))
            case "bot_reply":
                answer = self.bot_answers.get(str(message.get("id")))
                if answer is not None and not answer.done():
                    answer.set_result(str(message.get("a")))
            case "signed_out":
                player_id = str(message.get("p"))
                self._close_gateway_connections(player_id)
                if self.registry is not None:
                    await self.registry.sign_out(player_id)
            # the owner's side
            case "attach":
                await self._attach(message)
            case "detach":
                found_remote = self.remote_connections.pop(str(message.get("c")), None)
                if found_remote is not None:
                    remote, host = found_remote
                    host.submit(Detach(remote))
            case "act" | "chat" | "hint":
                found_remote = self.remote_connections.get(str(message.get("c")))
                if found_remote is None:
                    return
                remote, host = found_remote
                if host.stopped:
                    remote.close()
                elif kind == "act":
                    host.submit(ClientAction(remote, int(message["sn"]), str(message["a"])))
                elif kind == "chat":
                    host.submit(ClientChat(remote, str(message["x"])))
                else:
                    host.submit(ClientHint(remote))
            case "join" | "leave":
                self._spawn(self._answer(message))
            case "rematch":
                owner = await self._owned_host(str(message["t"]))
                token = message.get("tok")
                if owner is not None:
                    owner.submit(
                        RematchMade(
                            str(message["nt"]),
                            token if isinstance(token, str) else None,
                            int(message["by"]),
                        )
                    )

    async def _owned_host(self, table_id: str) -> TableHost | None:
        """The host of ``table_id`` if this worker owns it (taking it if nobody does)."""
        assert self.registry is not None
        try:
            host = await self.registry.host(table_id)
        except StorageError:
            return None
        return host if isinstance(host, TableHost) else None

    async def _attach(self, message: dict[str, Any]) -> None:
        gateway = str(message["g"])
        connection_id = str(message["c"])
        token = message.get("tok")
        remote = RemoteConnection(
            connection_id=connection_id,
            gateway=gateway,
            player_id=str(message["p"]),
            name=str(message["n"]),
            token=token if isinstance(token, str) else None,
            publish=self._publish_with_state,
        )
        host = await self._owned_host(str(message["t"]))
        if host is None:  # the table moved (or is gone): the client reconnects
            remote.close()
            return
        self.remote_connections[connection_id] = (remote, host)
        host.submit(Attach(remote))
        log_event(host.table_id, "remote_client", gateway=gateway)

    def _publish_with_state(self, worker: str, message: dict[str, Any]) -> None:
        """What a remote connection is sent, with its table's state number (the gateway
        numbers its own refusals with it)."""
        found = self.remote_connections.get(str(message.get("c")))
        if found is not None:
            message["sn"] = found[1].state_number
        self.publish(worker, message)

    async def _answer(self, message: dict[str, Any]) -> None:
        """Run a gateway's join or leave at this worker's host and answer it."""
        gateway = str(message["g"])
        reply: dict[str, Any] = {"k": "reply", "r": message.get("r")}
        host = await self._owned_host(str(message["t"]))
        try:
            if host is None:
                raise TableError("table_unavailable", "the table is busy; try again")
            result: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            player_id = str(message["p"])
            if message["k"] == "join":
                seat = message.get("s")
                seat = seat if isinstance(seat, int) else None
                host.submit(Join(player_id, str(message["n"]), seat, result))
            else:
                host.submit(Leave(player_id, result))
            reply.update(ok=True, v=await result)
        except TableError as error:
            reply.update(ok=False, e=Refusal.of(error))
        self.publish(gateway, reply)

    async def _watch_peers(self) -> None:
        """Detach the clients of gateways that died; close this gateway's clients of
        tables whose owner died or stopped (they reconnect to the next owner)."""
        for connection_id, (remote, host) in list(self.remote_connections.items()):
            if host.stopped or remote.closed:
                self.remote_connections.pop(connection_id, None)
        gateways = {remote.gateway for remote, _ in self.remote_connections.values()}
        owners = {table.owner for _, table in self.gateway_connections.values()}
        alive = await self.alive(gateways | owners)
        for connection_id, (remote, host) in list(self.remote_connections.items()):
            if remote.gateway not in alive:
                self.remote_connections.pop(connection_id, None)
                host.submit(Detach(remote))
        for _connection, table in list(self.gateway_connections.values()):
            if table.owner not in alive and not table.stopped:
                log_event(table.table_id, "owner_gone", owner=table.owner)
                table.owner_gone()


async def _cancel(tasks: set[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait until each has ended."""
    for task in list(tasks):
        task.cancel()
    for task in list(tasks):
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    tasks.clear()
