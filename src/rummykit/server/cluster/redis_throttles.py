"""The account limits of a site's workers, counted together in Redis.

Each key (``login:name:ann``, ``guest:address:10.0.0.1``…) is a sorted set of the
attempts in its window, scored by Redis's own clock.  One Lua script checks every key
of an attempt and records it in all of them, atomically in Redis: hundreds of attempts
at once at any number of workers cannot slip between a check and its record.  A key
expires a window after its last attempt.
"""

from __future__ import annotations

import logging
import math
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummykit.server.accounts.throttles import AccountLimits, LimitsUnavailable, Throttled
from rummykit.server.operations.events_log import log_event
from rummykit.server.settings import Settings

if TYPE_CHECKING:
    from redis.asyncio import Redis

TAKE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window_ms = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local wait_ms = -1
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now_ms - window_ms)
  if redis.call('ZCARD', key) >= limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local wait = tonumber(oldest[2]) + window_ms - now_ms
    if wait > wait_ms then wait_ms = wait end
  end
end
if wait_ms >= 0 then return wait_ms end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now_ms, ARGV[3])
  redis.call('PEXPIRE', key, window_ms)
end
return -1
"""
"""Record attempt ``ARGV[3]`` in every key unless one has ``ARGV[2]`` attempts within
``ARGV[1]`` ms: then nothing is recorded and the wait (ms) until each may is returned."""


@dataclass(eq=False, slots=True)
class Attempt:
    """An attempt recorded under ``keys`` (its member in each sorted set)."""

    window: RedisWindow
    keys: tuple[str, ...]
    member: str
    given_back: bool = False

    async def give_back(self) -> None:
        if not self.given_back:
            self.given_back = True
            try:
                async with self.window.redis.pipeline(transaction=False) as pipe:
                    for key in self.keys:
                        pipe.zrem(key, self.member)
                    await pipe.execute()
            except Exception as error:  # Redis away: the attempt stays counted
                log_event(None, "limit_not_given_back", level=logging.WARNING, error=repr(error))


class RedisWindow:
    """At most ``limit`` attempts per key in any ``window_seconds``, for every worker."""

    def __init__(
        self, redis: Redis, name: str, limit: int, window_seconds: float, *, prefix: str
    ) -> None:
        self.redis = redis
        self.name = name
        self.limit = limit
        self.window_ms = int(window_seconds * 1000)
        self.prefix = prefix
        self._script: Any = redis.register_script(TAKE)

    async def take(self, *keys: str) -> Attempt:
        names = tuple(f"{self.prefix}:limit:{self.name}:{key}" for key in keys)
        member = secrets.token_hex(8)
        try:
            found = await self._script(keys=list(names), args=[self.window_ms, self.limit, member])
        except Exception as error:  # Redis away or too slow: refused, never uncounted
            raise LimitsUnavailable(repr(error)) from error
        wait = int(found)
        if wait >= 0:
            raise Throttled(max(1, math.ceil(wait / 1000)))
        return Attempt(self, names, member)


def shared_limits(redis: Redis, prefix: str, settings: Settings) -> AccountLimits:
    """The account limits of ``settings``, counted in Redis under ``prefix``."""
    return AccountLimits(
        logins=RedisWindow(redis, "login", settings.login_attempts_per_minute, 60.0, prefix=prefix),
        registrations=RedisWindow(
            redis, "register", settings.registrations_per_hour, 3600.0, prefix=prefix
        ),
        guest_sessions=RedisWindow(
            redis, "guest", settings.guest_sessions_per_hour, 3600.0, prefix=prefix
        ),
    )
