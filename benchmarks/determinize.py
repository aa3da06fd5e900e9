"""Benchmark: determinization against OpenSpiel's gin rummy ``resample_from_infostate``.

Information-set search (``ismcts``, and OpenSpiel's ISMCTS through the OpenSpiel games)
deals a full state from the searching player's observation at every iteration.  This
times, on one core and in the same run, our ``determinize(observation, seed)``:

- Three-Thirteen, two players, a decision in round 6 and in round 11, and four players
  in round 11;
- Burraco, a quick hand some twelve turns in;

and OpenSpiel's ``resample_from_infostate(player, sampler)`` on gin rummy (C++) some
ten to thirty moves into a hand: the same service for a game of the same family.  Each
case cycles over several positions, as a search does: many determinizations of one
observation (the first of each is timed apart, as "first call").  The cases take turns
in short blocks, so that a change of the machine's speed touches them alike; the figure
is the median block's CPU time (``time.process_time``) per call, with the fastest and
slowest block beside it.

    PYTHONPATH=src python benchmarks/determinize.py [--seconds 6] [--positions 6]

Needs the ``openspiel`` extra (``pip install -e '.[test]'`` installs it) for the gin
rummy figure; without it only ours are printed.  This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bots_ismcts import burraco_positions, three_thirteen_positions
from rummykit.games import burraco, three_thirteen

BLOCK = 100  # calls per timed block


def our_case(game: Any, states: list[Any]) -> tuple[Callable[[int], None], Callable[[], float]]:
    """Calls of ``game.determinize`` cycling over the positions' observations, and a
    timer of a first call (a new observation object each time)."""
    observations = [state.observation(state.current_player) for state in states]

    def call(index: int) -> None:
        game.determinize(observations[index // BLOCK % len(observations)], index)

    def first() -> float:
        state = states[random.randrange(len(states))]
        observation = state.observation(state.current_player)
        started = time.process_time()
        game.determinize(observation, 1)
        return time.process_time() - started

    return call, first


def gin_rummy_case(
    count: int,
) -> tuple[Callable[[int], None], Callable[[], float]] | None:
    """OpenSpiel's gin rummy ``resample_from_infostate`` over ``count`` positions."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    states = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_initial_state()
        moves = 10 + 4 * seed % 21
        while not state.is_terminal() and moves > 0:
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves -= 1
        if not state.is_terminal() and not state.is_chance_node():
            states.append(state)
    sampler = random.Random(0).random

    def call(index: int) -> None:
        state = states[index // BLOCK % len(states)]
        state.resample_from_infostate(state.current_player(), sampler)

    def first() -> float:
        state = states[random.randrange(len(states))].clone()
        started = time.process_time()
        state.resample_from_infostate(state.current_player(), sampler)
        return time.process_time() - started

    return call, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="in all, per case")
    parser.add_argument("--positions", type=int, default=6, help="positions per case")
    options = parser.parse_args()
    count = options.positions
    cases: dict[str, tuple[Callable[[int], None], Callable[[], float]]] = {
        "three-thirteen round 6, 2 players": our_case(
            three_thirteen, three_thirteen_positions(6, count)
        ),
        "three-thirteen round 11, 2 players": our_case(
            three_thirteen, three_thirteen_positions(11, count)
        ),
        "three-thirteen round 11, 4 players": our_case(
            three_thirteen, four_player_positions(count)
        ),
        "burraco, quick, mid-hand": our_case(burraco, burraco_positions(count)),
    }
    gin = gin_rummy_case(count)
    if gin is None:
        print("open_spiel is not installed: no gin rummy figure")
    else:
        cases["OpenSpiel gin rummy resample_from_infostate"] = gin
    blocks: dict[str, list[float]] = {name: [] for name in cases}
    firsts: dict[str, list[float]] = {name: [] for name in cases}
    spent = 0.0
    index = 0
    while spent < options.seconds * len(cases):
        for name, (call, first) in cases.items():
            started = time.process_time()
            for offset in range(BLOCK):
                call(index + offset)
            elapsed = time.process_time() - started
            blocks[name].append(elapsed / BLOCK)
            firsts[name].append(first())
            spent += elapsed
        index += BLOCK
    width = max(len(name) for name in cases)
    print(f"per call, CPU time; median block [fastest, slowest]; {len(blocks[name])} blocks")
    for name in cases:
        times = [t * 1e6 for t in blocks[name]]
        median = statistics.median(times)
        first_call = statistics.median(firsts[name]) * 1e6
        print(
            f"  {name:{width}s}  {median:6.1f} us [{min(times):5.1f}, {max(times):6.1f}]"
            f"   first call {first_call:6.1f} us"
        )


def four_player_positions(count: int) -> list[Any]:
    """Four-player Three-Thirteen states of round 11, a few moves in."""
    rules = three_thirteen.Rules(players=4, first_round=11, last_round=11)
    positions = []
    for seed in range(count):
        rng = random.Random(seed)
        state = three_thirteen.State.new(rules, 3000 + seed)
        for _ in range(3 + seed % 6):
            state.apply(rng.choice(list(state.legal_actions())))
        positions.append(state)
    return positions


if __name__ == "__main__":
    main()
