"""Cancelling a part's tasks at a stop waits until each has ended, even one that
swallowed its first ``CancelledError`` (as redis-py may while it opens a connection)."""

from __future__ import annotations

import asyncio
from typing import Any

from rummykit.server.cancelling import cancel


def test_a_task_that_swallows_its_cancellation_is_cancelled_again_until_it_ends() -> None:
    swallowed: list[str] = []

    async def stubborn_loop() -> None:
        never = asyncio.Event()
        while True:
            try:
                await never.wait()
            except asyncio.CancelledError:  # lost, as inside redis-py's connect
                swallowed.append("cancel")
                if len(swallowed) == 1:
                    continue
                raise

    async def failing() -> None:
        raise RuntimeError("Redis away")

    async def main() -> tuple[set[asyncio.Task[Any]], list[asyncio.Task[Any]]]:
        tasks = {asyncio.create_task(stubborn_loop()), asyncio.create_task(failing())}
        kept = list(tasks)
        await asyncio.sleep(0)  # both started
        await cancel(tasks, again_after=0.01)
        return tasks, kept

    tasks, kept = asyncio.run(main())
    assert swallowed == ["cancel", "cancel"]
    assert tasks == set()
    assert all(task.done() for task in kept)
