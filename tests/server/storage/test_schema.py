"""The migrations build the schema the models declare (``models.py`` and
``migrations/versions/`` say the same), on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection

from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.models import Base
from rummykit.server.storage.store import Storage
from tests.server.conftest import POSTGRES_URL


def _differences(connection: Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
# SQLite cannot reflect the indexes on lower(name): those two are compared on PostgreSQL
@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
@pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based")
def test_the_migrated_schema_is_the_models_schema(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if database == "sqlite":
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
    else:
        engine = make_engine(POSTGRES_URL, schema=request.getfixturevalue("postgres_schema"))

    async def run() -> None:
        storage = Storage(engine)
        await storage.migrate()
        async with engine.connect() as connection:
            assert await connection.run_sync(_differences) == []
        await storage.close()

    asyncio.run(run())
