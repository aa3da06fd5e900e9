"""Bot decisions, hints and reviews on a shared queue: Redis Streams read by bot workers.

With ``bot_queue = "redis"`` (``RUMMYKIT_BOT_QUEUE``), the workers of a site hand their
bot work to ``rummykit bot-worker`` processes instead of their own pools, so that bot
capacity grows apart from WebSocket capacity: any number of bot workers, on any
machines, read the same streams.

- **Streams.** One per kind, ``<prefix>:bots:decision``, ``:hint`` and ``:review``,
  read by the consumer group ``bots``.  A bot worker takes an entry from the first
  stream that has one, so table bots go ahead of hints and hints ahead of reviews, as
  in one server's own queue.
- **Entries.** The call (a module-level function of plain data and its arguments,
  pickled: the streams are as private to the site as its database), its id, and the
  channel of the worker that asked.  The answer is published there (``bot_reply``),
  then the entry is acknowledged.
- **Failures.** An entry a bot worker took and did not acknowledge within
  ``claim_after`` seconds (:data:`CLAIM_AFTER_SECONDS` by default: the worker died) is
  claimed by another (``XAUTOCLAIM``), so a bot worker's death costs one retry.  An
  error raised by the call comes back as its answer; no answer at all within
  ``timeout`` raises ``BotUnavailable``.
- **Dead consumers.** A consumer that has read nothing for ``forget_after`` seconds
  (:data:`FORGET_AFTER_SECONDS` by default) and holds no pending entry (a dead bot
  worker, once its entries were claimed) is removed from the group (``XGROUP
  DELCONSUMER``), checked and removed in one script so that an entry read in between
  is never lost with it.  A live bot worker removed while idle is made again by its
  next read.
- **Fairness.** Each asking worker sends its calls through the same queue as its own
  workers would (:class:`~rummykit.server.bots.queue.BotQueue`), with ``in_flight``
  calls on the streams at most: table bots first, players taking turns and none holding
  more than half of them while another's call waits, however many tables they have,
  and one pending hint and one pending review per player (``BotBusy``).  The streams
  themselves are first come, first served: the share is a player's within each
  asking worker.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import json
import logging
import pickle
import secrets
import signal
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from rummykit.server.bots.errors import BotUnavailable
from rummykit.server.bots.queue import BotQueue, Kind
from rummykit.server.bots.service import BotRunner, BotService

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from rummykit.server.cluster.worker import Cluster

T = TypeVar("T")
log = logging.getLogger("rummykit.server")

GROUP = "bots"
CLAIM_AFTER_SECONDS = 20.0
FORGET_AFTER_SECONDS = 120.0

FORGET = """
local removed = {}
for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local fields = {}
  for i = 1, #consumer, 2 do fields[consumer[i]] = consumer[i + 1] end
  if fields['name'] ~= ARGV[3] and tonumber(fields['pending']) == 0
      and tonumber(fields['idle']) >= tonumber(ARGV[2]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], fields['name'])
    table.insert(removed, fields['name'])
  end
end
return removed
"""
"""Remove from group ``ARGV[1]`` of stream ``KEYS[1]`` every consumer but ``ARGV[3]``
idle ``ARGV[2]`` ms or more with no pending entry; the names removed."""


def stream_names(prefix: str) -> list[str]:
    """The streams in the order bot workers read them (decisions first)."""
    return [f"{prefix}:bots:{kind.name.lower()}" for kind in Kind]


def pack(value: object) -> str:
    return base64.b64encode(pickle.dumps(value)).decode("ascii")


def unpack(text: str | bytes) -> Any:
    return pickle.loads(base64.b64decode(text))


class _Sender:
    """The :class:`~rummykit.server.bots.queue.Runner` of a :class:`StreamBotRunner`'s
    queue: a call it starts is a coroutine that sends one entry and waits for its answer,
    run on the server's event loop."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None

    def submit(self, call: Callable[[], Any]) -> concurrent.futures.Future[Any]:
        assert self.loop is not None, "the queue starts calls only once one was asked"
        return asyncio.run_coroutine_threadsafe(call(), self.loop)


class StreamBotRunner(BotService):
    """The bot work of one server worker, sent to the site's bot workers through its
    fair queue (``in_flight`` entries on the streams at most; see the module
    docstring)."""

    def __init__(self, cluster: Cluster, *, timeout: float = 120.0, in_flight: int = 16) -> None:
        self.cluster = cluster
        self.timeout = timeout
        self.streams = stream_names(cluster.prefix)
        self._sender = _Sender()
        self.queue = BotQueue(self._sender, workers=in_flight)

    async def call(self, kind: Kind, owner: str | None, function: Callable[[], T]) -> T:
        self._sender.loop = asyncio.get_running_loop()
        send = partial(self._send, self.streams[kind], function)
        result: T = await asyncio.wrap_future(self.queue.submit(kind, owner, send))
        return result

    async def _send(self, stream: str, function: Callable[[], Any]) -> Any:
        """Put ``function`` on ``stream`` and wait for its answer (its value, or its
        error raised here)."""
        answer = await self.cluster.ask_bots(stream, pack(function), self.timeout)
        if answer is None:
            raise BotUnavailable("no bot worker answered in time")
        ok, value = unpack(answer)
        if not ok:
            raise value
        return value

    def close(self) -> None:
        self.queue.close()


class BotWorker:
    """``rummykit bot-worker``: reads the site's bot streams and runs each call in its
    own pool of processes (``processes`` calls at once)."""

    def __init__(
        self,
        redis_url: str,
        prefix: str,
        *,
        processes: int,
        claim_after: float = CLAIM_AFTER_SECONDS,
        forget_after: float = FORGET_AFTER_SECONDS,
    ) -> None:
        from redis.asyncio import Redis

        self.redis: Redis = Redis.from_url(redis_url)
        self.prefix = prefix
        self.streams = stream_names(prefix)
        self.name = f"bot-{secrets.token_hex(4)}"
        self.processes = processes
        self.claim_after = claim_after
        self.forget_after = forget_after
        self._forget: Any = self.redis.register_script(FORGET)
        self.runner = BotRunner(processes)
        self._slots = asyncio.Semaphore(processes)
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = asyncio.Event()
        self._claim_at = 0.0  # when to look for entries to claim next (time.monotonic)
        self.done = 0

    async def prepare(self) -> None:
        """Make the consumer group of each stream (once for the site)."""
        for stream in self.streams:
            with contextlib.suppress(Exception):  # BUSYGROUP: it exists already
                await self.redis.xgroup_create(stream, GROUP, id="0", mkstream=True)

    def stop(self) -> None:
        """End :meth:`run` after the Redis call under way (within about a second).

        A stop is a flag, not a cancellation: redis-py may swallow a ``CancelledError``
        that lands while it opens a connection, and the cancelled task then reads its
        streams for good (a Ctrl-C in the bot worker's first second went unheard)."""
        self._stopping.set()

    async def run(self) -> None:
        """Read the streams and run their calls until :meth:`stop`."""
        forgetting = asyncio.create_task(self._forget_forever())
        try:
            if not self._stopping.is_set():
                await self.prepare()
            while not self._stopping.is_set():
                await self._slots.acquire()
                entry = await self._next()
                if entry is None:  # stopped
                    self._slots.release()
                    break
                task = asyncio.create_task(self._work(*entry))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        finally:
            self._stopping.set()
            forgetting.cancel()
            self.runner.close()
            await self.redis.aclose()

    async def run_until_ctrl_c(self) -> None:
        """:meth:`run`, stopped by the first SIGINT (a second one interrupts at once)."""
        loop = asyncio.get_running_loop()

        def ctrl_c() -> None:
            loop.remove_signal_handler(signal.SIGINT)  # the next one: KeyboardInterrupt
            self.stop()

        loop.add_signal_handler(signal.SIGINT, ctrl_c)
        await self.run()

    async def _next(self) -> tuple[str, Any, Any] | None:
        """The next entry: one another bot worker took and never acknowledged (it died),
        looked for every ``claim_after / 4`` seconds, else a new one from the first
        stream that has one; ``None`` once stopped.  It is called holding a free slot,
        so that a claimed entry runs at once (a bot worker with no free slot leaves it
        to one that has)."""
        while not self._stopping.is_set():
            now = time.monotonic()
            if now >= self._claim_at:
                self._claim_at = now + self.claim_after / 4
                claimed = await self._claim_one()
                if claimed is not None:
                    return claimed
            for stream in self.streams:
                found: Any = await self.redis.xreadgroup(GROUP, self.name, {stream: ">"}, count=1)
                if found:
                    _, entries = found[0]
                    entry_id, fields = entries[0]
                    return stream, entry_id, fields
            # nothing anywhere: wait on all of them at once
            waited: Any = await self.redis.xreadgroup(
                GROUP, self.name, dict.fromkeys(self.streams, ">"), count=1, block=1000
            )
            if waited:
                stream_name, entries = waited[0]
                entry_id, fields = entries[0]
                stream = stream_name.decode() if isinstance(stream_name, bytes) else stream_name
                return stream, entry_id, fields
        return None

    async def _claim_one(self) -> tuple[str, Any, Any] | None:
        """An entry idle past ``claim_after`` in another consumer's hands, now this
        worker's (``XAUTOCLAIM``), from the first stream that has one."""
        idle = int(self.claim_after * 1000)
        for stream in self.streams:
            try:
                claimed: Any = await self.redis.xautoclaim(
                    stream, GROUP, self.name, min_idle_time=idle, count=1
                )
            except Exception:
                log.exception("bot worker %s: claiming from %s failed", self.name, stream)
                continue
            for entry_id, fields in claimed[1]:
                if fields:  # a deleted entry comes back without its fields
                    return stream, entry_id, fields
        return None

    async def _work(self, stream: str, entry_id: bytes, fields: dict[bytes, bytes]) -> None:
        """Run one entry's call and answer it (the entry is acknowledged only then: a
        bot worker that dies before leaves it to be claimed by another)."""
        try:
            call = unpack(fields[b"call"])
            try:
                kind = Kind(self.streams.index(stream))
                value = await self.runner.call(kind, None, call)
                answer = pack((True, value))
            except Exception as error:  # the call's own error goes back to the asker
                answer = pack((False, error))
            reply = fields[b"reply"].decode()
            message = {"k": "bot_reply", "id": fields[b"id"].decode(), "a": answer}
            await self.redis.publish(reply, json.dumps(message))
            await self.redis.xack(stream, GROUP, entry_id)
            self.done += 1
        except Exception:
            log.exception("bot worker %s: entry %s failed", self.name, entry_id)
        finally:
            self._slots.release()

    async def _forget_forever(self) -> None:
        """Remove the consumers left with nothing (:meth:`forget_dead_consumers`) every
        ``claim_after / 4`` seconds."""
        while not self._stopping.is_set():
            await asyncio.sleep(self.claim_after / 4)
            try:
                await self.forget_dead_consumers()
            except Exception:
                log.exception("bot worker %s: removing dead consumers failed", self.name)

    async def forget_dead_consumers(self) -> list[str]:
        """Remove the consumers idle past ``forget_after`` that hold no pending entry
        from every stream's group; the names removed."""
        idle = int(self.forget_after * 1000)
        removed: list[str] = []
        for stream in self.streams:
            names: Any = await self._forget(keys=[stream], args=[GROUP, idle, self.name])
            removed.extend(n.decode() if isinstance(n, bytes) else str(n) for n in names)
        if removed:
            log.info("bot worker %s: removed dead consumers %s", self.name, sorted(set(removed)))
        return removed
