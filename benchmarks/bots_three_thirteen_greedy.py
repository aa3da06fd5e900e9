"""Benchmark: the ``greedy`` Three-Thirteen bot against itself, whole games, one core.

Plays ``games`` two-player games of all eleven rounds, greedy against greedy, with
``play_game`` and prints games and decisions per second over the whole games (engine
included), in wall-clock and in CPU time (the CPU figure is steadier on a busy
machine), the bot's own time per decision and how many solver calls a decision makes.
Then plays 50 games against the random bot (seats swapped halfway) and prints greedy's
wins.  The target is at least 25 games per second.

Run: ``PYTHONPATH=src python benchmarks/bots_three_thirteen_greedy.py [games] [first_seed]``
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rummykit.bots.random_bot import RandomBot
from rummykit.bots.three_thirteen import solver_memo
from rummykit.bots.three_thirteen.greedy import ThreeThirteenGreedyBot
from rummykit.games import three_thirteen
from rummykit.games.three_thirteen import arrange
from rummykit.sim.match import play_game


def _total(value: object) -> float:
    """A count or time that ``play_game`` gives per seat (a tuple) or in one number."""
    if isinstance(value, tuple):
        return float(sum(value))
    assert isinstance(value, int | float)
    return float(value)


def self_play(games: int, first_seed: int) -> None:
    bot = ThreeThirteenGreedyBot()
    rules = three_thirteen.Rules()
    decisions = 0.0
    thinking = 0.0
    turns = 0
    went_out = 0
    rounds = 0
    wall = time.perf_counter()
    cpu = time.process_time()
    for seed in range(first_seed, first_seed + games):
        result = play_game(three_thirteen.GAME, rules, [bot, bot], seed)
        decisions += _total(result.decisions)
        thinking += _total(result.decision_seconds)
        for outcome in result.state.hand_results:
            rounds += 1
            went_out += outcome.went_out is not None
        turns += result.actions // 2
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    last = first_seed + games - 1
    print(f"greedy v greedy: {games} games of 11 rounds, 2 players (seeds {first_seed}..{last})")
    print(f"  games per second:     {games / wall:8.1f} wall  {games / cpu:8.1f} cpu  (target 25)")
    print(f"  decisions per second: {decisions / wall:8.0f} wall  {decisions / cpu:8.0f} cpu")
    print(f"  decisions per game:   {decisions / games:8.1f}")
    print(f"  turns per game:       {turns / games:8.1f}")
    print(f"  rounds ended by going out: {went_out} of {rounds}")
    print(f"  bot time per decision: {thinking / decisions * 1e6:.0f} us (wall)")


def solver_calls(games: int, first_seed: int) -> None:
    """How many times a decision calls the solver (``deadwood`` or ``best_discards``)."""
    calls: Counter[str] = Counter()
    real = {
        "deadwood": arrange.deadwood,
        "best_discards": arrange.best_discards,
    }

    def counting(name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real[name](*args, **kwargs)

        return call

    per_decision: Counter[int] = Counter()
    bot = ThreeThirteenGreedyBot()

    class Counting:
        name = "counting greedy"

        def decide(self, observation: Any, legal: Any, rng: Any) -> Any:
            before = calls.total()
            decision = bot.decide(observation, legal, rng)
            per_decision[calls.total() - before] += 1
            return decision

    for name in real:
        setattr(solver_memo, name, counting(name))
    try:
        for seed in range(first_seed, first_seed + games):
            play_game(three_thirteen.GAME, three_thirteen.Rules(), [Counting(), Counting()], seed)
    finally:
        for name, function in real.items():
            setattr(solver_memo, name, function)
    decisions = per_decision.total()
    print(f"solver calls over {games} games ({decisions} decisions):")
    print(
        f"  per decision: mean {calls.total() / decisions:.2f}, most {max(per_decision)};"
        f" deadwood {calls['deadwood'] / decisions:.2f},"
        f" best_discards {calls['best_discards'] / decisions:.2f}"
    )
    spread = ", ".join(f"{count}: {n}" for count, n in sorted(per_decision.items()))
    print(f"  decisions by calls made: {spread}")


def against_random(games: int, first_seed: int) -> None:
    greedy = ThreeThirteenGreedyBot()
    rules = three_thirteen.Rules()
    wins = 0
    margin = 0
    for index, seed in enumerate(range(first_seed, first_seed + games)):
        seat = 0 if index < games // 2 else 1
        bots: list[ThreeThirteenGreedyBot | RandomBot] = [RandomBot(), RandomBot()]
        bots[seat] = greedy
        result = play_game(three_thirteen.GAME, rules, bots, seed)
        wins += result.winners == (seat,)
        margin += result.totals[1 - seat] - result.totals[seat]
    print(
        f"greedy v random: greedy won {wins} of {games} ({100 * wins / games:.0f}%),"
        f" mean margin {margin / games:.0f} points"
    )


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 100
    first_seed = int(argv[2]) if len(argv) > 2 else 0
    self_play(games, first_seed)
    solver_calls(min(games, 20), first_seed)
    against_random(50, 0)


if __name__ == "__main__":
    main(sys.argv)
