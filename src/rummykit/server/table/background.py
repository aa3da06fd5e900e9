"""A table host's work in the background: bot thinking and hints, cancelled when the
host stops, and its storage work, left to finish then.

A statement cancelled half-way makes SQLAlchemy close its connection, and with aiosqlite
that close can wait for good: the event loop then never finishes shutting down (a
restarted server's test hung so, one time in ten under load).  So a stopping host waits
for its reads and writes, for :data:`STATEMENTS_GRACE_SECONDS` at most (a database cut
makes them long), and cancels only the rest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Final

STATEMENTS_GRACE_SECONDS: Final = 10.0


class Background:
    """The tasks one host runs beside its inbox."""

    def __init__(self) -> None:
        self._cancellable: set[asyncio.Task[Any]] = set()
        self._statements: set[asyncio.Task[Any]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, None], *, statement: bool = False) -> None:
        """Run ``coroutine``; a ``statement`` (storage work) is left to finish at a stop."""
        tasks = self._statements if statement else self._cancellable
        task = asyncio.create_task(coroutine)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def cancel(self) -> None:
        """Cancel the work that is not storage work."""
        for task in self._cancellable:
            task.cancel()

    async def finish(self) -> None:
        """Wait for the storage work under way (for the grace at most)."""
        if self._statements:
            await asyncio.wait(set(self._statements), timeout=STATEMENTS_GRACE_SECONDS)
