"""Write the golden games again (run by hand, after a deliberate change to the rules, the
deal procedure, the events or the observations, whose commit must say why).

    python -m tests.golden.regenerate          # the playthroughs, from the stored records
    python -m tests.golden.regenerate --play   # play the games again with the bots first
    python -m tests.golden.regenerate --only burraco-four --play   # one game only

Each golden game is a stored record (``<name>.json``, the actions the bots chose) and its
playthrough (``<name>.txt``, see :mod:`tests.golden.playthrough`).  Without ``--play``
the records are kept as they are, so the same games show what a change altered; with
it the bots play each game again from its seed and the records are written anew (for
a change that makes a stored action illegal or deals other cards).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rummykit.bots.levels import make_bot
from rummykit.games import burraco, three_thirteen
from rummykit.games.record import GameRecord, dumps, loads, record_of
from rummykit.games.registry import AnyGame
from rummykit.sim.match import play_game
from tests.golden.playthrough import playthrough

HERE = Path(__file__).resolve().parent

GOLDEN: dict[str, tuple[AnyGame, Any, int, tuple[str, ...]]] = {
    "burraco-quick": (burraco.GAME, burraco.Rules(), 101, ("greedy", "greedy")),
    "burraco-target-1005-4-jokers": (
        burraco.GAME,
        burraco.Rules(mode="target", target=1005, jokers=4),
        202,
        ("greedy", "greedy"),
    ),
    # Seat 1 takes team 1's pozzetto, seat 0 team 0's, and seat 3 closes for team 1.
    "burraco-four": (
        burraco.GAME,
        burraco.Rules(players=4),
        573,
        ("random", "random", "random", "random"),
    ),
    "three-thirteen-2": (three_thirteen.GAME, three_thirteen.Rules(), 303, ("greedy", "greedy")),
    "three-thirteen-4-variants": (
        three_thirteen.GAME,
        three_thirteen.Rules(players=4, jokers=True, ace_high=True, wild_only_melds=True),
        404,
        ("greedy", "random", "greedy", "greedy"),
    ),
}


def stored_record(name: str) -> GameRecord:
    """The record of the golden game ``name`` as stored."""
    return loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


def playthrough_text(record: GameRecord) -> str:
    return "\n".join(playthrough(record)) + "\n"


def play_again(name: str) -> GameRecord:
    """The golden game ``name`` played again by its bots from its seed."""
    game, rules, seed, levels = GOLDEN[name]
    bots = [make_bot(game.name, level) for level in levels]
    result = play_game(game, rules, bots, seed)
    return record_of(game, result.state, players=levels)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--play", action="store_true", help="play the games again first")
    parser.add_argument("--only", choices=sorted(GOLDEN), help="write this golden game only")
    arguments = parser.parse_args(argv)
    for name in GOLDEN if arguments.only is None else [arguments.only]:
        if arguments.play:
            record = play_again(name)
            (HERE / f"{name}.json").write_text(dumps(record), encoding="utf-8")
        else:
            record = stored_record(name)
        (HERE / f"{name}.txt").write_text(playthrough_text(record), encoding="utf-8")


if __name__ == "__main__":
    main()
