"""Bots and hints for tables, computed in worker processes.

A table host hands a worker only what the seat may see: the observation as JSON and
the legal actions as text, never a game state.  The worker rebuilds the observation
with the game's own reader, asks the bot (or the hint code), and returns the action as
text with the bot's reason.  Searching bots therefore never stall the event loop or
other tables.  Workers are spawned (never forked) so that no thread, socket or database
connection of the server is copied into them, and each ends itself if the server dies;
a worker that dies is replaced (:mod:`rummykit.server.bots.worker_pool`) and the queue in
front of the workers keeps table bots ahead of hints and reviews
(:mod:`rummykit.server.bots.queue`).
"""

from __future__ import annotations

import abc
import asyncio
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

from rummykit.bots.hints import hint_seed, suggest
from rummykit.bots.levels import make_bot
from rummykit.bots.reasons import Reason
from rummykit.games.registry import game_named
from rummykit.server.bots.errors import BotBusy, BotError, BotUnavailable
from rummykit.server.bots.queue import BotQueue, Kind
from rummykit.server.bots.worker_pool import WorkerPool

__all__ = [
    "BotBusy",
    "BotError",
    "BotRunner",
    "BotService",
    "BotUnavailable",
    "decide",
    "hint",
]

T = TypeVar("T")


def decide(
    game_name: str, spec: str, observation: dict[str, Any], legal: Sequence[str], seed: int
) -> tuple[str, str]:
    """The action (text) and reason of bot ``spec`` for this observation (worker side)."""
    game = game_named(game_name)
    seen = game.observation_from_json(observation)
    actions = [game.parse_action(text) for text in legal]
    decision = make_bot(game.name, spec).decide(seen, actions, random.Random(seed))
    return game.format_action(decision.action), decision.reason.text


def hint(
    game_name: str,
    observation: dict[str, Any],
    legal: Sequence[str],
    iterations: int | None = None,
    salt: str = "",
) -> tuple[str, Reason]:
    """The hint for this observation: the strongest bot's move and reason (worker side).

    The search has ``iterations`` (by default the game's hint budget) and the seed
    :func:`~rummykit.bots.hints.hint_seed` of the observation and ``salt`` (the table's
    seed commitment), so a position always gets the same hint, and the review of that
    decision searches it alike (:mod:`rummykit.server.competition.review`)."""
    game = game_named(game_name)
    seen = game.observation_from_json(observation)
    actions = [game.parse_action(text) for text in legal]
    seed = hint_seed(observation, salt)
    decision = suggest(game.name, seen, actions, iterations=iterations, seed=seed)
    return game.format_action(decision.action), decision.reason


def _watch_server(server: int) -> None:
    while True:
        time.sleep(1.0)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os._exit(0)


def _start_worker(server: int) -> None:
    """Import the bots once (so the first decision is not slow), and end the worker if
    the server process dies (a killed server leaves no worker behind).  Ctrl-C, which a
    terminal sends to the whole process group, is left to the server: it shuts the pool
    down, and a worker that took it itself would print a ``KeyboardInterrupt``
    traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import rummykit.bots.burraco.greedy
    import rummykit.bots.ismcts
    import rummykit.bots.three_thirteen.greedy  # noqa: F401

    threading.Thread(target=_watch_server, args=(server,), daemon=True).start()


def spawn_executor(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned worker processes that end with the server, all
    started now: a pool spawns a process only when a call finds none idle, and a table
    bot should not wait for a worker's start (about a second) while a hint holds the
    only one.

    Started from the main thread, the workers are born ignoring Ctrl-C (a spawned
    process keeps an ignored SIGINT ignored), so that one pressed in the second before
    their start-up has run prints no ``KeyboardInterrupt`` of theirs."""
    executor = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )
    main = threading.current_thread() is threading.main_thread()
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        for _ in range(workers):  # each call starts its process now, inheriting SIG_IGN
            executor.submit(os.getpid)
    finally:
        if main:
            signal.signal(signal.SIGINT, handler)
    return executor


class BotService(abc.ABC):
    """What tables, hints and reviews ask of the bots, each call made of plain data and
    handed to :meth:`call`: a :class:`BotRunner` runs it in this process's own workers,
    a ``StreamBotRunner`` (``bot_stream.py``) on a site's shared bot workers."""

    async def decide(
        self,
        game: str,
        spec: str,
        observation: dict[str, Any],
        legal: Sequence[str],
        seed: int,
        *,
        owner: str | None = None,
    ) -> tuple[str, str]:
        """Bot ``spec``'s action and reason (the same for the same ``seed``), computed
        ahead of hints and reviews; ``owner`` is the player whose table it is (its
        creator; a tournament's creator for the tournament's tables), so that the
        workers are shared between players, however many tables each has.  Raises
        :class:`BotUnavailable` when the workers keep failing."""
        return await self.call(
            Kind.DECISION, owner, partial(decide, game, spec, observation, list(legal), seed)
        )

    async def hint(
        self,
        game: str,
        observation: dict[str, Any],
        legal: Sequence[str],
        iterations: int | None = None,
        salt: str = "",
        *,
        owner: str | None = None,
    ) -> tuple[str, Reason]:
        """The hint for this observation (:func:`hint`: the same for the same
        observation, ``iterations`` and ``salt``); ``owner`` is the player, who may have
        one hint pending (a second raises :class:`BotBusy` with code ``hint_pending``)."""
        return await self.call(
            Kind.HINT, owner, partial(hint, game, observation, list(legal), iterations, salt)
        )

    async def run(
        self, function: Callable[..., T], *args: Any, owner: str | None = None, **kwargs: Any
    ) -> T:
        """``function(*args, **kwargs)`` in a worker (a module-level function of plain
        data, such as the review's), behind table bots and hints; ``owner`` is the
        player, who may have one such call pending (a second raises :class:`BotBusy`
        with code ``review_pending``)."""
        return await self.call(Kind.REVIEW, owner, partial(function, *args, **kwargs))

    async def assess(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` in a worker at the lowest priority, behind every
        other call (the fair-play assessment of a finished game)."""
        return await self.call(Kind.ASSESSMENT, "fairplay", partial(function, *args, **kwargs))

    @abc.abstractmethod
    async def call(self, kind: Kind, owner: str | None, function: Callable[[], T]) -> T:
        """``function()`` in a worker, queued as ``kind`` for ``owner``."""

    @abc.abstractmethod
    def close(self) -> None: ...


class BotRunner(BotService):
    """Runs bot decisions, hints and reviews in a pool of worker processes.

    Calls go through a :class:`~rummykit.server.bots.queue.BotQueue` (table bots first,
    a fair share of the workers for each owner, one pending hint and one pending review
    per owner) to a :class:`~rummykit.server.bots.worker_pool.WorkerPool` (a dead worker is
    replaced and the calls it broke run again, up to ``retries`` times).  ``decide``
    therefore answers with the bot's own decision or raises
    :class:`~rummykit.server.bots.errors.BotUnavailable`; it never stands in a move.
    ``make_executor`` builds the executor (and its replacements): spawned processes by
    default, anything in tests.
    """

    def __init__(
        self,
        workers: int,
        *,
        retries: int = 2,
        reserved: int = 1,
        make_executor: Callable[[], Executor] | None = None,
    ) -> None:
        self.pool = WorkerPool(make_executor or partial(spawn_executor, workers), retries=retries)
        self.queue = BotQueue(self.pool, workers=workers, reserved=reserved)

    async def call(self, kind: Kind, owner: str | None, function: Callable[[], T]) -> T:
        result: T = await asyncio.wrap_future(self.queue.submit(kind, owner, function))
        return result

    def close(self) -> None:
        self.queue.close()
        self.pool.close()
