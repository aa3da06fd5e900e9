"""Server test fixtures: an app on a fresh SQLite file (or a fresh PostgreSQL schema),
one shared pool of bot worker processes, no pauses, and a fake clock (timers ring only
when a test moves the clock on)."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.server.app import create_app
from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.settings import Settings

POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


def make_settings(database_url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": database_url,
        "secret_key": "test-secret",
        "bot_pause_seconds": 0.0,
        "bot_workers": 1,
        "hint_iterations": 8,
        "messages_per_second": 10_000.0,
        "message_burst": 10_000,
        "finished_linger_seconds": 0.0,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def bot_runner() -> Iterator[BotRunner]:
    runner = BotRunner(2)
    yield runner
    runner.close()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite3'}"


async def _run_sql(statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@contextlib.contextmanager
def new_postgres_schema() -> Iterator[str]:
    """A fresh schema in the test database, dropped at the end; fails if unreachable (for
    fixtures wider than a test, which cannot ask for :func:`postgres_schema`)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    asyncio.run(_run_sql(f"CREATE SCHEMA {schema}"))
    try:
        yield schema
    finally:
        asyncio.run(_run_sql(f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture
def postgres_schema() -> Iterator[str]:
    """A fresh schema in the test database (dropped afterwards); fails if unreachable."""
    with new_postgres_schema() as schema:
        yield schema


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """The settings of a fresh database of either kind, for :func:`make_settings`: each
    test that asks for it runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return {"database_url": f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"}
    schema = request.getfixturevalue("postgres_schema")
    return {"database_url": POSTGRES_URL, "database_schema": schema}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(sqlite_url: str, bot_runner: BotRunner, clock: FakeClock) -> Iterator[TestClient]:
    app = create_app(make_settings(sqlite_url), runner=bot_runner, clock=clock)
    with TestClient(app) as test_client:
        yield test_client
