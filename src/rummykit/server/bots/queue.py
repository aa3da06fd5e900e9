"""The queue in front of the bot workers: table bots first, and a fair share for everyone.

Every call has a kind and an owner.  The kinds, in order of priority: a table bot's
decision (owner: the player whose table it is, its creator; a tournament's tables are
its creator's), a player's hint (owner: the player), background work such as a review
(owner: the player) and, last, the fair-play assessment of finished games.  The share
is a player's, whatever the kind of call and however many tables the player has.  An
owner of ``None`` is an owner of its own, shared with no other call.  At most
``workers`` calls run at once; when a worker is free the queue starts the first waiting
call of the highest kind, owners taking turns within a kind (round-robin), so that:

- hints and background work never hold the last ``reserved`` workers: a table bot finds
  a worker at once unless other table bots hold them all;
- one owner holds at most ``share`` workers (by default half of them, rounded up) while
  a call of another owner waits; with no one else waiting it may use more;
- an owner has at most one hint and one piece of background work pending (queued or
  running): asking for another raises :class:`~rummykit.server.bots.errors.BotBusy`
  (``hint_pending``, ``review_pending``) at once.

A waiting call whose future is cancelled leaves the queue; a running one cannot be
stopped (its result is dropped).  The queue only orders calls: what runs them (its
:class:`Runner`) is the :class:`~rummykit.server.bots.worker_pool.WorkerPool` of this
process's workers, or on a site's shared bot workers the stream that sends them there
(``cluster/bot_stream.py``).  It is thread-safe and needs
no event loop (callers await its concurrent futures with :func:`asyncio.wrap_future`),
so one queue serves every event loop of a process.

>>> from concurrent.futures import ThreadPoolExecutor
>>> from rummykit.server.bots.worker_pool import WorkerPool
>>> queue = BotQueue(WorkerPool(lambda: ThreadPoolExecutor(2)), workers=2)
>>> queue.submit(Kind.HINT, "ann", sum, [1, 2]).result()
3
>>> queue.close()
"""

from __future__ import annotations

import enum
import math
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from rummykit.server.bots.errors import BotBusy, BotUnavailable
from rummykit.server.operations.metrics import BOT_CALLS, BOT_WAIT_SECONDS


class Kind(enum.IntEnum):
    """What a call is for, in order of priority (a lower value goes first)."""

    DECISION = 0
    HINT = 1
    REVIEW = 2
    ASSESSMENT = 3


BUSY: dict[Kind, tuple[str, str]] = {
    Kind.HINT: ("hint_pending", "a hint is already being worked out"),
    Kind.REVIEW: ("review_pending", "a review is already under way"),
}


class Runner(Protocol):
    """What runs the calls the queue starts: ``submit`` starts ``call`` at once (from
    any thread, without blocking) and returns the future of its result."""

    def submit(self, call: Callable[[], Any]) -> Future[Any]: ...


@dataclass(eq=False)
class _Call:
    kind: Kind
    owner: Hashable
    function: Callable[[], Any]
    future: Future[Any]
    queued_at: float = field(default_factory=time.perf_counter)


class BotQueue:
    """Orders the calls for ``workers`` workers of ``pool`` (see the module docstring)."""

    def __init__(
        self, pool: Runner, *, workers: int, reserved: int = 1, share: int | None = None
    ) -> None:
        if workers < 1:
            raise ValueError("there must be at least one worker")
        self._pool = pool
        self.workers = workers
        self.reserved = max(0, min(reserved, workers - 1))
        """Workers that hints and background work leave to table bots."""
        self.share = max(1, share if share is not None else math.ceil(workers / 2))
        """Workers one owner may hold while another owner's call waits."""
        self._lock = threading.Lock()
        self._waiting: dict[Kind, OrderedDict[Hashable, deque[_Call]]] = {
            kind: OrderedDict() for kind in Kind
        }
        self._running = 0
        self._running_background = 0
        self._held: Counter[Hashable] = Counter()
        self._pending: set[tuple[Kind, Hashable]] = set()
        self._closed = False

    def submit(
        self, kind: Kind, owner: Hashable | None, function: Callable[..., Any], /, *args: Any
    ) -> Future[Any]:
        """Queue ``function(*args)`` for ``owner``; its future.  Raises :class:`BotBusy`
        for a second pending hint or review of an owner."""
        key: Hashable = object() if owner is None else owner
        call = _Call(kind, key, partial(function, *args), Future())
        with self._lock:
            if self._closed:
                raise BotUnavailable("the bot workers are shut down")
            if kind in BUSY:
                if (kind, key) in self._pending:
                    code, message = BUSY[kind]
                    raise BotBusy(code, message)
                self._pending.add((kind, key))
            self._waiting[kind].setdefault(key, deque()).append(call)
        call.future.add_done_callback(partial(self._settled, call))
        self._start_ready()
        return call.future

    def counts(self) -> dict[str, int]:
        """Calls running and waiting now (for health checks and tests)."""
        with self._lock:
            waiting = sum(len(c) for q in self._waiting.values() for c in q.values())
            return {"running": self._running, "waiting": waiting}

    def _settled(self, call: _Call, future: Future[Any]) -> None:
        """A call's future is done: its owner may ask again; a cancelled call that was
        still waiting leaves the queue."""
        with self._lock:
            self._pending.discard((call.kind, call.owner))
            if future.cancelled():
                calls = self._waiting[call.kind].get(call.owner)
                if calls is not None and call in calls:
                    calls.remove(call)
                    if not calls:
                        del self._waiting[call.kind][call.owner]

    def _start_ready(self) -> None:
        with self._lock:
            ready = []
            while self._running < self.workers:
                call = self._next()
                if call is None:
                    break
                self._running += 1
                self._running_background += call.kind != Kind.DECISION
                self._held[call.owner] += 1
                ready.append(call)
        started = time.perf_counter()
        for call in ready:
            BOT_WAIT_SECONDS.labels(call.kind.name.lower()).observe(started - call.queued_at)
            self._pool.submit(call.function).add_done_callback(partial(self._ran, call))

    def _next(self) -> _Call | None:
        """The next call to start, taken off the queue (under the lock)."""
        background_room = self._running_background < self.workers - self.reserved
        for within_share in (True, False):
            for kind in Kind:
                if kind != Kind.DECISION and not background_room:
                    continue
                queue = self._waiting[kind]
                for owner in list(queue):
                    if within_share and self._held[owner] >= self.share:
                        continue
                    calls = queue[owner]
                    call = calls.popleft()
                    if calls:
                        queue.move_to_end(owner)
                    else:
                        del queue[owner]
                    if call.future.set_running_or_notify_cancel():
                        return call
        return None

    def _ran(self, call: _Call, done: Future[Any]) -> None:
        with self._lock:
            self._running -= 1
            self._running_background -= call.kind != Kind.DECISION
            self._held[call.owner] -= 1
            if not self._held[call.owner]:
                del self._held[call.owner]
        kind = call.kind.name.lower()
        if done.cancelled():  # its runner stopped it (a closing event loop)
            BOT_CALLS.labels(kind, "cancelled").inc()
            call.future.set_exception(BotUnavailable("the bot workers are shut down"))
            self._start_ready()
            return
        error = done.exception()
        BOT_CALLS.labels(kind, "done" if error is None else "failed").inc()
        if error is not None:
            call.future.set_exception(error)
        else:
            call.future.set_result(done.result())
        self._start_ready()

    def close(self) -> None:
        """Refuse new calls and fail the waiting ones with :class:`BotUnavailable` (the
        pool is closed by its owner)."""
        with self._lock:
            self._closed = True
            waiting = [c for q in self._waiting.values() for cs in q.values() for c in cs]
            for queue in self._waiting.values():
                queue.clear()
        for call in waiting:
            if call.future.set_running_or_notify_cancel():
                call.future.set_exception(BotUnavailable("the bot workers are shut down"))
