"""Workers of one site in the test's own process: each app under uvicorn in a thread
(:class:`~tests.kit.live.LiveServer`), all on one fresh PostgreSQL schema and one Redis
prefix of their own, as ``rummykit serve`` processes of a site share them: for one test
(:func:`open_workers`) or for a module (:func:`running_workers`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rummykit.server.settings import Settings
from tests.kit.databases import POSTGRES_URL, make_settings
from tests.kit.live import LiveServer
from tests.kit.redis import REDIS_URL, new_prefix

OpenWorkers = Callable[..., tuple[LiveServer, ...]]
"""``open_workers(count=2, **setting_overrides)``: that many started workers."""

LEASE_SECONDS = 20.0
"""The workers' table leases (4 s by default): the workers and the test share one
process, whose event loops a loaded machine can leave unscheduled for three seconds or
more (``loop_stalled``); a worker that stalls past its lease lets its tables go, and its
players are told ``table_unavailable`` until one is taken again.  No test of these
workers is about leases; a test that is passes its own ``lease_seconds``."""


def worker_settings(schema: str, prefix: str, **setting_overrides: Any) -> Settings:
    """The test settings of a worker of the site on ``schema`` and the Redis ``prefix``,
    with ``setting_overrides``."""
    return make_settings(
        POSTGRES_URL,
        database_schema=schema,
        redis_url=REDIS_URL,
        redis_prefix=prefix,
        **({"lease_seconds": LEASE_SECONDS} | setting_overrides),
    )


@contextlib.contextmanager
def running_workers(
    schema: str, count: int = 2, **setting_overrides: Any
) -> Iterator[tuple[LiveServer, ...]]:
    """``count`` started workers of a new site on ``schema`` (a fresh Redis prefix),
    with the test settings and ``setting_overrides``; stopped at the end (a module's
    workers, on a schema of the module's own)."""
    prefix = new_prefix()
    with contextlib.ExitStack() as stack:
        settings = worker_settings(schema, prefix, **setting_overrides)
        yield tuple(stack.enter_context(LiveServer(settings)) for _ in range(count))


@pytest.fixture
def open_workers(postgres_schema: str) -> Iterator[OpenWorkers]:
    """Start workers of one site (on the test's schema and a fresh Redis prefix), with
    the test settings and ``setting_overrides``; all stopped at the test's end."""
    prefix = new_prefix()
    with contextlib.ExitStack() as stack:

        def open_(count: int = 2, **setting_overrides: Any) -> tuple[LiveServer, ...]:
            settings = worker_settings(postgres_schema, prefix, **setting_overrides)
            return tuple(stack.enter_context(LiveServer(settings)) for _ in range(count))

        yield open_
