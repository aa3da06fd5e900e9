"""Benchmark: random legal Burraco play, engine only, one core, two and four players.

Each step lists ``legal_actions()`` (which finds every legal meld), picks one with a
seeded ``random.Random`` and applies it.  Prints, for two players and for four (two
partnerships), the mean time per action (wall clock, and the processor time, which a
busy machine disturbs less) and whole quick games (one hand each) per second, the ratio
of the two processor times per action (the aim: four players at most 1.3 times two),
and the time of a ``clone()`` 120 and 5,000 actions into a game.

Run: ``PYTHONPATH=src python benchmarks/burraco_engine.py [games] [seed]``
"""

from __future__ import annotations

import random
import sys
import time

from rummykit.games.burraco import Rules, State


def play(games: int, seed: int, players: int = 2) -> tuple[int, float, float]:
    """Play ``games`` random quick games of ``players``; returns (actions applied,
    seconds, processor seconds)."""
    rules = Rules(players=players)
    actions = 0
    rng = random.Random(seed)
    start = time.perf_counter()
    processor = time.process_time()
    for game in range(games):
        state = State.new(rules, seed + game)
        while not state.game_over:
            state.apply(rng.choice(list(state.legal_actions())))
            actions += 1
    return actions, time.perf_counter() - start, time.process_time() - processor


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
    per_action: dict[int, float] = {}
    for players in (2, 4):
        actions, seconds, processor = play(games, seed, players)
        per_action[players] = processor / actions
        print(f"Burraco random legal play, {players} players: {games} quick games,", end="")
        print(f" {actions} actions")
        print(f"  mean per action: {seconds / actions * 1e6:.1f} us")
        print(f"  processor time per action: {processor / actions * 1e6:.1f} us")
        print(f"  games per second: {games / seconds:.1f}")
        print(f"  actions per game: {actions / games:.0f}")
    ratio = per_action[4] / per_action[2]
    print(f"four players / two players, processor time per action: {ratio:.2f}")
    print(f"  clone: {time_clone(20_000, seed) * 1e6:.1f} us")
    print(f"  clone after 5,000 actions: {time_clone(20_000, seed, 5_000) * 1e6:.1f} us")


if __name__ == "__main__":
    main(sys.argv)
