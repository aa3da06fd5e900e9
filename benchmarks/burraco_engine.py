"""Benchmark: random legal Burraco play, engine only, one core, two players.

Each step lists ``legal_actions()`` (which finds every legal meld), picks one with a
seeded ``random.Random`` and applies it.  Prints the mean time per action and whole
quick games (one hand each) per second, and the time of a ``clone()`` 120 and 5,000
actions into a game.

Run: ``PYTHONPATH=src python benchmarks/burraco_engine.py [games] [seed]``
"""

from __future__ import annotations

import random
import sys
import time

from rummykit.games.burraco import Rules, State


def play(games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` random quick games; returns (actions applied, seconds)."""
    rules = Rules()
    actions = 0
    rng = random.Random(seed)
    start = time.perf_counter()
    for game in range(games):
        state = State.new(rules, seed + game)
        while not state.game_over:
            state.apply(rng.choice(list(state.legal_actions())))
            actions += 1
    return actions, time.perf_counter() - start


def time_clone(samples: int, seed: int, history: int = 120) -> float:
    """Mean seconds per ``clone()`` of a state ``history`` random actions into a target
    game no one reaches (a clone costs the position, not the history: compare)."""
    rng = random.Random(seed)
    state = State.new(Rules(mode="target", target=1_000_000), seed)
    for _ in range(history):
        state.apply(rng.choice(list(state.legal_actions())))
    start = time.perf_counter()
    for _ in range(samples):
        state.clone()
    return (time.perf_counter() - start) / samples


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 200
    seed = int(argv[2]) if len(argv) > 2 else 1
    actions, seconds = play(games, seed)
    print(f"Burraco random legal play: {games} quick games, {actions} actions")
    print(f"  mean per action: {seconds / actions * 1e6:.1f} us")
    print(f"  games per second: {games / seconds:.1f}")
    print(f"  actions per game: {actions / games:.0f}")
    print(f"  clone: {time_clone(20_000, seed) * 1e6:.1f} us")
    print(f"  clone after 5,000 actions: {time_clone(20_000, seed, 5_000) * 1e6:.1f} us")


if __name__ == "__main__":
    main(sys.argv)
