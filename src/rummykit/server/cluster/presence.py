"""Which waiting tables the lobby of every worker leaves out: those whose players are
all away.

The host of a waiting table knows whether anyone is there; the lobby of another worker
does not.  So each worker marks, in Redis, the waiting tables it hosts whose players
are all away (the key ``<prefix>:away:<table>``, renewed every half second and lapsing
unless renewed), and a lobby asks for the marks of the tables hosted elsewhere.  A
mark goes as soon as its table is no longer away: at once when a player comes back
(before that player is sent the table, so every lobby lists it again by then), and at
the next round for any other reason (a seat taken).

This module only marks and reads marks: it never stops, takes or changes a table, and
when Redis is away it hides nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from rummykit.server.table.registry import TableRegistry

if TYPE_CHECKING:
    from redis.asyncio import Redis


class Presence:
    """The away marks of waiting tables, this worker's and the other workers'."""

    def __init__(self, redis: Redis, *, prefix: str, alive_seconds: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.alive_seconds = alive_seconds
        self.registry: TableRegistry | None = None  # set when the worker joins the site
        self._marked: set[str] = set()  # the tables this worker may have marked away
        # a round of marks and a mark removed never cross: a round's SET sent before a
        # player came back cannot land after that mark's removal
        self._marking = asyncio.Lock()

    def hidden_key(self, table_id: str) -> str:
        return f"{self.prefix}:away:{table_id}"

    async def publish_presence(self) -> None:
        """Mark the waiting tables here whose players are all away (the lobby of every
        worker leaves them out); a mark lapses unless renewed."""
        if self.registry is None:
            return
        hosts = self.registry.hosts
        async with self._marking:
            away = {
                table_id
                for table_id, host in hosts.items()
                if host.status == "waiting" and not host.awaits_players()
            }
            # still hosted here, no longer away (a table that moved keeps its mark until
            # it lapses: its new owner marks it or not)
            back = {table_id for table_id in self._marked - away if table_id in hosts}
            self._marked |= away
            if away or back:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for table_id in away:
                        pipe.set(self.hidden_key(table_id), b"1", px=int(self.alive_seconds * 1000))
                    if back:
                        pipe.delete(*(self.hidden_key(table_id) for table_id in back))
                    await pipe.execute()
            self._marked = away

    async def unmark(self, table_id: str) -> None:
        """``table_id``, hosted here, has a player back: remove its away mark now, if this
        worker set one (Redis away: it lapses on its own)."""
        async with self._marking:
            if table_id not in self._marked:
                return
            self._marked.discard(table_id)
            with contextlib.suppress(Exception):
                await self.redis.delete(self.hidden_key(table_id))

    async def hidden_elsewhere(self, table_ids: list[str]) -> set[str]:
        """Which of ``table_ids`` (hosted by other workers) their owners mark as away."""
        try:
            found = await self.redis.mget([self.hidden_key(t) for t in table_ids])
        except Exception:  # Redis away: list them all rather than none
            return set()
        return {t for t, value in zip(table_ids, found, strict=True) if value is not None}
