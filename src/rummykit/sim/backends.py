"""Where a match's games are played: in this process, in a pool of worker processes, or
on a Ray cluster.

A backend maps a picklable function over picklable items (a match's
:class:`~rummykit.sim.series.GameTask` values) and yields the results in whatever
order they finish; the caller puts them back in task order.  A game depends only on its
task (game, rules, seed, seating, bots), never on which worker plays it or when, so the
same tasks give the same results, byte for byte, on every backend.

A backend is a context manager: entering it starts its workers (or connects to a Ray
cluster), leaving it stops them, so several matches can share one start.  This module
uses the standard library alone; the Ray backend lives in :mod:`rummykit.sim.ray_backend`
and is imported only when it is chosen (:mod:`rummykit.sim.backend_options`), so Ray
stays an optional extra (``rummykit[ray]``).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
from collections.abc import Callable, Generator, Sequence
from types import TracebackType
from typing import Any, Self, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


class BackendError(Exception):
    """A backend that cannot run: options that do not go together, Ray not installed, a
    Ray cluster that cannot be reached.  ``code`` is stable, ``params`` name the values
    the English ``message`` mentions.

    >>> error = BackendError("bad_backend", "no backend named 'gpu'", name="gpu")
    >>> error.code, error.params, str(error)
    ('bad_backend', {'name': 'gpu'}, "no backend named 'gpu'")
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


class Backend:
    """Runs a function over many items; the base of the in-process backend."""

    name = "local"

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        return None

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Generator[Result, None, None]:
        """``function(item)`` for every item, in the order they finish (here: in order).

        >>> with Backend() as backend:
        ...     sorted(backend.map_unordered(abs, [-2, 1]))
        [1, 2]
        """
        for item in items:
            yield function(item)


class ProcessBackend(Backend):
    """A pool of ``workers`` processes on this machine (one per core when ``None``),
    forked where the platform allows it so that they start fast."""

    name = "processes"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers
        self._size = 1
        self._pool: multiprocessing.pool.Pool | None = None

    def __enter__(self) -> Self:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._size = self.workers or os.cpu_count() or 1
        self._pool = context.Pool(self._size)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._pool is not None:
            if kind is None:
                self._pool.close()
            else:
                self._pool.terminate()
            self._pool.join()
            self._pool = None

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Generator[Result, None, None]:
        """``function(item)`` for every item, in chunks of about a sixteenth of an item
        list's share per worker; only inside ``with``."""
        if self._pool is None:
            raise RuntimeError("a process backend runs only inside 'with'")
        chunksize = max(1, len(items) // (self._size * 16))
        yield from self._pool.imap_unordered(function, items, chunksize=chunksize)


def play_chunk(function: Callable[[Item], Result], items: Sequence[Item]) -> list[Result]:
    """``function`` over a chunk of items, in order: one remote call of a cluster backend.

    >>> play_chunk(abs, [-3, 2])
    [3, 2]
    """
    return [function(item) for item in items]
