"""Players' sessions: signed cookies, password hashes and throttled logins.

A session is the player's id in a cookie signed with the server's secret key
(itsdangerous), sent HttpOnly and SameSite=Lax.  Passwords are hashed with Argon2id
(argon2-cffi).  Failed logins are counted per login name and per client address; past
the limit a login is refused for a minute whatever the password.  This module never
reads the database itself.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeTimedSerializer

COOKIE_NAME: Final = "rummykit_session"
SESSION_MAX_AGE: Final = 60 * 60 * 24 * 365
WINDOW_SECONDS: Final = 60.0


class Sessions:
    """Signs and reads session cookies."""

    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="rummykit-session")

    def sign(self, player_id: str) -> str:
        return self._serializer.dumps(player_id)

    def read(self, cookie: str | None) -> str | None:
        """The player id in ``cookie``; ``None`` for a missing, forged or expired one."""
        if not cookie or len(cookie) > 512:
            return None
        try:
            value = self._serializer.loads(cookie, max_age=SESSION_MAX_AGE)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None


_HASHER: Final = PasswordHasher()


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def check_password(password_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


class LoginThrottle:
    """Counts failed logins per key in a sliding minute.

    >>> throttle = LoginThrottle(2, clock=lambda: 0.0)
    >>> throttle.failed("ann"); throttle.failed("ann"); throttle.retry_after("ann")
    60.0
    >>> throttle.retry_after("bob") is None
    True
    """

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._limit = per_minute
        self._clock = clock
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        now = self._clock()
        failures = self._failures.setdefault(key, deque())
        while failures and failures[0] <= now - WINDOW_SECONDS:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def retry_after(self, key: str) -> float | None:
        """Seconds until ``key`` may try again, or ``None`` if it may now."""
        failures = self._recent(key)
        if len(failures) < self._limit:
            return None
        return round(failures[0] + WINDOW_SECONDS - self._clock(), 1)

    def failed(self, key: str) -> None:
        self._failures.setdefault(key, deque()).append(self._clock())
