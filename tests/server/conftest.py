"""Server test fixtures: an app on a fresh SQLite file (or a fresh PostgreSQL schema),
one shared pool of bot worker processes, no pauses, and a fake clock (timers ring only
when a test moves the clock on)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from tests.kit.apps import any_client, app_client, open_client, reading_client, shared_app
from tests.kit.databases import (
    POSTGRES_URL,
    database,
    empty_database,
    make_settings,
    migrated_sqlite,
    module_database,
    new_postgres_schema,
    postgres_schema,
    settings,
    sqlite_url,
)
from tests.kit.passwords import hashes
from tests.kit.site import site
from tests.kit.workers import open_workers

__all__ = [
    "POSTGRES_URL",
    "any_client",
    "bot_runner",
    "client",
    "clock",
    "database",
    "empty_database",
    "hashes",
    "make_settings",
    "migrated_sqlite",
    "module_database",
    "new_postgres_schema",
    "open_client",
    "open_workers",
    "postgres_schema",
    "reading_client",
    "settings",
    "shared_app",
    "site",
    "sqlite_url",
]


@pytest.fixture(scope="session")
def bot_runner() -> Iterator[BotRunner]:
    runner = BotRunner(2)
    yield runner
    runner.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(sqlite_url: str, bot_runner: BotRunner, clock: FakeClock) -> Iterator[TestClient]:
    with app_client(make_settings(sqlite_url), runner=bot_runner, clock=clock) as test_client:
        yield test_client
