"""Benchmark: random legal Three-Thirteen play, engine only, on one core.

Lists ``legal_actions()`` (which runs the going-out check in every discard phase), picks
one with ``random.Random(seed)`` and applies it, game after game, two players, all
eleven rounds.  Prints the mean time per action and whole games and rounds per second.

    PYTHONPATH=src python benchmarks/three_thirteen_engine.py [--games N] [--players P]

This is a measurement, not a test: it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import random
import time

from rummykit.games.three_thirteen import Rules, State


def play(games: int, players: int, seed: int) -> tuple[int, int, float]:
    """Play ``games`` random games; return actions, rounds and seconds spent."""
    rng = random.Random(seed)
    rules = Rules(players=players)
    actions = rounds = 0
    elapsed = 0.0
    for game in range(games):
        start = time.perf_counter()
        state = State.new(rules, seed + game)
        while not state.game_over:
            state.apply(rng.choice(list(state.legal_actions())))
            actions += 1
        elapsed += time.perf_counter() - start
        rounds += len(state.hand_results)
    return actions, rounds, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    options = parser.parse_args()
    play(2, options.players, options.seed + 10_000)  # warm up caches and imports
    actions, rounds, elapsed = play(options.games, options.players, options.seed)
    print(f"three-thirteen engine, {options.players} players, random legal play")
    print(f"  games: {options.games}, rounds: {rounds}, actions: {actions}")
    print(f"  mean per action: {elapsed / actions * 1e6:.1f} us (legal_actions + apply)")
    print(f"  actions per game: {actions / options.games:.0f}")
    print(f"  games per second: {options.games / elapsed:.2f}")
    print(f"  rounds per second: {rounds / elapsed:.1f}")


if __name__ == "__main__":
    main()
