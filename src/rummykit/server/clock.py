"""The server's clock: the time now and callbacks at a time, injected into every part.

Everything in the server that reads the time or waits for it (turn timers, grace
periods, a bot's pause, how long a finished table stays in memory) asks a
:class:`Clock`, never ``time`` or ``asyncio.sleep`` directly.  :class:`SystemClock`
is the real one; :class:`FakeClock` only moves when told to, so tests drive timers
without waiting for them.  A callback always runs in the event loop that scheduled it.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A scheduled callback that can be called off."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the server asks of time."""

    def now(self) -> float:
        """Seconds since the epoch (stored with every action)."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` in the running event loop once :meth:`now` reaches ``when``."""
        ...


class SystemClock:
    """The wall clock, with the running loop's timers."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - time.time()), callback)


class _FakeTimer:
    def __init__(self, loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
        self.loop = loop
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self.callback()


class FakeClock:
    """A clock that stands still until :meth:`advance` moves it (from any thread).

    >>> clock = FakeClock(100.0)
    >>> clock.now()
    100.0
    >>> clock.advance(2.5)
    >>> clock.now()
    102.5
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._order = itertools.count()
        self._timers: list[tuple[float, int, _FakeTimer]] = []

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = _FakeTimer(asyncio.get_running_loop(), callback)
        with self._lock:
            if when <= self._now:
                timer.loop.call_soon(timer.fire)
            else:
                heapq.heappush(self._timers, (when, next(self._order), timer))
        return timer

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds`` and run, in their loops and in time order,
        the callbacks that became due."""
        with self._lock:
            self._now += seconds
            due = []
            while self._timers and self._timers[0][0] <= self._now:
                due.append(heapq.heappop(self._timers)[2])
        for timer in due:
            if not timer.cancelled and not timer.loop.is_closed():
                timer.loop.call_soon_threadsafe(timer.fire)

    def pending(self) -> int:
        """How many callbacks wait for a later time (cancelled ones included)."""
        with self._lock:
            return sum(1 for _, _, timer in self._timers if not timer.cancelled)
