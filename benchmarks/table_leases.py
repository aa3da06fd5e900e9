"""What table leases cost on PostgreSQL: acquiring and renewing them, and the fencing
check on every action written under one.

python benchmarks/table_leases.py                  # 200 tables on 127.0.0.1:5432/test
python benchmarks/table_leases.py --tables 1000 --url postgresql://user@host/db

Works in a fresh schema of the database (dropped at the end).  Prints the mean time of
an acquisition (granted, then refused), of a renewal alone and of one renewal of every
table in one statement (what a process's keeper sends each round), and of an action
appended with and without a lease: one at a time (a commit each), and one action of
every table at once (shared commits).
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable

import asyncpg

from rummykit.server.cluster.leases import LeaseStore
from rummykit.server.storage.engine import make_engine, normalize_url
from rummykit.server.storage.fencing import Lease
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.storage.store import Storage


async def timed(label: str, count: int, work: Callable[[], Awaitable[object]]) -> None:
    started = time.perf_counter()
    await work()
    elapsed = time.perf_counter() - started
    print(f"{label:<52} {elapsed / count * 1000:8.2f} ms each ({count}, {elapsed:.2f} s)")


async def measure(storage: Storage, tables: list[str]) -> None:
    store = LeaseStore(storage.engine)
    leases: list[Lease] = []

    async def acquire_all() -> None:
        for table_id in tables:
            lease = await store.acquire(table_id, "bench", 600.0)
            assert lease is not None
            leases.append(lease)

    async def refuse_all() -> None:
        for table_id in tables:
            assert await store.acquire(table_id, "other", 600.0) is None

    async def renew_each() -> None:
        for lease in leases:
            assert await store.renew(lease)

    async def renew_together() -> None:
        assert len((await store.renew_many(leases)).renewed) == len(leases)

    await timed("acquire (granted)", len(tables), acquire_all)
    await timed("acquire (refused: held)", len(tables), refuse_all)
    await timed("renew, one lease a statement", len(leases), renew_each)
    await timed(f"renew_many, {len(leases)} leases in one statement", 1, renew_together)

    first = leases[0]
    numbers = iter(range(10**9))

    async def one_at_a_time(lease: Lease | None) -> None:
        for _ in tables:
            await storage.append_action(
                first.table_id, next(numbers), 0, "draw", "bot", 0.0, lease=lease
            )

    async def all_tables_at_once(lease: bool) -> None:
        number = next(numbers)
        await asyncio.gather(
            *[
                storage.append_action(
                    x.table_id, number, 0, "draw", "bot", 0.0, lease=x if lease else None
                )
                for x in leases
            ]
        )

    await timed("append, one at a time, no lease", len(tables), lambda: one_at_a_time(None))
    await timed("append, one at a time, under a lease", len(tables), lambda: one_at_a_time(first))
    await timed(
        "append, every table at once, no lease", len(tables), lambda: all_tables_at_once(False)
    )
    await timed(
        "append, every table at once, under leases", len(tables), lambda: all_tables_at_once(True)
    )


async def main(url: str, table_count: int) -> None:
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    plain_url = normalize_url(url).replace("postgresql+asyncpg://", "postgresql://")
    admin = await asyncpg.connect(plain_url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        storage = Storage(make_engine(url, schema=schema))
        await storage.migrate()
        tables = [f"t{i}" for i in range(table_count)]
        for table_id in tables:
            row = TableRow(
                id=table_id, game="burraco", rules={}, private=False, invite_token=None, seed=1,
                nonce="n", commitment="c", turn_seconds=None, status="playing", creator_id=None,
                created_at=0.0, started_at=0.0, finished_at=None, totals=None, winners=None,
            )  # fmt: skip
            await storage.add_table(
                row, [SeatRow(table_id=table_id, seat=0, kind="bot", level="random")]
            )
        await measure(storage, tables)
        await storage.close()
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--tables", type=int, default=200)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.url, arguments.tables))
