"""The migrations build the schema the models declare (``models.py`` and
``migrations/versions/`` say the same), on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from rummykit.server.storage import migrate
from rummykit.server.storage.engine import limits, make_engine
from rummykit.server.storage.models import Base
from tests.kit.databases import POSTGRES_URL
from tests.kit.storage import open_storage


def _differences(connection: Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


# SQLite cannot reflect the indexes on lower(name): those two are compared on PostgreSQL
@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
@pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based")
def test_the_migrated_schema_is_the_models_schema(empty_database: dict[str, Any]) -> None:
    async def run() -> None:
        storage = await open_storage(**empty_database)
        async with storage.engine.connect() as connection:
            assert await connection.run_sync(_differences) == []
        await storage.close()

    asyncio.run(run())


def test_a_worker_stopped_mid_migration_for_longer_than_its_time_limit_still_migrates(
    postgres_schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker's sessions end a transaction left idle for its lease's time (engine.py);
    a starved machine can stop the process that long between two statements of the
    migration, which must still be applied whole.

    The engine here has only that limit, short, so that nothing else (the client's
    own limits, meant for a worker cut off from the database) can fail the test."""
    idle = limits(0.2)["idle_in_transaction_session_timeout"]
    upgrade_schema = migrate._upgrade

    def stopped_first(connection: Connection) -> None:
        time.sleep(1.0)  # the process stopped (wall time is the subject), its transaction idle
        upgrade_schema(connection)

    monkeypatch.setattr(migrate, "_upgrade", stopped_first)

    async def run() -> None:
        settings = {"search_path": postgres_schema, "idle_in_transaction_session_timeout": idle}
        limited = create_async_engine(POSTGRES_URL, connect_args={"server_settings": settings})
        plain = make_engine(POSTGRES_URL, schema=postgres_schema)
        try:
            await migrate.upgrade(limited)
            async with plain.connect() as connection:
                assert await connection.run_sync(_differences) == []
        finally:
            await limited.dispose()
            await plain.dispose()

    asyncio.run(run())
