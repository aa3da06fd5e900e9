"""Sliding-window limits on attempts (logins, registrations, guest sessions) per key.

An attempt is *reserved* before the work it guards starts (reading the database,
hashing a password): :meth:`SlidingWindow.reserve` checks every key and records the
attempt in one synchronous call, so no other request can slip in between the check and
the record even when hundreds arrive at once.  A reservation counts until its window
passes; the caller may give it back (:meth:`Reservation.release`) when the attempt
turned out not to need counting (a successful login, a registration refused before
any password was hashed).

The counts of :class:`SlidingWindow` live in this process's memory; the workers of a
site count together in Redis instead (:mod:`rummykit.server.cluster.redis_throttles`).  The
account routes use either through :class:`Window` (``take``, and ``give_back`` on what
it took).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from rummykit.server.settings import Settings


class Throttled(Exception):
    """Every reservation of some key within the window is used; ``retry_after``: whole
    seconds (at least 1) until the oldest one passes."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"try again in {retry_after} s")
        self.retry_after = retry_after


class LimitsUnavailable(Exception):
    """The count of attempts shared by a site's workers cannot be reached (Redis away or
    too slow): the attempt is refused, never let through uncounted."""


class Taken(Protocol):
    """An attempt counted by a :class:`Window`."""

    async def give_back(self) -> None: ...


class Window(Protocol):
    """At most some attempts per key in some time, counted in this process or shared."""

    async def take(self, *keys: str) -> Taken:
        """Count one attempt against every key, or raise :class:`Throttled` (or
        :class:`LimitsUnavailable` when a shared count cannot be reached)."""
        ...


@dataclass(eq=False, slots=True)
class Reservation:
    """An attempt counted against some keys of a :class:`SlidingWindow`."""

    window: SlidingWindow
    keys: tuple[str, ...]
    at: float
    released: bool = False

    def release(self) -> None:
        """Give the attempt back (at most once; one already out of its window is gone)."""
        if not self.released:
            self.released = True
            self.window._give_back(self)

    async def give_back(self) -> None:
        self.release()


class SlidingWindow:
    """At most ``limit`` reservations per key in any ``window_seconds``.

    >>> now = [0.0]
    >>> logins = SlidingWindow(2, 60.0, clock=lambda: now[0])
    >>> first = logins.reserve("name:ann", "address:10.0.0.1")
    >>> second = logins.reserve("name:ann")
    >>> try:
    ...     logins.reserve("name:ann")
    ... except Throttled as throttled:
    ...     print(throttled.retry_after)
    60
    >>> first.release(); third = logins.reserve("name:ann")
    >>> now[0] = 60.0; fourth = logins.reserve("name:ann")
    """

    def __init__(
        self,
        limit: int,
        window_seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if limit < 1 or window_seconds <= 0:
            raise ValueError("a window needs a positive limit and length")
        self.limit = limit
        self.window_seconds = window_seconds
        self.clock = clock
        self._attempts: dict[str, deque[float]] = {}
        self._swept_at = clock()

    def _recent(self, key: str, now: float) -> deque[float] | None:
        attempts = self._attempts.get(key)
        if attempts is None:
            return None
        while attempts and attempts[0] <= now - self.window_seconds:
            attempts.popleft()
        if not attempts:
            del self._attempts[key]
            return None
        return attempts

    def _sweep(self, now: float) -> None:
        """Forget keys whose attempts have all passed (once a window: memory stays
        bounded by the attempts of one window whatever the keys)."""
        if now - self._swept_at < self.window_seconds:
            return
        self._swept_at = now
        for key in list(self._attempts):
            self._recent(key, now)

    def retry_after(self, *keys: str) -> int | None:
        """Whole seconds (at least 1) until every key may be reserved again, or ``None``
        if they may now."""
        now = self.clock()
        waits = []
        for key in keys:
            attempts = self._recent(key, now)
            if attempts is not None and len(attempts) >= self.limit:
                waits.append(attempts[0] + self.window_seconds - now)
        return max(1, math.ceil(max(waits))) if waits else None

    def reserve(self, *keys: str) -> Reservation:
        """Count one attempt against every key, or raise :class:`Throttled` (counting
        nothing) if one of them has no room left."""
        wait = self.retry_after(*keys)
        if wait is not None:
            raise Throttled(wait)
        now = self.clock()
        self._sweep(now)
        for key in keys:
            self._attempts.setdefault(key, deque()).append(now)
        return Reservation(self, keys, now)

    async def take(self, *keys: str) -> Reservation:
        """:meth:`reserve`, as a :class:`Window` (nothing is awaited before the attempt is
        recorded, so it stays one step)."""
        return self.reserve(*keys)

    def _give_back(self, reservation: Reservation) -> None:
        for key in reservation.keys:
            attempts = self._attempts.get(key)
            if attempts is None:
                continue
            try:
                attempts.remove(reservation.at)
            except ValueError:
                continue  # already out of the window
            if not attempts:
                del self._attempts[key]


@dataclass(frozen=True, slots=True)
class AccountLimits:
    """The limits on the account routes: ``logins`` per login name and per address,
    ``registrations`` and ``guest_sessions`` per address."""

    logins: Window
    registrations: Window
    guest_sessions: Window

    @classmethod
    def from_settings(
        cls, settings: Settings, *, clock: Callable[[], float] = time.monotonic
    ) -> AccountLimits:
        return cls(
            logins=SlidingWindow(settings.login_attempts_per_minute, 60.0, clock=clock),
            registrations=SlidingWindow(settings.registrations_per_hour, 3600.0, clock=clock),
            guest_sessions=SlidingWindow(settings.guest_sessions_per_hour, 3600.0, clock=clock),
        )
