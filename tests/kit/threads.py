"""Blocking calls run side by side, each in a thread of its own (the players of one
table, each on a socket of their own): the one way the tests do it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


def run_in_threads(*calls: Callable[[], Any], timeout: float = 600.0) -> list[Any]:
    """Run ``calls`` at once, each in a thread of its own, and wait for them all; their
    answers, in the order of ``calls``.  An error raised in any of them fails the test
    (once all have ended), as does a call still running after ``timeout`` seconds.

    >>> run_in_threads(lambda: 1, lambda: "two")
    [1, 'two']
    """
    answers: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            answers[index] = call()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not errors, errors
    assert not any(thread.is_alive() for thread in threads), f"still running after {timeout} s"
    return answers
