"""A player's lock: one transaction at a time for what a player may have.

A limit on what a player has (tables, the thinking time of their bots, tournaments) is
a check followed by a write; two requests of one player that both check before either
writes would both pass.  :func:`holding_player` makes the check and the write one step
in every server process: its transactions of one player run one after the other.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.server.storage.store import Storage


@asynccontextmanager
async def holding_player(storage: Storage, player_id: str) -> AsyncIterator[AsyncSession]:
    """A transaction holding ``player_id``'s lock until it ends (committed at the end
    of the block, rolled back on an error); the second of two such transactions of one
    player waits for the first and sees what it wrote.  Everything the block reads and
    writes must go through this session.

    PostgreSQL: a transaction advisory lock of the player.  SQLite: the transaction
    begins with ``BEGIN IMMEDIATE``, taking the database's write lock at once, whatever
    the process; a deferred one would read first and could be overtaken by another
    process's write before its own.  (In one process the engine's single connection
    already runs one transaction at a time.)
    """
    async with storage.reading() as session, session.begin():
        if storage.engine.dialect.name == "postgresql":
            digest = hashlib.sha256(b"player-limits:" + player_id.encode()).digest()
            key = int.from_bytes(digest[:8], "big", signed=True)
            await session.execute(select(func.pg_advisory_xact_lock(key)))
        else:
            await session.execute(text("BEGIN IMMEDIATE"))
        yield session
