"""A worker keeps its table leases while every connection of its database pool is busy.

A worker that has just taken over many tables restores them all at once, and on a busy
machine those restores can hold every connection of the pool for longer than a lease's
safe time.  Its lease statements (takes, renewals, releases) have connections of their
own, so they never wait behind that work and its leases do not lapse.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from rummykit.server.api.context import ServerContext
from rummykit.server.bots.service import BotRunner
from rummykit.server.cluster.worker import LEASE_CONNECTIONS, Cluster
from rummykit.server.settings import Settings
from tests.kit.apps import serving
from tests.kit.databases import POSTGRES_URL, make_settings
from tests.kit.leases import expiry
from tests.kit.redis import REDIS_URL, new_prefix
from tests.kit.storage import human_seats, table_row


@contextlib.asynccontextmanager
async def a_worker(
    schema: str, bot_runner: BotRunner, **settings: object
) -> AsyncIterator[tuple[ServerContext, Cluster]]:
    """A worker of a site (its server and its part of the site) with a two-second lease
    and the ``settings`` given, its table ``t1`` stored but not yet taken."""
    values: dict[str, object] = {
        "database_schema": schema,
        "redis_url": REDIS_URL,
        "redis_prefix": new_prefix(),
        "lease_seconds": 2.0,
        **settings,
    }
    worker_settings: Settings = make_settings(POSTGRES_URL, **values)
    async with serving(worker_settings, bot_runner) as app:
        server: ServerContext = app.state.server
        cluster = server.tables.cluster
        assert isinstance(cluster, Cluster)
        await server.storage.add_table(table_row("t1"), human_seats("t1"))
        yield server, cluster


def test_a_worker_renews_its_leases_while_its_pool_is_busy(
    postgres_schema: str, bot_runner: BotRunner
) -> None:
    async def run() -> None:
        pool = {"database_pool_size": 1, "database_max_overflow": 0}
        async with (
            a_worker(postgres_schema, bot_runner, **pool) as (server, cluster),
            # the pool's only connection, held by other work for longer than the lease
            server.storage.engine.connect(),
        ):
            lease = await asyncio.wait_for(cluster.keeper.take("t1"), timeout=10)
            assert lease is not None
            taken_until = await expiry(cluster.lease_engine, "t1")
            await asyncio.wait_for(cluster.keeper.renew_round(), timeout=10)
            assert cluster.keeper.lease_for("t1") == lease
            assert await expiry(cluster.lease_engine, "t1") > taken_until  # renewed

    asyncio.run(run())


def test_a_worker_renews_its_leases_while_its_takes_hold_every_lease_connection(
    postgres_schema: str, bot_runner: BotRunner
) -> None:
    """A worker taking over many tables at once sends as many takes and lookups as its
    lease connections can carry; its renewal has a connection of its own and is not
    queued behind them."""

    async def run() -> None:
        async with a_worker(postgres_schema, bot_runner) as (server, cluster):
            lease = await asyncio.wait_for(cluster.keeper.take("t1"), timeout=10)
            assert lease is not None
            taken_until = await expiry(server.storage.engine, "t1")
            async with contextlib.AsyncExitStack() as busy:
                for _ in range(LEASE_CONNECTIONS):  # each held by a take still under way
                    await busy.enter_async_context(cluster.lease_engine.connect())
                await asyncio.wait_for(cluster.keeper.renew_round(), timeout=10)
                assert cluster.keeper.lease_for("t1") == lease
                assert await expiry(server.storage.engine, "t1") > taken_until  # renewed

    asyncio.run(run())
