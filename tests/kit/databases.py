"""A fresh database of either kind for each test (or each module): a SQLite file in the
test's own folder, or a schema of its own in the PostgreSQL server on 127.0.0.1:5432
(database ``test``, trust authentication), dropped afterwards.

A fresh SQLite database is a copy of one file migrated once a test process
(:func:`migrated_sqlite`): applying every migration to an empty file takes 0.2 to 0.3 s,
and some hundreds of tests start on a fresh database.  The tests of the migrations
themselves start from an empty file (:func:`empty_database`).

PostgreSQL is never skipped: a test that asks for it fails when the server cannot be
reached. A test that runs on both kinds is marked ``postgres`` for its PostgreSQL case by
``tests/conftest.py`` (its parameter's value starts with ``postgres``).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.settings import Settings

POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
"""The test database, as the server's settings name it."""

POSTGRES_DSN = "postgresql://postgres@127.0.0.1:5432/test"
"""The test database, as asyncpg names it."""

KINDS = ("sqlite", "postgresql")
"""The parameters of a test that runs on both kinds of database."""


def make_settings(database_url: str, **overrides: object) -> Settings:
    """Server settings for tests: no bot pauses, one bot worker, small hints and
    fair-play assessments, no background assessment (a test of it runs the assessment
    itself), limits on messages a test never meets, and finished tables let go at once."""
    values: dict[str, object] = {
        "database_url": database_url,
        "secret_key": "test-secret",
        "bot_pause_seconds": 0.0,
        "bot_workers": 1,
        "hint_iterations": 8,
        "assessment_iterations": 8,
        "fairplay": False,
        "messages_per_second": 10_000.0,
        "message_burst": 10_000,
        "finished_linger_seconds": 0.0,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def sqlite_url_in(folder: Path, name: str = "server.sqlite3") -> str:
    """The URL of the SQLite file ``name`` in ``folder`` (made at first use)."""
    return f"sqlite+aiosqlite:///{folder / name}"


def copy_of(migrated: Path, folder: Path, name: str = "server.sqlite3") -> str:
    """The URL of a copy of the ``migrated`` SQLite file, as ``name`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated, folder / name)
    return sqlite_url_in(folder, name)


async def _migrate(url: str) -> None:
    from rummykit.server.storage.engine import make_engine
    from rummykit.server.storage.migrate import upgrade

    engine = make_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, made once a test process, for the
    fresh databases to be copies of (the server, started on it, finds nothing to do)."""
    folder = tmp_path_factory.mktemp("migrated")
    asyncio.run(_migrate(sqlite_url_in(folder, "template.sqlite3")))
    leftovers = sorted(path.name for path in folder.iterdir())
    assert leftovers == ["template.sqlite3"], leftovers  # no journal left to copy along
    return folder / "template.sqlite3"


async def run_sql(statement: str) -> None:
    """Run one statement on the test database."""
    import asyncpg

    connection = await asyncpg.connect(POSTGRES_DSN)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@contextlib.contextmanager
def new_postgres_schema() -> Iterator[str]:
    """A fresh schema in the test database, dropped at the end; fails if unreachable."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    asyncio.run(run_sql(f"CREATE SCHEMA {schema}"))
    try:
        yield schema
    finally:
        asyncio.run(run_sql(f"DROP SCHEMA {schema} CASCADE"))


def database_fields(
    kind: str, folder: Path, schema: str | None, migrated: Path | None = None
) -> dict[str, Any]:
    """The settings' database fields for a database of ``kind`` (SQLite in ``folder``,
    a copy of ``migrated`` if given, else empty; PostgreSQL in ``schema``)."""
    if kind == "sqlite":
        if migrated is not None:
            return {"database_url": copy_of(migrated, folder, "db.sqlite3")}
        return {"database_url": sqlite_url_in(folder, "db.sqlite3")}
    assert schema is not None
    return {"database_url": POSTGRES_URL, "database_schema": schema}


@pytest.fixture
def sqlite_url(tmp_path: Path, migrated_sqlite: Path) -> str:
    """A fresh SQLite database's URL (a copy of :func:`migrated_sqlite`)."""
    return copy_of(migrated_sqlite, tmp_path)


@pytest.fixture
def postgres_schema() -> Iterator[str]:
    """A fresh schema in the test database (dropped afterwards); fails if unreachable."""
    with new_postgres_schema() as schema:
        yield schema


@pytest.fixture(params=KINDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """The settings' fields of a fresh database of either kind, for :func:`make_settings`:
    each test that asks for it runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return database_fields("sqlite", tmp_path, None, request.getfixturevalue("migrated_sqlite"))
    return database_fields(request.param, tmp_path, request.getfixturevalue("postgres_schema"))


@pytest.fixture(params=KINDS)
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """:func:`database` with no table yet, for the tests of the migrations themselves."""
    schema = request.getfixturevalue("postgres_schema") if request.param != "sqlite" else None
    return database_fields(request.param, tmp_path, schema)


@pytest.fixture(scope="module", params=KINDS)
def module_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """:func:`database` shared by the tests of a module, for tests that do not change
    what the others see (a server started once for them all)."""
    folder = tmp_path_factory.mktemp("database")
    if request.param == "sqlite":
        yield database_fields("sqlite", folder, None, request.getfixturevalue("migrated_sqlite"))
        return
    with new_postgres_schema() as schema:
        yield database_fields("postgresql", folder, schema)


@pytest.fixture
def settings(database: dict[str, Any]) -> Settings:
    """Test settings (:func:`make_settings`) on a fresh database of either kind."""
    return make_settings(**database)
