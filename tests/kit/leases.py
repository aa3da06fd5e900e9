"""Leases on the test database: the storages of several server processes on one schema
(directly or through a relay that can stall), and waits bounded even when the database
itself hangs."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from typing import TypeVar

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from rummykit.server.storage.store import Storage
from tests.kit.databases import POSTGRES_URL
from tests.kit.stall_proxy import StallProxy
from tests.kit.storage import bot_seat, open_storage, table_row
from tests.kit.wait import wait_until_async

T = TypeVar("T")

WAIT_LIMIT = 10.0
"""Seconds a test waits for the database to do what it must do (far above the TTLs)."""


class Processes:
    """The server processes of one test, each with its own engine on the test's schema,
    directly or through one :class:`StallProxy`; all closed at the end."""

    def __init__(self, schema: str) -> None:
        self.schema = schema
        self.proxy = StallProxy()
        self._proxy_port: int | None = None
        self._storages: list[Storage] = []

    async def storage(
        self, *, tables: Iterable[str] = (), pool_size: int = 5, stallable: bool = False
    ) -> Storage:
        """A process's storage (``stallable``: its connections go through the proxy),
        the schema migrated and ``tables`` added."""
        url = POSTGRES_URL
        if stallable:
            if self._proxy_port is None:
                self._proxy_port = await self.proxy.start()
            url = f"postgresql+asyncpg://postgres@127.0.0.1:{self._proxy_port}/test"
        storage = await open_storage(url, self.schema, pool_size=pool_size, max_overflow=0)
        self._storages.append(storage)
        for table_id in tables:
            await storage.add_table(table_row(table_id), bot_seat(table_id))
        return storage

    async def __aenter__(self) -> Processes:
        return self

    async def __aexit__(self, *_: object) -> None:
        self.proxy.release()
        for storage in self._storages:
            await storage.close()
        await self.proxy.close()


def in_processes(schema: str, test: Callable[[Processes], Awaitable[None]]) -> None:
    """Run ``test`` in an event loop of its own, with the :class:`Processes` of one test
    on ``schema`` (all closed at its end)."""

    async def run() -> None:
        async with Processes(schema) as db:
            await test(db)

    asyncio.run(run())


async def eventually(attempt: Callable[[], Awaitable[T | None]]) -> T:
    """Ask ``attempt`` again until it gives something (:func:`wait_until_async`); fails
    after WAIT_LIMIT seconds, even if an attempt is still waiting for the database."""
    return await within(wait_until_async(attempt, WAIT_LIMIT, what="the database's answer"))


async def within(awaitable: Awaitable[T]) -> T:
    """``awaitable``'s result; fails after WAIT_LIMIT seconds instead of hanging."""
    try:
        async with asyncio.timeout(WAIT_LIMIT):
            return await awaitable
    except TimeoutError:
        raise AssertionError(f"still waiting after {WAIT_LIMIT} s") from None


async def end_now(storage: Storage, table_id: str) -> None:
    """Make the table's lease expire at once, by the database's clock."""
    async with storage.engine.begin() as connection:
        await connection.execute(
            text("UPDATE table_leases SET expires_at = now() WHERE table_id = :t"), {"t": table_id}
        )


async def expiry(engine: AsyncEngine, table_id: str) -> datetime:
    """When the table's lease expires, by the database's clock (read without a lock)."""
    async with engine.connect() as connection:
        found = await connection.scalar(
            text("SELECT expires_at FROM table_leases WHERE table_id = :t"), {"t": table_id}
        )
    assert isinstance(found, datetime)
    return found
