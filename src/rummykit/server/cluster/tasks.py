"""The tasks a worker of a site runs beside its tables: its loops and one-off work.

A worker's loops (heartbeat, takeover, watching its peers…) each run one step every
so often and go on after a failure (Redis or the database away: try again next time);
its one-off work (a lease's release, the answer to a gateway's join) runs on its own
and is waited for, then cancelled, when the worker leaves the site.

This module schedules and cancels work and never does any: it knows nothing of Redis,
leases or tables.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from rummykit.server.cancelling import cancel

log = logging.getLogger("rummykit.server")

Spawn = Callable[[Coroutine[Any, Any, None]], None]
"""Start one-off work that the worker waits for when it leaves the site."""


class OneOffWork:
    """The one-off work of a worker (releases, answers), kept until each has ended."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_report)

    async def finish(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the work under way, then cancel the rest."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)
        await cancel(self._tasks)


def _report(task: asyncio.Task[Any]) -> None:
    """Log the failure of one-off work (a release while the database is away, say) in
    one line: the work is not tried again, and whatever needed it is retried elsewhere."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("one-off work failed: %r", error)


async def every(seconds: float, work: Callable[[], Awaitable[None]], *, worker_id: str) -> None:
    """Run ``work`` every ``seconds`` until cancelled; a failure is logged, not fatal."""
    while True:
        try:
            await work()
        except Exception:  # Redis or the database away: try again next time
            name = getattr(work, "__name__", repr(work))
            log.warning("worker %s: %s failed", worker_id, name, exc_info=True)
        await asyncio.sleep(seconds)
