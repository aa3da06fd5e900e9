"""A server's stop, part after part, never held up for good by one of them.

Each part of the stop (the notifications, the tables, the cluster, the database...) is
given :data:`PART_SECONDS`.  A part still busy then is logged as ``stop_slow`` with the
chain of awaits it is waiting in (its coroutines, outermost first, through any task it
awaits), and left behind: the parts after it still stop.  A worker of a site that never
finishes stopping keeps its tables' leases until they lapse and is killed by whoever
stopped it; one that goes on releases the rest at once, and its log says where the slow
part waited.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, Final

from rummykit.server.operations.events_log import log_event

PART_SECONDS: Final = 15.0
"""How long one part may take: a table's storage work is given 10 s to finish
(``table/background.py``), and a part waits on it."""

Part = tuple[str, Callable[[], Coroutine[Any, Any, None]]]
"""A part's name, for the log, and its stop."""


def waiting_in(task: asyncio.Task[Any]) -> str:
    """Where ``task`` waits: ``function (file:line)`` of each coroutine it is in,
    outermost first, and on into a task it awaits (the future a task waits on is
    CPython's ``Task._fut_waiter``)."""
    places = []
    current: Any = task
    while isinstance(current, asyncio.Task):
        awaited: Any = current.get_coro()
        while awaited is not None:
            frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "ag_frame", None)
            if frame is None:
                break
            code = frame.f_code
            places.append(f"{code.co_name} ({Path(code.co_filename).name}:{frame.f_lineno})")
            awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "ag_await", None)
        current = getattr(current, "_fut_waiter", None)
    return " > ".join(places)


async def stop_parts(parts: Sequence[Part], *, seconds: float = PART_SECONDS) -> list[str]:
    """Stop each of ``parts`` in turn, each for ``seconds`` at most; the names of those
    left behind.  A part that fails stops the rest, as a failure would without this."""
    left = []
    for name, stop in parts:
        task = asyncio.create_task(stop(), name=f"stop {name}")
        done, _ = await asyncio.wait({task}, timeout=seconds)
        if task in done:
            task.result()
            continue
        left.append(name)
        log_event(
            None,
            "stop_slow",
            level=logging.WARNING,
            part=name,
            seconds=seconds,
            waiting=waiting_in(task),
        )
    return left
