"""The database pool is sized by the settings on PostgreSQL; SQLite keeps one connection."""

from __future__ import annotations

import asyncio

from sqlalchemy.pool import QueuePool

from rummykit.server.bots.service import BotRunner
from rummykit.server.settings import Settings
from rummykit.server.storage.engine import make_engine
from tests.kit.apps import app_client
from tests.kit.databases import POSTGRES_URL, make_settings


def test_postgresql_pool_is_sized_by_the_settings() -> None:
    engine = make_engine(POSTGRES_URL, pool_size=3, max_overflow=2)
    pool = engine.pool
    assert isinstance(pool, QueuePool)
    assert pool.size() == 3
    assert pool._max_overflow == 2
    asyncio.run(engine.dispose())


def test_the_server_sizes_its_pool_from_its_settings(
    postgres_schema: str, bot_runner: BotRunner
) -> None:
    settings = make_settings(
        POSTGRES_URL,
        database_schema=postgres_schema,
        database_pool_size=4,
        database_max_overflow=1,
    )
    with app_client(settings, runner=bot_runner) as client:
        assert client.get("/healthz").status_code == 200
        pool = client.app.state.server.storage.engine.pool  # type: ignore[attr-defined]
        assert (pool.size(), pool._max_overflow) == (4, 1)


def test_the_settings_defaults_stay_under_postgresqls_connections() -> None:
    settings = Settings(database_url=POSTGRES_URL)
    assert settings.database_pool_size + settings.database_max_overflow <= 20


def test_sqlite_keeps_one_connection_whatever_the_settings(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url, pool_size=30, max_overflow=30)
    pool = engine.pool
    assert isinstance(pool, QueuePool)
    assert pool.size() == 1
    assert pool._max_overflow == 0
    asyncio.run(engine.dispose())
