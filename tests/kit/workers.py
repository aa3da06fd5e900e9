"""Workers of one site in the test's own process: each app under uvicorn in a thread
(:class:`~tests.kit.live.LiveServer`), all on one fresh PostgreSQL schema and one Redis
prefix of their own, as ``rummykit serve`` processes of a site share them."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.kit.databases import POSTGRES_URL, make_settings
from tests.kit.live import LiveServer
from tests.kit.redis import REDIS_URL, new_prefix

OpenWorkers = Callable[..., tuple[LiveServer, ...]]
"""``open_workers(count=2, **setting_overrides)``: that many started workers."""


@pytest.fixture
def open_workers(postgres_schema: str) -> Iterator[OpenWorkers]:
    """Start workers of one site (on the test's schema and a fresh Redis prefix), with
    the test settings and ``setting_overrides``; all stopped at the test's end."""
    prefix = new_prefix()
    with contextlib.ExitStack() as stack:

        def open_(count: int = 2, **setting_overrides: Any) -> tuple[LiveServer, ...]:
            settings = make_settings(
                POSTGRES_URL,
                database_schema=postgres_schema,
                redis_url=REDIS_URL,
                redis_prefix=prefix,
                **setting_overrides,
            )
            return tuple(stack.enter_context(LiveServer(settings)) for _ in range(count))

        yield open_
