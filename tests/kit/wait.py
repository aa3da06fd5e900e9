"""Waiting on a condition, never on the clock: the one polling loop of the tests.

A test that needs something to happen (a row written, a message received, a process
started, a lease taken over) asks :func:`wait_until` (or :func:`wait_until_async` inside
an event loop) for it. The loop asks again after a short pause until the condition holds
or the time limit passes; the time limit is only there so that a broken test fails with
a message instead of hanging, never a guess at how long the thing takes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, overload

T = TypeVar("T")

POLL_SECONDS = 0.02
"""The pause between two looks at a condition."""


class WaitTimeout(AssertionError):
    """The condition did not hold within the time limit."""


def wait_until(
    condition: Callable[[], T | None],
    timeout: float = 30.0,
    *,
    what: str = "the condition",
    interval: float = POLL_SECONDS,
) -> T:
    """The first true answer of ``condition``, asked again until it comes.

    A condition that raises fails the wait at once with its own error.

    >>> answers = iter([None, 0, "ready"])
    >>> wait_until(lambda: next(answers), interval=0)
    'ready'
    >>> wait_until(lambda: False, timeout=0.01, what="the impossible")
    Traceback (most recent call last):
    ...
    tests.kit.wait.WaitTimeout: the impossible did not happen within 0.01 s
    """
    deadline = time.monotonic() + timeout
    while True:
        answer = condition()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise WaitTimeout(f"{what} did not happen within {timeout} s")
        time.sleep(interval)


@overload
async def wait_until_async(
    condition: Callable[[], Awaitable[T | None]],
    timeout: float = 30.0,
    *,
    what: str = "the condition",
    interval: float = POLL_SECONDS,
) -> T: ...


@overload
async def wait_until_async(
    condition: Callable[[], T | None],
    timeout: float = 30.0,
    *,
    what: str = "the condition",
    interval: float = POLL_SECONDS,
) -> T: ...


async def wait_until_async(
    condition: Callable[[], T | Awaitable[T | None] | None],
    timeout: float = 30.0,
    *,
    what: str = "the condition",
    interval: float = POLL_SECONDS,
) -> T:
    """:func:`wait_until` inside an event loop: ``condition`` may be a coroutine function,
    and the pauses let the loop's other tasks run.

    >>> answers = iter([None, 7])
    >>> asyncio.run(wait_until_async(lambda: next(answers), interval=0))
    7
    """
    deadline = time.monotonic() + timeout
    while True:
        answer = condition()
        if isinstance(answer, Awaitable):
            answer = await answer
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise WaitTimeout(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(interval)
