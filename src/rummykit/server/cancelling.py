"""Ending a part's asyncio tasks at a stop: cancel them, and again, until each has ended.

Every part of the server that runs tasks of its own (a worker's loops, the notification
sender, the assessment and review jobs, the tournaments' sweeper) ends them with
:func:`cancel` when the server stops, so that a cancellation lost on the way cannot hold
the stop up for good.
"""

from __future__ import annotations

import asyncio
from typing import Any

CANCEL_AGAIN_SECONDS = 0.5
"""How long :func:`cancel` waits for cancelled tasks before cancelling again."""


async def cancel(
    tasks: set[asyncio.Task[Any]], *, again_after: float = CANCEL_AGAIN_SECONDS
) -> None:
    """Cancel ``tasks`` and wait until each has ended, cancelling again every
    ``again_after`` seconds those that go on; what each ended with is read and dropped
    (a loop's end at a stop is no news); ``tasks`` is emptied.

    A cancellation can be lost: Python 3.11's ``asyncio.wait_for``, which redis-py and
    asyncpg use, returns the awaited call's result when the cancellation lands as that
    call completes, and redis-py may swallow one while it opens a connection.  The task
    then carries on, and a stop waiting on it would wait for good."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=again_after)
    for task in tasks:
        if not task.cancelled():
            task.exception()  # retrieved, so that asyncio does not log it as never read
    tasks.clear()
