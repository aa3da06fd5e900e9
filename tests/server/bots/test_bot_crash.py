"""Bot workers killed with SIGKILL: the bot still makes its own decision (the same as an
undisturbed one with the same seed), and later decisions, hints and reviews work; at a
live table no stand-in move is ever played."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

import pytest

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.bots.service import BotRunner, decide
from rummykit.server.competition.review import decision_points, review_decision
from rummykit.server.table import committed_deal
from tests.kit.apps import OpenClient
from tests.kit.factories import table_body
from tests.kit.progress import table_over
from tests.kit.wait import wait_until, wait_until_async

RULES = {"first_round": 5, "last_round": 5}
SEARCH = "ismcts:iterations=300"


@pytest.fixture
def runner() -> Iterator[BotRunner]:
    runner = BotRunner(2)
    yield runner
    runner.close()


def kill_workers(runner: BotRunner) -> list[int]:
    """SIGKILL every worker process of the runner's executor now; their pids."""
    executor = runner.pool.executor
    assert isinstance(executor, ProcessPoolExecutor)
    pids = list(executor._processes)
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    return pids


def position() -> tuple[list[str], int, dict[str, Any], list[str]]:
    """Three-Thirteen after the first draw of round 5: the actions, the player to
    discard, their observation (JSON) and the legal discards."""
    game = game_named("three-thirteen")
    state = game.new_state(rules_from_json(game.rules_type, RULES), 5)
    state.apply(game.parse_action("draw"))
    seat = state.current_player
    assert seat is not None
    legal = [game.format_action(a) for a in state.legal_actions()]
    return ["draw"], seat, state.observation(seat).to_json(), legal


def test_a_worker_killed_while_it_decides(runner: BotRunner) -> None:
    actions, seat, observation, legal = position()

    async def main() -> None:
        undisturbed = await runner.decide(
            "three-thirteen", SEARCH, observation, legal, 11, owner="t1"
        )
        assert undisturbed[0] != legal[0]  # the bot's own choice, not the first legal move
        assert runner.pool.generation == 0
        deciding = asyncio.ensure_future(
            runner.decide("three-thirteen", SEARCH, observation, legal, 11, owner="t1")
        )
        # the decision handed to the warm worker, which searches
        await wait_until_async(
            lambda: runner.queue.counts()["running"] == 1, 30, what="the decision at a worker"
        )
        assert not deciding.done()
        killed = kill_workers(runner)
        assert await deciding == undisturbed
        # The search was under way in the killed pool: it ran again in a new one.
        assert runner.pool.generation == 1
        executor = runner.pool.executor
        assert isinstance(executor, ProcessPoolExecutor)
        assert not set(executor._processes) & set(killed)
        # Later decisions, hints and reviews work.
        assert await runner.decide("three-thirteen", "random", observation, legal, 3) == (
            decide("three-thirteen", "random", observation, legal, 3)
        )
        hint, _reason = await runner.hint("three-thirteen", observation, legal, 8, owner="ann")
        assert hint in legal
        points = await runner.run(
            decision_points, "three-thirteen", RULES, 5, [*actions, legal[0]], seat, owner="bob"
        )
        item = await runner.run(
            review_decision, "three-thirteen", points[-1], iterations=16, owner="bob"
        )
        assert item["played"] == legal[0] and item["simulations"] > 0
        assert runner.pool.generation == 1

    asyncio.run(main())


def test_a_live_table_plays_only_its_bots_own_moves_while_workers_are_killed(
    runner: BotRunner, open_client: OpenClient, caplog: pytest.LogCaptureFixture
) -> None:
    """A table of two searching bots plays five short rounds while every worker is killed
    three times: each stored move is the bot's own decision for that state and seed. Five
    rounds are ten moves at the least, more than the kills need (two rounds could end in
    eight, before the third kill)."""
    spec = "ismcts:iterations=40"
    caplog.set_level(logging.INFO, logger="rummykit.server")
    kills = 0
    client = open_client(runner=runner, clock=None)
    assert client.post("/api/session", json={"nickname": "host"}).status_code == 200
    rules = {"first_round": 3, "last_round": 7}
    body = table_body("three-thirteen", spec, spec, rules=rules, sit=False)
    created = client.post("/api/tables", json=body)
    assert created.status_code == 200, created.text
    table_id = created.json()["table_id"]
    stop = threading.Event()

    def moves() -> int:
        return sum("event=action" in r.getMessage() for r in list(caplog.records))

    def killed_after(count: int) -> bool:
        """Whether the test is over, or every worker was killed after ``count``
        moves (none may be alive to kill, between two pools)."""
        return stop.is_set() or (moves() >= count and bool(kill_workers(runner)))

    def killer() -> None:
        """Kill every worker, three times, each time after two more moves: the table
        goes on between kills (a call killed three times in a row would fail)."""
        nonlocal kills
        after = 2
        while kills < 3:
            wait_until(partial(killed_after, after), 300, what=f"a kill after {after} moves")
            if stop.is_set():
                return
            kills += 1
            after = moves() + 2

    thread = threading.Thread(target=killer)
    thread.start()
    try:
        table_over(client, table_id, timeout=300, interval=0.1)
    finally:
        stop.set()
        thread.join()
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert kills == 3 and runner.pool.generation >= 3
    assert not [r for r in caplog.records if "bot_failed" in r.getMessage()]
    game = game_named("three-thirteen")
    state = game.new_state(rules_from_json(game.rules_type, record["rules"]), int(record["seed"]))
    for number, text in enumerate(record["actions"]):
        mover = state.current_player
        assert mover is not None
        legal = [game.format_action(a) for a in state.legal_actions()]
        seed = committed_deal.bot_seed(record["nonce"], number, mover)
        observation = state.observation(mover).to_json()
        assert text == decide(game.name, spec, observation, legal, seed)[0], number
        state.apply(game.parse_action(text))
    assert state.game_over
