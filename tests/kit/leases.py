"""Table rows and leases on the test database: rows to store, the storages of several
server processes on one schema (directly or through a relay that can stall), and waits
bounded even when the database itself hangs."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from sqlalchemy import text

from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.storage.store import Storage
from tests.kit.databases import POSTGRES_URL
from tests.kit.stall_proxy import StallProxy

T = TypeVar("T")

WAIT_LIMIT = 10.0
"""Seconds a test waits for the database to do what it must do (far above the TTLs)."""


def table_row(table_id: str, *, status: str = "playing", created_at: float = 0.0) -> TableRow:
    """A Burraco table's row, as a server stores it when the table is made."""
    return TableRow(
        id=table_id, game="burraco", rules={}, private=False, invite_token=None, seed=1,
        nonce="n", commitment="c", turn_seconds=None, status=status, creator_id=None,
        created_at=created_at, started_at=None, finished_at=None, totals=None, winners=None,
    )  # fmt: skip


def seats(table_id: str) -> list[SeatRow]:
    """One bot's seat."""
    return [SeatRow(table_id=table_id, seat=0, kind="bot", level="random")]


def human_seats(table_id: str, *held: str) -> list[SeatRow]:
    """Two human seats, the first ones held by ``held`` players."""
    return [
        SeatRow(
            table_id=table_id,
            seat=i,
            kind="human",
            player_id=held[i] if i < len(held) else None,
            name=held[i] if i < len(held) else None,
        )
        for i in range(2)
    ]


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
        engine = make_engine(url, schema=self.schema, pool_size=pool_size, max_overflow=0)
        storage = Storage(engine)
        self._storages.append(storage)
        await storage.migrate()
        for table_id in tables:
            await storage.add_table(table_row(table_id), seats(table_id))
        return storage

    async def __aenter__(self) -> Processes:
        return self

    async def __aexit__(self, *_: object) -> None:
        self.proxy.release()
        for storage in self._storages:
            await storage.close()
        await self.proxy.close()


async def eventually(attempt: Callable[[], Awaitable[T | None]]) -> T:
    """Ask ``attempt`` again every 20 ms until it gives something; fails after
    WAIT_LIMIT seconds, even if an attempt is still waiting for the database."""
    try:
        async with asyncio.timeout(WAIT_LIMIT):
            while (found := await attempt()) is None:
                await asyncio.sleep(0.02)
            return found
    except TimeoutError:
        raise AssertionError(f"nothing after {WAIT_LIMIT} s") from None


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
