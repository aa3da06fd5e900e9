"""Benchmark: the ``greedy`` Burraco bot against itself, quick games, one core.

Plays ``games`` quick games (one hand each) of greedy against greedy with
``play_game`` and prints hands per second and decisions per second, both over the
whole games (engine included) and over the bots' own thinking time, in wall-clock and
in CPU time (the CPU figure is steadier on a busy machine).  Then plays greedy against
the random bot, seats swapped every game, and prints the greedy bot's wins.

Run: ``PYTHONPATH=src python benchmarks/bots_burraco_greedy.py [games] [first_seed]``
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from rummykit.bots.burraco.greedy import BurracoGreedyBot
from rummykit.bots.random_bot import RandomBot
from rummykit.games import burraco
from rummykit.sim.match import play_game


def _total(value: object) -> float:
    """A count or time that ``play_game`` gives per seat (a tuple) or in one number."""
    if isinstance(value, tuple):
        return float(sum(value))
    assert isinstance(value, int | float)
    return float(value)


def self_play(games: int, first_seed: int) -> None:
    bot = BurracoGreedyBot()
    rules = burraco.Rules()
    decisions = 0.0
    thinking = 0.0
    turns = 0
    ends: Counter[str] = Counter()
    wall = time.perf_counter()
    cpu = time.process_time()
    for seed in range(first_seed, first_seed + games):
        result = play_game(burraco.GAME, rules, [bot, bot], seed)
        decisions += _total(result.decisions)
        thinking += _total(result.decision_seconds)
        last = result.state.hand_results[-1]
        turns += result.state.turn
        ends[last.reason] += 1
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    print(f"greedy v greedy: {games} quick games (seeds {first_seed}..{first_seed + games - 1})")
    print(f"  hands per second:     {games / wall:7.1f} wall   {games / cpu:7.1f} cpu")
    print(f"  decisions per second: {decisions / wall:7.0f} wall   {decisions / cpu:7.0f} cpu")
    print(f"  decisions per hand:   {decisions / games:7.1f}")
    print(f"  turns per hand:       {turns / games:7.1f}")
    print(f"  bot time per decision: {thinking / decisions * 1e6:.0f} us (wall)")
    print(f"  hands ended: {', '.join(f'{reason} {n}' for reason, n in sorted(ends.items()))}")


def against_random(games: int, first_seed: int) -> None:
    greedy = BurracoGreedyBot()
    rules = burraco.Rules()
    wins = 0
    margin = 0
    for index, seed in enumerate(range(first_seed, first_seed + games)):
        seat = index % 2
        bots: list[BurracoGreedyBot | RandomBot] = [RandomBot(), RandomBot()]
        bots[seat] = greedy
        result = play_game(burraco.GAME, rules, bots, seed)
        wins += result.winners == (seat,)
        margin += result.totals[seat] - result.totals[1 - seat]
    print(f"greedy v random: greedy won {wins} of {games}, mean margin {margin / games:.0f} points")


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 100
    first_seed = int(argv[2]) if len(argv) > 2 else 1
    self_play(games, first_seed)
    against_random(min(games, 50), first_seed)


if __name__ == "__main__":
    main(sys.argv)
