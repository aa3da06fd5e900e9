"""This worker's link to the site's Redis: its connections, channels and heartbeat.

Each worker reads the pub/sub channel ``<prefix>:worker:<id>`` (envelopes for it) and
``<prefix>:all`` (for every worker), and keeps the key ``<prefix>:alive:<id>`` alive (a
few seconds' expiry, renewed every half second): the others' proof that it runs, and
its own proof that Redis hears it (:meth:`RedisLink.reaches_redis`).  Envelopes go out
in order, batched by one task; what comes in is handed, decoded, to the worker's
handler.

This module carries envelopes and never reads one: it knows nothing of tables, hosts,
leases or clients, and what an envelope means is for its receiver.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from rummykit.server.cancelling import cancel
from rummykit.server.settings import Settings
from rummykit.server.table.remote import envelope

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("rummykit.server")

REDIS_TIMEOUT = 1.0
CUT_OFF_MARGIN = 1.0
"""A worker whose heartbeat has not reached Redis for ``alive_seconds - CUT_OFF_MARGIN``
lets its tables go: its clients elsewhere can no longer reach it, so another worker,
which they can reach, must host them."""

Handler = Callable[[dict[str, Any]], Awaitable[None]]
"""What the worker does with an envelope that reached its channels."""


class RedisLink:
    """One worker's connections to Redis, the names of its keys and channels, the
    envelopes it publishes and its heartbeat."""

    def __init__(self, settings: Settings, *, worker_id: str) -> None:
        try:
            from redis.asyncio import Redis
        except ImportError:  # pragma: no cover - the extra is installed with the tests
            raise SystemExit(
                "several server processes need Redis's client: pip install 'rummykit[scale]'"
            ) from None
        if settings.redis_url is None:
            raise ValueError("a worker of a site needs settings.redis_url")
        self.worker_id = worker_id
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
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None

    # -- names ---------------------------------------------------------------------------

    def channel(self, worker: str) -> str:
        return f"{self.prefix}:worker:{worker}"

    def alive_key(self, worker: str) -> str:
        return f"{self.prefix}:alive:{worker}"

    @property
    def everyone(self) -> str:
        return f"{self.prefix}:all"

    # -- heartbeat -----------------------------------------------------------------------

    async def beat(self) -> None:
        """Renew this worker's heartbeat key (and so the proof that Redis hears it)."""
        sent = time.monotonic()
        alive = int(self.alive_seconds * 1000)
        await self.redis.set(self.alive_key(self.worker_id), b"1", px=alive)
        self._heard_until = sent + self.alive_seconds - CUT_OFF_MARGIN

    def reaches_redis(self) -> bool:
        """Whether this worker's last heartbeat is recent enough to act as part of the
        site (see :data:`CUT_OFF_MARGIN`)."""
        return time.monotonic() < self._heard_until

    async def alive(self, workers: set[str]) -> set[str]:
        """Which of ``workers`` have a live heartbeat."""
        names = sorted(workers)
        if not names:
            return set()
        found = await self.redis.mget([self.alive_key(name) for name in names])
        return {name for name, value in zip(names, found, strict=True) if value is not None}

    # -- sending -------------------------------------------------------------------------

    def publish(self, worker: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``worker`` (sent in order by one task)."""
        self._outbox.put_nowait((self.channel(worker), json.dumps(message)))

    def publish_all(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for every worker of the site, this one included."""
        self._outbox.put_nowait((self.everyone, json.dumps(message)))

    def start_sending(self) -> None:
        """Start the one task that publishes the queued envelopes, in order."""
        self._sender = asyncio.create_task(self._send_all())

    async def stop_sending(self) -> None:
        if self._sender is not None:
            await cancel({self._sender})

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

    # -- receiving -----------------------------------------------------------------------

    async def subscribe(self) -> Any:
        """The subscription to this worker's channel and the site's."""
        pubsub = self._listener.pubsub()
        await pubsub.subscribe(self.channel(self.worker_id), self.everyone)
        return pubsub

    async def listen(self, pubsub: Any, handle: Handler) -> None:
        """Hand every envelope that reaches ``pubsub`` to ``handle``, one at a time;
        subscribe again whenever the connection to Redis breaks."""
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    found = envelope(message["data"])
                    if found is not None:
                        try:
                            await handle(found)
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

    # -- leaving -------------------------------------------------------------------------

    async def close(self) -> None:
        """Say this worker is gone (its heartbeat key deleted) and close both
        connections."""
        with contextlib.suppress(Exception):
            await self.redis.delete(self.alive_key(self.worker_id))
        await self.redis.aclose()
        await self._listener.aclose()
