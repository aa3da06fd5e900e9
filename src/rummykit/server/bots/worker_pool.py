"""A pool of worker processes that outlives its workers.

A :class:`~concurrent.futures.ProcessPoolExecutor` one of whose processes dies (killed,
out of memory, a crash in C code) is *broken*: every call in it fails with
``BrokenProcessPool``, and so does every later submit, until the server restarts.
:class:`WorkerPool` holds one executor at a time and replaces a broken one with a fresh
one: executors are numbered by generation, and only the first call to see generation
*g* broken builds generation *g + 1* (the others find it built).  The calls that were in
the broken executor are submitted again to the new one, up to ``retries`` times each;
after that their futures fail with :class:`~rummykit.server.bots.errors.BotUnavailable`.
Calls must therefore be safe to repeat: pure functions of their arguments (a bot
decision is, given its seed).  An exception raised by the call itself is its answer and
is never retried.

This module knows no bots, owners or priorities (:mod:`rummykit.server.bots.queue`
orders calls).  It never blocks: it works with concurrent futures and their callbacks,
from any thread, and needs no event loop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future
from functools import partial
from typing import Any

from rummykit.server.bots.errors import BotUnavailable
from rummykit.server.operations.events_log import log_event

Call = Callable[[], Any]


class WorkerPool:
    """Runs calls in the executor that ``make_executor`` builds, rebuilt when broken."""

    def __init__(self, make_executor: Callable[[], Executor], *, retries: int = 2) -> None:
        if retries < 0:
            raise ValueError("retries must be 0 or more")
        self._make_executor = make_executor
        self.retries = retries
        self._lock = threading.Lock()
        self._executor = make_executor()
        self._generation = 0
        self._closed = False

    @property
    def executor(self) -> Executor:
        """The executor in use now."""
        return self._executor

    @property
    def generation(self) -> int:
        """How many times a broken executor has been replaced."""
        return self._generation

    def submit(self, call: Call) -> Future[Any]:
        """``call()`` in a worker; the future holds its result or its exception, or
        :class:`BotUnavailable` once the call has been in ``retries + 1`` broken
        executors.  The future is already running: it cannot be cancelled."""
        result: Future[Any] = Future()
        result.set_running_or_notify_cancel()
        try:
            self._attempt(call, result, 0)
        except Exception as error:  # e.g. no new executor could be built
            _fail(result, error)
        return result

    def _attempt(self, call: Call, result: Future[Any], failures: int) -> None:
        while True:
            with self._lock:
                closed, executor, generation = self._closed, self._executor, self._generation
            if closed:
                result.set_exception(BotUnavailable("the bot workers are shut down"))
                return
            try:
                running = executor.submit(call)
            except BrokenExecutor:
                # A worker died while idle: this call finds the executor broken.
                failures += 1
                self._replace(generation)
                if failures > self.retries:
                    self._give_up(result, failures)
                    return
                continue
            except RuntimeError as error:
                # Shut down under our feet: replaced (try the new one) or closed.
                if generation == self._generation and not self._closed:
                    result.set_exception(BotUnavailable(f"the bot workers are unusable: {error}"))
                    return
                continue
            running.add_done_callback(partial(self._finished, call, result, failures, generation))
            return

    def _finished(
        self, call: Call, result: Future[Any], failures: int, generation: int, done: Future[Any]
    ) -> None:
        try:
            self._settle(call, result, failures, generation, done)
        except Exception as error:  # a callback must not leave its future unsettled
            _fail(result, error)

    def _settle(
        self, call: Call, result: Future[Any], failures: int, generation: int, done: Future[Any]
    ) -> None:
        if done.cancelled():
            # Cancelled by a shutdown (a replacement, or close): try again or fail.
            self._attempt(call, result, failures)
            return
        error = done.exception()
        if isinstance(error, BrokenExecutor):
            self._replace(generation)
            if failures + 1 > self.retries:
                self._give_up(result, failures + 1)
            else:
                self._attempt(call, result, failures + 1)
        elif error is not None:
            result.set_exception(error)
        else:
            result.set_result(done.result())

    def _give_up(self, result: Future[Any], failures: int) -> None:
        result.set_exception(
            BotUnavailable(
                "a bot worker died during this call"
                + ("" if failures == 1 else f", {failures} times in a row"),
                {"attempts": failures},
            )
        )

    def _replace(self, generation: int) -> None:
        """Replace the executor of ``generation`` if it is still the one in use."""
        with self._lock:
            if self._closed or generation != self._generation:
                return
            broken = self._executor
            self._executor = self._make_executor()
            self._generation += 1
            now = self._generation
        broken.shutdown(wait=False, cancel_futures=True)
        log_event(None, "bot_workers_replaced", level=logging.WARNING, generation=now)

    def close(self) -> None:
        """Stop the workers; calls under way or submitted later fail with
        :class:`BotUnavailable`."""
        with self._lock:
            self._closed = True
            executor = self._executor
        executor.shutdown(wait=True, cancel_futures=True)


def _fail(result: Future[Any], error: Exception) -> None:
    if not result.done():
        result.set_exception(BotUnavailable(f"the bot workers are unusable: {error!r}"))
