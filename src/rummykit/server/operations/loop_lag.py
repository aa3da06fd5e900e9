"""How late the server's event loop runs: a watch that shows any stall of every table.

Every table, socket and request of a server process shares one event loop, so anything
that holds it (a long garbage collection, a synchronous database or file call, a replay
or a password hash done inside the loop) delays every player at once.  A
:class:`LoopLag` task sleeps a fixed interval and records how much later than asked it
woke: the worst lag, a histogram of lags, and the worst of each second of the last hour
(so that one can ask for the worst since a given moment).  A lag past the warning
threshold is logged at WARNING.  The watch only measures; it never changes what it
watches.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from rummykit.server.operations.events_log import log_event

INTERVAL_SECONDS = 0.05
WARNING_SECONDS = 0.1
# Upper bounds of the histogram's buckets, in milliseconds (the last one is unbounded).
BUCKET_BOUNDS_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
SECONDS_KEPT = 3600


class LoopLag:
    """Measures the lateness of the running event loop while started.

    ``interval`` is how long the watch sleeps each time, ``warn_after`` the lag logged at
    WARNING; ``clock`` gives wall time for :meth:`worst_since` (``time.time``).

    >>> lag = LoopLag()
    >>> lag.record(0.003, at=100.2)
    >>> lag.record(0.250, at=101.7)
    >>> lag.snapshot()["worst_ms"], lag.worst_since(101.0), lag.worst_since(102.0)
    (250.0, 0.25, 0.0)
    """

    def __init__(
        self,
        *,
        interval: float = INTERVAL_SECONDS,
        warn_after: float = WARNING_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.interval = interval
        self.warn_after = warn_after
        self.clock = clock
        self.worst = 0.0
        self.total = 0.0  # the sum of every lag, seconds
        self.samples = 0
        self.stalls = 0
        self.counts = [0] * (len(BUCKET_BOUNDS_MS) + 1)
        # (whole second of wall time, worst lag in it), oldest first
        self._seconds: deque[tuple[int, float]] = deque(maxlen=SECONDS_KEPT)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin watching the running loop (a no-op while already watching it)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._watch(), name="loop-lag")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + self.interval
            busy = time.thread_time()
            await asyncio.sleep(self.interval)
            lag = max(0.0, loop.time() - asked)
            self.record(lag, at=self.clock(), busy=time.thread_time() - busy)

    def record(self, lag: float, *, at: float, busy: float | None = None) -> None:
        """Count one wake-up ``lag`` seconds late, at wall time ``at``; ``busy`` is the
        CPU time the loop's thread used meanwhile (sleep included), logged with a stall:
        near the lag, the loop was running something; far below it, the process waited
        (for the CPU, the disk, a lock)."""
        self.samples += 1
        self.total += lag
        self.worst = max(self.worst, lag)
        self.counts[bisect.bisect_left(BUCKET_BOUNDS_MS, lag * 1000)] += 1
        second = math.floor(at)
        if self._seconds and self._seconds[-1][0] == second:
            if lag > self._seconds[-1][1]:
                self._seconds[-1] = (second, lag)
        else:
            self._seconds.append((second, lag))
        if lag >= self.warn_after:
            self.stalls += 1
            fields = {"lag_ms": round(lag * 1000, 1)}
            if busy is not None:
                fields["busy_ms"] = round(busy * 1000, 1)
            log_event(None, "loop_stalled", level=logging.WARNING, **fields)

    def worst_since(self, since: float) -> float:
        """The worst lag (seconds) recorded at or after wall time ``since``, to the second
        (0 when none; the last hour only)."""
        first = math.floor(since)
        return max((lag for second, lag in self._seconds if second >= first), default=0.0)

    def snapshot(self, since: float | None = None) -> dict[str, Any]:
        """The figures as JSON: worst lag, stalls past the threshold, the histogram (counts
        by upper bound in ms, ``"inf"`` last) and, with ``since``, the worst since then."""
        bounds = [str(bound) for bound in BUCKET_BOUNDS_MS] + ["inf"]
        figures: dict[str, Any] = {
            "interval_ms": self.interval * 1000,
            "warning_ms": self.warn_after * 1000,
            "samples": self.samples,
            "worst_ms": round(self.worst * 1000, 3),
            "stalls": self.stalls,
            "histogram_ms": dict(zip(bounds, self.counts, strict=True)),
        }
        if since is not None:
            figures["since"] = since
            figures["worst_since_ms"] = round(self.worst_since(since) * 1000, 3)
        return figures
