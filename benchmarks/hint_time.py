"""How long one hint takes: the processor time of the server's hint search (prints
figures; not a test).

    python benchmarks/hint_time.py               # about 20 positions of each game
    python benchmarks/hint_time.py --positions 40

The positions are the decisions of the recorded games of ``tests/golden`` (Burraco quick
and to 1,005; Three-Thirteen with two players) and of a Three-Thirteen game of four
``greedy`` bots, taken at even steps.  Each hint is what a bot worker does for the
table's WebSocket ``hint``: the seat's observation as JSON, the game's own budget of
iterations, the seed of :func:`rummykit.bots.hints.hint_seed`
(``rummykit.server.bots.service.hint``).  A position with one legal move costs no search and is
skipped.  Each hint is timed alone with ``time.process_time`` (one core's work, whatever
else the machine is doing), after one warm-up hint.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rummykit.bots.by_game import bots_for
from rummykit.bots.levels import make_bot
from rummykit.games.core import rules_from_json
from rummykit.games.record import loads
from rummykit.games.registry import game_named
from rummykit.server.bots.service import hint

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
RECORDS = ("burraco-quick", "burraco-target-1005-4-jokers", "three-thirteen-2")


def recorded_states(name: str) -> tuple[str, list[Any]]:
    """The game of a recorded game and its state before each of its actions."""
    record = loads((GOLDEN / f"{name}.json").read_text())
    game = game_named(record.game)
    state = game.new_state(record.rules, record.seed)
    states = []
    for text in record.actions:
        states.append(state.clone())
        state.apply(game.parse_action(text))
    return game.name, states


def four_player_states(seed: int) -> tuple[str, list[Any]]:
    """A Three-Thirteen game of four greedy bots and its state before each action."""
    game = game_named("three-thirteen")
    rules = rules_from_json(game.rules_type, {"players": 4})
    state = game.new_state(rules, seed)
    bots = [make_bot(game.name, "greedy") for _ in range(4)]
    rng = random.Random(seed)
    states = []
    while not state.game_over:
        states.append(state.clone())
        player = state.current_player
        legal = list(state.legal_actions())
        state.apply(bots[player].decide(state.observation(player), legal, rng).action)
    return game.name, states


def positions(states: list[Any], count: int) -> Iterator[Any]:
    """``count`` states at even steps, each with a choice of moves."""
    chosen = [s for s in states if len(list(s.legal_actions())) > 1]
    step = max(1, len(chosen) // count)
    yield from chosen[::step][:count]


def time_hint(game_name: str, state: Any) -> tuple[float, int]:
    """One hint's processor time (seconds) at ``state``, and its budget of iterations."""
    game = game_named(game_name)
    player = state.current_player
    observation = state.observation(player)
    seen = observation.to_json()
    legal = [game.format_action(a) for a in state.legal_actions()]
    started = time.process_time()
    hint(game_name, seen, legal, salt="benchmark")
    return time.process_time() - started, bots_for(game_name).hint_iterations(observation)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20, help="positions of each game")
    args = parser.parse_args()
    games = [(name, *recorded_states(name)) for name in RECORDS]
    games.append(("three-thirteen, 4 greedy bots (seed 11)", *four_player_states(11)))
    print(f"{'game':42} {'hints':>5} {'iterations':>12} {'median s':>9} {'max s':>7}")
    for label, game_name, states in games:
        picked = list(positions(states, args.positions))
        time_hint(game_name, picked[0])  # warm-up: imports, tables filled lazily
        times, budgets = zip(*(time_hint(game_name, s) for s in picked), strict=True)
        spread = f"{min(budgets)}-{max(budgets)}" if min(budgets) != max(budgets) else budgets[0]
        print(
            f"{label:42} {len(times):>5} {spread!s:>12} "
            f"{statistics.median(times):>9.2f} {max(times):>7.2f}"
        )


if __name__ == "__main__":
    main()
