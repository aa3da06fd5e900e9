"""Benchmark: iterations per second of the ``ismcts`` bot, on one core.

Three kinds of position, each from several seeded deals played forward a few moves by the
rollout policy: a Three-Thirteen decision of round 6 and of round 11 (two players), and
a Burraco decision in the middle of a quick hand.  For each, the bot searches for
``--seconds`` per decision; the figures are iterations per second of wall-clock time
(what a player waits) and of CPU time (what the search costs when the machine is busy
with other work).

    PYTHONPATH=src python benchmarks/bots_ismcts.py [--seconds 0.5] [--positions 6]

The target is at least 200 iterations per second on the Three-Thirteen round 6
decisions.  This is a measurement, not a test: it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from rummykit.bots.burraco.evaluate import BurracoSearch
from rummykit.bots.burraco.evaluate import CheapPolicy as BurracoPolicy
from rummykit.bots.ismcts import ISMCTSBot, SearchAdapter
from rummykit.bots.three_thirteen.evaluate import CheapPolicy as ThreeThirteenPolicy
from rummykit.bots.three_thirteen.evaluate import ThreeThirteenSearch
from rummykit.games import burraco, three_thirteen


def three_thirteen_positions(round_number: int, count: int) -> list[Any]:
    """States of ``round_number`` a few moves in, with a choice to make."""
    positions = []
    rules = three_thirteen.Rules(first_round=round_number, last_round=round_number)
    for seed in range(count):
        rng = random.Random(seed)
        state = three_thirteen.State.new(rules, 1000 + seed)
        policy = ThreeThirteenPolicy(rules, state.wild_rank)
        for _ in range(2 + seed % 5):
            state.apply(policy.action(state, rng))
        positions.append(state)
    return positions


def burraco_positions(count: int) -> list[Any]:
    """Quick-game Burraco states some twelve turns into the hand, with a choice."""
    positions = []
    policy = BurracoPolicy()
    for seed in range(count):
        rng = random.Random(seed)
        state = burraco.State.new(burraco.Rules(), 2000 + seed)
        while state.turn < 12 and not state.game_over:
            state.apply(policy.action(state, rng))
        if not state.game_over:
            state.apply(policy.action(state, rng))  # into a play phase, or a draw
            positions.append(state)
    return positions


def burraco_positions_at(players: int, count: int) -> list[Any]:
    """Burraco states ten turns into a hand at ``players``, with a choice to make."""
    positions = []
    policy = BurracoPolicy()
    for seed in range(count):
        rng = random.Random(seed)
        state = burraco.State.new(burraco.Rules(players=players), 5000 + seed)
        while not state.game_over and (state.turn < 10 or len(list(state.legal_actions())) < 2):
            state.apply(policy.action(state, rng))
        if not state.game_over:
            positions.append(state)
    return positions


def three_thirteen_positions_at(players: int, count: int) -> list[Any]:
    """Three-Thirteen states of round 7 a few moves in at ``players``, with a choice."""
    positions = []
    rules = three_thirteen.Rules(players=players, first_round=7, last_round=7)
    for seed in range(count):
        rng = random.Random(seed)
        state = three_thirteen.State.new(rules, 6000 + seed)
        policy = ThreeThirteenPolicy(rules, state.wild_rank)
        for _ in range(2 + seed % 5):
            state.apply(policy.action(state, rng))
        positions.append(state)
    return positions


def measure_budget(
    label: str, adapter: SearchAdapter, positions: list[Any], iterations: int
) -> None:
    """Iterations per second of searches of ``iterations`` each over ``positions``, of
    wall-clock time and of CPU time (the steadier figure on a busy machine)."""
    bot = ISMCTSBot(adapter, iterations=iterations)
    done = 0
    wall = cpu = 0.0
    for index, state in enumerate(positions):
        legal = list(state.legal_actions())
        if len(legal) < 2:
            continue
        started, started_cpu = time.perf_counter(), time.process_time()
        bot.decide(state.observation(state.current_player), legal, random.Random(index))
        wall += time.perf_counter() - started
        cpu += time.process_time() - started_cpu
        done += bot.last_iterations
    if not done:
        print(f"{label}: no decision searched")
        return
    print(
        f"{label}: {done / wall:7.0f} iterations/s wall clock,"
        f" {done / cpu:7.0f} per CPU second ({done} iterations)"
    )


def by_players(iterations: int, count: int) -> None:
    print(f"ismcts, {iterations} iterations per decision, {count} decisions each")
    for players in (2, 4):
        measure_budget(
            f"  burraco, {players} players       ",
            BurracoSearch(),
            burraco_positions_at(players, count),
            iterations,
        )
    for players in (2, 4):
        measure_budget(
            f"  three-thirteen, {players} players",
            ThreeThirteenSearch(),
            three_thirteen_positions_at(players, count),
            iterations,
        )


def measure(label: str, adapter: SearchAdapter, positions: list[Any], seconds: float) -> None:
    bot = ISMCTSBot(adapter, seconds=seconds)
    iterations = 0
    wall = cpu = 0.0
    for index, state in enumerate(positions):
        player = state.current_player
        legal = list(state.legal_actions())
        if len(legal) < 2:
            continue
        started = time.process_time()
        bot.decide(state.observation(player), legal, random.Random(index))
        cpu += time.process_time() - started
        wall += bot.last_seconds
        iterations += bot.last_iterations
    if not iterations:
        print(f"{label}: no decision to make")
        return
    print(
        f"{label}: {iterations / wall:7.0f} iterations/s wall clock,"
        f" {iterations / cpu:7.0f} per CPU second ({iterations} iterations)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="search time per decision")
    parser.add_argument("--positions", type=int, default=6, help="decisions per kind")
    parser.add_argument(
        "--by-players", action="store_true", help="both games at two and four players"
    )
    parser.add_argument(
        "--iterations", type=int, default=200, help="iterations a decision (--by-players)"
    )
    options = parser.parse_args()
    if options.by_players:
        by_players(options.iterations, options.positions)
        return
    warm = three_thirteen_positions(3, 1)
    measure("warm-up", ThreeThirteenSearch(), warm, 0.1)
    print(f"ismcts, {options.seconds} s per decision, {options.positions} decisions each")
    for round_number in (6, 11):
        measure(
            f"  three-thirteen round {round_number:2d}",
            ThreeThirteenSearch(),
            three_thirteen_positions(round_number, options.positions),
            options.seconds,
        )
    measure(
        "  burraco mid-hand       ",
        BurracoSearch(),
        burraco_positions(options.positions),
        options.seconds,
    )


if __name__ == "__main__":
    main()
