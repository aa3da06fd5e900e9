"""Bots and hints for tables, computed in worker processes.

A table host hands a worker only what the seat may see: the observation as JSON and
the legal actions as text, never a game state.  The worker rebuilds the observation
with the game's own reader, asks the bot (or the hint code), and returns the action as
text with the bot's reason.  Searching bots therefore never stall the event loop or
other tables.  Workers are spawned (never forked) so that no thread, socket or database
connection of the server is copied into them, and each ends itself if the server dies.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

from rummykit.bots.hints import suggest
from rummykit.bots.reasons import Reason
from rummykit.bots.registry import make_bot
from rummykit.games.registry import game_named

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
    game_name: str, observation: dict[str, Any], legal: Sequence[str], seconds: float
) -> tuple[str, Reason]:
    """The hint for this observation: the strongest bot's move and reason (worker side)."""
    game = game_named(game_name)
    seen = game.observation_from_json(observation)
    actions = [game.parse_action(text) for text in legal]
    decision = suggest(game.name, seen, actions, seconds=seconds)
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
    the server process dies (a killed server leaves no worker behind)."""
    import rummykit.bots.burraco.greedy
    import rummykit.bots.ismcts
    import rummykit.bots.three_thirteen.greedy  # noqa: F401

    threading.Thread(target=_watch_server, args=(server,), daemon=True).start()


class BotRunner:
    """Runs bot decisions and hints in a pool of worker processes."""

    def __init__(self, workers: int, executor: Executor | None = None) -> None:
        if executor is None:
            executor = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        self._executor = executor

    async def decide(
        self, game: str, spec: str, observation: dict[str, Any], legal: Sequence[str], seed: int
    ) -> tuple[str, str]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, decide, game, spec, observation, list(legal), seed
        )

    async def hint(
        self, game: str, observation: dict[str, Any], legal: Sequence[str], seconds: float
    ) -> tuple[str, Reason]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, hint, game, observation, list(legal), seconds
        )

    async def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` in a worker (a module-level function of plain
        data, such as the review's)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, partial(function, *args, **kwargs))

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
