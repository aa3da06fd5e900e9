"""Benchmark: random masked play through the PettingZoo AEC environments, on one core.

For each game, plays whole games by the agent loop a learner uses (``env.last()``,
a uniformly random id among those the mask allows, ``env.step``) and prints the mean
time per step, observation vector and mask included.  For scale it also times the
engine alone on the same deals (``legal_actions()`` and ``apply`` of a random legal
action), and prints the ratio.  Times are the process's CPU time
(``time.process_time``), so other work on a shared machine disturbs them less than
wall-clock time would; the ratio is the steadier figure.

The targets (at most 30 us a step in Three-Thirteen, 50 us in Burraco) were set on a
machine where the engine alone took about 7 and 14 us an action.  Each case prints its
ratio beside two references: the ratio the targets make on that machine (30 / 7, 50 /
14), and the ratio that would meet the absolute target at the engine speed of this run.

    PYTHONPATH=src python benchmarks/envs_aec.py [--seconds S] [--game GAME] [--all]

``--all`` also times the other seatings and decks (Three-Thirteen with 3 and 4 players,
Burraco with four jokers); the targets were set for the first two cases only.

This is a measurement, not a test: it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, NamedTuple

from rummykit.envs import burraco_v0, three_thirteen_v0
from rummykit.games import burraco, three_thirteen


class Case(NamedTuple):
    title: str
    game: str
    module: Any
    engine: Any
    options: dict[str, Any]  # rule options, for the env and the engine alike
    target_us: float  # the most a step may take
    reference_engine_us: float  # the engine alone where the target was set


def three_thirteen_case(players: int) -> Case:
    title = f"three-thirteen, {players} players"
    options = {"players": players}
    return Case(title, "three-thirteen", three_thirteen_v0, three_thirteen, options, 30.0, 7.0)


def burraco_case(jokers: int) -> Case:
    title = "burraco, quick" + ("" if jokers == 2 else f", {jokers} jokers")
    return Case(title, "burraco", burraco_v0, burraco, {"jokers": jokers}, 50.0, 14.0)


CASES = (three_thirteen_case(2), burraco_case(2))
MORE_CASES = (three_thirteen_case(3), three_thirteen_case(4), burraco_case(4))


def env_game(env: Any, seed: int, rng: random.Random) -> tuple[int, float]:
    """One game through the AEC env: (steps, seconds)."""
    env.reset(seed=seed)
    steps = 0
    start = time.process_time()
    for _agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0].tolist()
        env.step(legal[rng.randrange(len(legal))])
        steps += 1
    return steps, time.process_time() - start


def engine_game(game: Any, rules: Any, seed: int, rng: random.Random) -> tuple[int, float]:
    """The engine alone on the same deal: (actions, seconds)."""
    actions = 0
    start = time.process_time()
    state = game.State.new(rules, seed)
    while not state.game_over:
        legal = list(state.legal_actions())
        state.apply(legal[rng.randrange(len(legal))])
        actions += 1
    return actions, time.process_time() - start


def measure(case: Case, seconds: float, seed: int) -> list[float]:
    """Alternate a game through the env and one of the engine alone on the same deal
    (so both see the same load) for about ``seconds``; (games, steps, env seconds,
    engine actions, engine seconds)."""
    env = case.module.env(**case.options)
    rules = case.engine.Rules(**case.options)
    rng = random.Random(seed)
    totals = [0.0] * 5
    while totals[2] + totals[4] < seconds:
        deal = seed + int(totals[0])
        steps, env_seconds = env_game(env, deal, rng)
        actions, engine_seconds = engine_game(case.engine, rules, deal, rng)
        for index, value in enumerate((1, steps, env_seconds, actions, engine_seconds)):
            totals[index] += value
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="per game")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--game", choices=[case.game for case in CASES], help="only this game")
    parser.add_argument("--all", action="store_true", help="also 3 and 4 players, four jokers")
    options = parser.parse_args()
    for case in CASES + (MORE_CASES if options.all else ()):
        if options.game not in (None, case.game):
            continue
        measure(case, 0.5, options.seed + 50_000)  # warm up
        games, steps, elapsed, actions, engine_elapsed = measure(
            case, options.seconds, options.seed
        )
        per_step = elapsed / steps * 1e6
        per_action = engine_elapsed / actions * 1e6
        ratio = per_step / per_action
        print(f"{case.title}: AEC env, random masked play, {games:.0f} games, {steps:.0f} steps")
        print(f"  mean per env step: {per_step:.1f} us (target: at most {case.target_us:.0f} us)")
        print(
            f"  engine alone, same deals: {per_action:.1f} us an action ({actions:.0f} actions;"
            f" {case.reference_engine_us:.0f} us where the target was set)"
        )
        print(f"  env step / engine action: {ratio:.2f}")
        print(
            f"    target ratio where it was set: {case.target_us / case.reference_engine_us:.2f}"
            f" ({case.target_us:.0f} / {case.reference_engine_us:.0f});"
            f" to step in {case.target_us:.0f} us at this run's engine speed:"
            f" {case.target_us / per_action:.2f}"
        )


if __name__ == "__main__":
    main()
