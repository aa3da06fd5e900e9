"""Players' sessions and passwords: signed cookies with a revocable epoch, Argon2 hashes.

A session cookie is the player's id and *session epoch* signed with the server's secret
key (itsdangerous), sent HttpOnly and SameSite=Lax.  Logging out raises the player's
epoch in the database, which revokes every cookie signed with a lower one, on every
device.  :meth:`Sessions.read` already refuses such a cookie (it keeps the epochs of the
players who ever logged out, loaded at start and raised at each logout), so a handler that
reads a cookie and then the player, as the WebSocket does, never accepts a revoked one;
the HTTP routes also compare the cookie's epoch with the player's row (``accounts.py``).

Passwords are hashed with Argon2id (argon2-cffi) in worker threads, a few at a time
(:class:`Passwords`), so a flood of logins queues there instead of stopping the event
loop that runs every table.  This module never reads the database itself.
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import anyio
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeTimedSerializer

COOKIE_NAME: Final = "rummykit_session"
SESSION_MAX_AGE: Final = 60 * 60 * 24 * 365


@dataclass(frozen=True, slots=True)
class SessionCookie:
    """What a valid cookie says: whose session it is and the epoch it was signed in."""

    player_id: str
    epoch: int


class Sessions:
    """Signs and reads session cookies, refusing those of a revoked epoch.

    >>> sessions = Sessions("key")
    >>> cookie = sessions.sign("p1", 0)
    >>> sessions.read(cookie)
    'p1'
    >>> sessions.revoke("p1", 1)
    >>> sessions.read(cookie) is None, sessions.read(sessions.sign("p1", 1))
    (True, 'p1')
    """

    def __init__(self, secret_key: str, *, max_age: int = SESSION_MAX_AGE) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt="rummykit-session")
        self._trace_key = hmac.new(secret_key.encode(), b"rummykit-trace", "sha256").digest()
        self._max_age = max_age
        # player id -> the lowest epoch still valid (only players who logged out)
        self._epochs: dict[str, int] = {}

    def trace(self, kind: str, value: str) -> str:
        """A keyed hash of what an account was seen with (its browser's id, its
        address): equal values give equal traces, and the value cannot be read back
        without the server's key.

        >>> sessions = Sessions("key")
        >>> sessions.trace("address", "10.0.0.1") == sessions.trace("address", "10.0.0.1")
        True
        >>> sessions.trace("address", "10.0.0.1") == Sessions("other").trace("address", "10.0.0.1")
        False
        """
        message = f"{kind}\0{value}".encode()
        return hmac.new(self._trace_key, message, "sha256").hexdigest()

    def sign(self, player_id: str, epoch: int) -> str:
        return self._serializer.dumps([player_id, epoch])

    def open(self, cookie: str | None) -> SessionCookie | None:
        """The cookie's player and epoch; ``None`` for a missing, forged or expired one,
        or one of a revoked epoch.  A cookie from before epochs (the player id alone) is
        of epoch 0."""
        if not cookie or len(cookie) > 512:
            return None
        try:
            value = self._serializer.loads(cookie, max_age=self._max_age)
        except BadSignature:
            return None
        if isinstance(value, str):
            found = SessionCookie(value, 0)
        elif (
            isinstance(value, list)
            and len(value) == 2
            and isinstance(value[0], str)
            and type(value[1]) is int
        ):
            found = SessionCookie(value[0], value[1])
        else:
            return None
        if found.epoch < self._epochs.get(found.player_id, 0):
            return None
        return found

    def read(self, cookie: str | None) -> str | None:
        """The player id of a valid cookie of a current epoch, else ``None``."""
        found = self.open(cookie)
        return None if found is None else found.player_id

    def revoke(self, player_id: str, epoch: int) -> None:
        """Refuse the player's cookies of an epoch below ``epoch`` from now on."""
        if epoch > self._epochs.get(player_id, 0):
            self._epochs[player_id] = epoch

    def remember(self, epochs: Mapping[str, int]) -> None:
        """Learn the stored epochs (at start: every player who ever logged out)."""
        for player_id, epoch in epochs.items():
            self.revoke(player_id, epoch)


_HASHER: Final = PasswordHasher()


def hash_password(password: str) -> str:
    """An Argon2id hash of ``password`` (slow on purpose: run it through :class:`Passwords`)."""
    return _HASHER.hash(password)


def check_password(password_hash: str, password: str) -> bool:
    """Whether ``password`` matches ``password_hash`` (slow on purpose, like hashing)."""
    try:
        return _HASHER.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


class Passwords:
    """Hashes and checks passwords in worker threads, at most ``at_once`` together.

    Argon2 releases the GIL while it works, so the event loop goes on answering; the
    bound keeps a flood from taking every core (the others wait their turn).  A login
    for an unknown name is checked against a stand-in hash, so that it takes as long as
    one for a known name.
    """

    def __init__(self, at_once: int) -> None:
        self._limiter = anyio.CapacityLimiter(at_once)
        self._stand_in: str | None = None
        self._stand_in_made = asyncio.Lock()

    async def hash(self, password: str) -> str:
        return await anyio.to_thread.run_sync(hash_password, password, limiter=self._limiter)

    async def check(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches; always false (after as long) without a hash."""
        if password_hash is None:
            async with self._stand_in_made:
                if self._stand_in is None:
                    self._stand_in = await self.hash("stand-in password")
            await anyio.to_thread.run_sync(
                check_password, self._stand_in, password, limiter=self._limiter
            )
            return False
        return await anyio.to_thread.run_sync(
            check_password, password_hash, password, limiter=self._limiter
        )
