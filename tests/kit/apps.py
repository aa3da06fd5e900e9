"""The server app in the test's own process: the one way the tests open an app
(``create_app`` with settings, a bot runner and a clock), behind Starlette's test client
(:func:`app_client`, the ``any_client`` and ``open_client`` fixtures) or started in the
test's own event loop and asked through ``httpx`` (:func:`serving`, :func:`client_at`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from rummykit.server.app import create_app
from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import Clock
from rummykit.server.settings import Settings
from tests.kit.databases import copy_of, make_settings


def routes_built(app: FastAPI) -> FastAPI:
    """``app`` with every route's fields built now, in this thread (as its API schema is
    made).  FastAPI builds them at a route's first request, each inside a
    ``warnings.catch_warnings`` that is not thread-safe: apps answering their first
    requests on two threads at once can restore each other's warning filters, and a
    pydantic warning FastAPI means to silence escapes as the tests' error (a 500).  An
    app asked from several threads at once is built first."""
    app.openapi()
    return app


@contextlib.contextmanager
def app_client(
    settings: Settings,
    *,
    runner: Any = None,
    clock: Clock | None = None,
    storage: Any = None,
    raise_server_exceptions: bool = True,
    push_client: Any = None,
) -> Iterator[TestClient]:
    """A test client of the app made from ``settings``, started (its lifespan run) and
    stopped around the block (``push_client``: the client its Web Push is posted with,
    ``tests/kit/push_service.py``'s to reach the test's own push service)."""
    app = create_app(settings, runner=runner, clock=clock, storage=storage, push_client=push_client)
    with TestClient(app, raise_server_exceptions=raise_server_exceptions) as client:
        yield client


@pytest.fixture
def any_client(settings: Settings, bot_runner: BotRunner, clock: Clock) -> Iterator[TestClient]:
    """A test client of the app on a fresh database of either kind (``settings``), with
    the shared bot runner and the test's fake clock."""
    with app_client(settings, runner=bot_runner, clock=clock) as client:
        yield client


@pytest.fixture(scope="module")
def shared_app(
    tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path, bot_runner: BotRunner
) -> Iterator[TestClient]:
    """One app for a module's tests that only read what it serves (pages, schemas,
    headers, health) and store nothing another test would see; use it through
    :func:`reading_client`."""
    settings = make_settings(copy_of(migrated_sqlite, tmp_path_factory.mktemp("shared-app")))
    with app_client(settings, runner=bot_runner) as client:
        yield client


@pytest.fixture
def reading_client(shared_app: TestClient) -> TestClient:
    """The module's :func:`shared_app`, its cookies cleared for this test."""
    shared_app.cookies.clear()
    return shared_app


OpenClient = Callable[..., TestClient]
"""``open_client(settings=None, *, runner=..., clock=..., push_client=...,
**setting_overrides)``."""


@pytest.fixture
def open_client(sqlite_url: str, bot_runner: BotRunner, clock: Clock) -> Iterator[OpenClient]:
    """Open test clients, each closed at the test's end: on ``settings`` (by default the
    test's SQLite file) with ``setting_overrides``, the shared bot runner and the test's
    fake clock unless others are given."""
    with contextlib.ExitStack() as stack:

        def open_(
            settings: Settings | None = None,
            *,
            runner: Any = bot_runner,
            clock: Clock | None = clock,
            storage: Any = None,
            raise_server_exceptions: bool = True,
            push_client: Any = None,
            **setting_overrides: Any,
        ) -> TestClient:
            if settings is None:
                settings = make_settings(sqlite_url, **setting_overrides)
            elif setting_overrides:
                settings = settings.model_copy(update=setting_overrides)
            return stack.enter_context(
                app_client(
                    settings,
                    runner=runner,
                    clock=clock,
                    storage=storage,
                    raise_server_exceptions=raise_server_exceptions,
                    push_client=push_client,
                )
            )

        yield open_


@contextlib.asynccontextmanager
async def serving(settings: Settings, runner: BotRunner) -> AsyncIterator[FastAPI]:
    """The app made from ``settings``, started (its lifespan entered) in this event loop,
    so that a test may fire many requests at once (``asyncio.gather``)."""
    app = create_app(settings, runner=runner)
    async with app.router.lifespan_context(app):
        yield app


def client_at(app: FastAPI, address: str) -> httpx.AsyncClient:
    """An ``httpx`` client of ``app`` (see :func:`serving`) whose requests come from the
    client address ``address``."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def error_code(response: httpx.Response) -> str:
    """The code of the typed refusal ``response`` carries."""
    return str(response.json()["error"]["code"])
