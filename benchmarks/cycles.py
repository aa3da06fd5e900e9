"""Benchmark: do the bots go round in circles?  Longest no-progress cycle and stalemates.

For each game and each way of playing, seeded games are played and watched
(:mod:`rummykit.sim.cycles`): a position (the whole table at the start of a turn) that
comes back means the turns between changed nothing; the longest such stretch is the
longest no-progress cycle, in turns.  The script prints, per match, the games and hands
played, the longest cycle, the hands with a cycle of more than 3 turns, the share of
hands the stalemate rule ended (RULES.md 1.6 and 2.2: 200 turns) and the throwbacks:
moves a bot chose that could only go round in circles (a card taken alone from the
pile thrown back while nobody drew from the stock, :mod:`rummykit.bots.progress`).

The ways of playing:

- ``greedy``: the ``greedy`` bot in every seat;
- ``hint``: every seat plays the hint (the strongest bot, ``ismcts``, with the hint's
  search seeded from the observation as the server does, :mod:`rummykit.bots.hints`);
- ``hard``: ``ismcts`` against ``ismcts``, each on its own random numbers.

The searches get ``--iterations`` per decision, by default far fewer than a hint's
(1,200 for Burraco, 173 to 1,500 for Three-Thirteen) so that the search games fit in
about a quarter of an hour on two cores; the output says so.  Three-Thirteen's search
games play rounds 1 to ``--rounds`` (greedy plays whole games).  Burraco plays quick
games (one hand); ``--target`` plays games to that total instead.

    PYTHONPATH=src nice python benchmarks/cycles.py [--games 300] [--search-games 8]
        [--iterations 60] [--rounds 3] [--workers 2] [--only burraco] [--ways greedy,hint]

The goal: no cycle longer than 3 turns, and no more stalemates than ``greedy``'s.
This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from rummykit.bots.base import Decision
from rummykit.bots.hints import hint_seed
from rummykit.bots.levels import make_bot
from rummykit.games.registry import GAMES
from rummykit.sim.cycles import GameCycles, watch_game

LONGEST_ALLOWED = 3
"""A cycle of more turns than this is one too many."""


class HintBot:
    """Plays what the hint would say: the ``ismcts`` bot with ``iterations`` and the
    hint's seed (made of the observation, as the server's)."""

    name = "hint"

    def __init__(self, game: str, iterations: int) -> None:
        self.game = game
        self.iterations = iterations

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        del rng
        bot = make_bot(self.game, f"ismcts:iterations={self.iterations}")
        seed = hint_seed(observation.to_json(), "benchmark")
        return bot.decide(observation, legal_actions, random.Random(seed))


@dataclass(frozen=True, slots=True)
class Match:
    game: str
    way: str
    games: int
    rules: dict[str, Any]


def _play(match: Match, seed: int, iterations: int) -> GameCycles:
    game = GAMES[match.game]
    rules = game.rules_type(**match.rules)
    if match.way == "greedy":
        bots: list[Any] = [make_bot(match.game, "greedy") for _ in range(2)]
    elif match.way == "hint":
        bots = [HintBot(match.game, iterations) for _ in range(2)]
    else:
        bots = [make_bot(match.game, f"ismcts:iterations={iterations}") for _ in range(2)]
    return watch_game(game, rules, bots, seed)


def _report(match: Match, results: list[GameCycles], seconds: float, iterations: int) -> None:
    hands = [hand for result in results for hand in result.hands]
    longest = max((hand.longest_cycle for hand in hands), default=0)
    looping = [
        (result.seed, hand.hand_number, hand.longest_cycle)
        for result in results
        for hand in result.hands
        if hand.longest_cycle > LONGEST_ALLOWED
    ]
    stalemates = sum(hand.stalemate for hand in hands)
    throwbacks = sum(hand.throwbacks for hand in hands)
    budget = "" if match.way == "greedy" else f" at {iterations} iterations a decision"
    rules = ", ".join(f"{key}={value}" for key, value in match.rules.items()) or "default rules"
    print(f"{match.game:15} {match.way:6}{budget} ({rules})", flush=True)
    share = stalemates / len(hands) if hands else 0.0
    print(
        f"    {len(results)} games, {len(hands)} hands, {sum(h.turns for h in hands)} turns:"
        f" longest cycle {longest} turns; {len(looping)} hands with a cycle over"
        f" {LONGEST_ALLOWED}; stalemates {stalemates} ({share:.1%}); throwbacks"
        f" {throwbacks}; {seconds:.0f} s",
        flush=True,
    )
    for seed, hand_number, length in looping[:5]:
        print(f"      seed {seed}, hand {hand_number}: a cycle of {length} turns", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="greedy games per game")
    parser.add_argument("--search-games", type=int, default=8, help="hint and hard games")
    parser.add_argument("--iterations", type=int, default=60, help="search budget")
    parser.add_argument("--rounds", type=int, default=3, help="Three-Thirteen search rounds")
    parser.add_argument("--target", type=int, default=0, help="Burraco to this total")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--only", choices=("burraco", "three-thirteen"))
    parser.add_argument("--ways", default="greedy,hint,hard")
    options = parser.parse_args()
    burraco: dict[str, Any] = {}
    if options.target:
        burraco = {"mode": "target", "target": options.target}
    search_rounds = {"players": 2, "first_round": 1, "last_round": options.rounds}
    matches = []
    for way in options.ways.split(","):
        searching = way != "greedy"
        count = options.search_games if searching else options.games
        matches.append(Match("burraco", way, count, burraco))
        matches.append(
            Match("three-thirteen", way, count, search_rounds if searching else {"players": 2})
        )
    print(
        f"hint and hard: {options.iterations} iterations a decision (a hint searches 1,200"
        " in Burraco, 173 to 1,500 in Three-Thirteen)",
        flush=True,
    )
    with ProcessPoolExecutor(max_workers=options.workers) as pool:
        for match in matches:
            if options.only and match.game != options.only:
                continue
            started = time.perf_counter()
            seeds = range(options.seed, options.seed + match.games)
            results = list(
                pool.map(_play, [match] * len(seeds), seeds, [options.iterations] * len(seeds))
            )
            _report(match, results, time.perf_counter() - started, options.iterations)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
