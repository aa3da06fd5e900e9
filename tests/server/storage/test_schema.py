"""The migrations build the schema the models declare (``models.py`` and
``migrations/versions/`` say the same), on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection

from rummykit.server.storage.models import Base
from tests.kit.storage import open_storage


def _differences(connection: Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


# SQLite cannot reflect the indexes on lower(name): those two are compared on PostgreSQL
@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
@pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based")
def test_the_migrated_schema_is_the_models_schema(database: dict[str, Any]) -> None:
    async def run() -> None:
        storage = await open_storage(**database)
        async with storage.engine.connect() as connection:
            assert await connection.run_sync(_differences) == []
        await storage.close()

    asyncio.run(run())
