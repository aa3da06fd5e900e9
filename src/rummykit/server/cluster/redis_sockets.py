"""Each player's open table sockets, counted in Redis for every worker of a site.

A player's key (``<prefix>:sockets:<player id>``) is a sorted set of their open
sockets, each member (``<worker>:<random>``) scored by when it lapses, by Redis's own
clock.  One Lua script drops the lapsed members, checks the count and adds the new one,
atomically: a player opening hundreds of sockets at once at several workers cannot slip
between a check and its record.  A worker renews its own sockets every
:data:`RENEW_SECONDS` (:meth:`RedisSockets.renew`, one of its loops), so the sockets of
a worker that died lapse within :data:`LAPSE_SECONDS` and stop counting.  When Redis
cannot be reached, the worker counts in its own memory meanwhile (the cap then holds
per worker, not for the site).
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from rummykit.server.accounts.socket_caps import LocalSockets, SocketSlot

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("rummykit.server")

LAPSE_SECONDS = 30.0
RENEW_SECONDS = 10.0
RENEW_BATCH = 500

TAKE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lapse_ms = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now_ms + lapse_ms, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lapse_ms)
return 1
"""
"""Add socket ``ARGV[3]`` to ``KEYS[1]`` (lapsing in ``ARGV[1]`` ms) unless it holds
``ARGV[2]`` live sockets already; 1 if added, 0 if not."""

RENEW = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lapse_ms = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now_ms + lapse_ms, ARGV[i + 1])
  redis.call('PEXPIRE', key, lapse_ms)
end
return #KEYS
"""
"""Push back the lapse of socket ``ARGV[i + 1]`` of key ``KEYS[i]`` to ``ARGV[1]`` ms
from now (a socket already lapsed and dropped is not added back)."""


class RedisSlot:
    """One socket's member in its player's sorted set."""

    def __init__(self, sockets: RedisSockets, key: str, member: str) -> None:
        self.sockets = sockets
        self.key = key
        self.member = member

    async def give_back(self) -> None:
        if self.sockets.held.pop(self.member, None) is not None:
            try:
                await self.sockets.redis.zrem(self.key, self.member)
            except Exception:  # it lapses on its own
                log.warning("socket count: could not give back %s", self.key, exc_info=True)


class RedisSockets:
    """The socket cap of ``limit`` per player, counted in Redis under ``prefix``; this
    worker's members start with ``worker_id`` and lapse ``lapse_seconds`` after they
    were last renewed."""

    def __init__(
        self,
        redis: Redis,
        *,
        prefix: str,
        limit: int,
        worker_id: str,
        lapse_seconds: float = LAPSE_SECONDS,
    ) -> None:
        self.redis = redis
        self.lapse_ms = int(lapse_seconds * 1000)
        self.prefix = prefix
        self.limit = limit
        self.worker_id = worker_id
        self.held: dict[str, str] = {}  # this worker's live members, and their keys
        self.fallback = LocalSockets(limit)
        self._take: Any = redis.register_script(TAKE)
        self._renew: Any = redis.register_script(RENEW)

    def key(self, player_id: str) -> str:
        return f"{self.prefix}:sockets:{player_id}"

    async def take(self, player_id: str) -> SocketSlot | None:
        key = self.key(player_id)
        member = f"{self.worker_id}:{secrets.token_hex(6)}"
        try:
            added = int(await self._take(keys=[key], args=[self.lapse_ms, self.limit, member]))
        except Exception:
            log.warning("socket count: Redis away, counting here", exc_info=True)
            return await self.fallback.take(player_id)
        if not added:
            return None
        self.held[member] = key
        return RedisSlot(self, key, member)

    async def renew(self) -> None:
        """Push back the lapse of every socket this worker holds open."""
        held = list(self.held.items())
        lapse = self.lapse_ms
        for start in range(0, len(held), RENEW_BATCH):
            batch = held[start : start + RENEW_BATCH]
            await self._renew(
                keys=[key for _, key in batch], args=[lapse, *(member for member, _ in batch)]
            )

    async def close(self) -> None:
        return None
