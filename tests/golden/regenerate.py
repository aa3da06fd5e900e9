"""Write the golden records and their digests again (run by hand, after a deliberate
change to the rules, the deal procedure or the events, whose commit must say why).

    python -m tests.golden.regenerate
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from rummykit.bots.registry import make_bot
from rummykit.games import burraco, three_thirteen
from rummykit.games.record import dumps, record_of
from rummykit.games.registry import AnyGame
from rummykit.sim.match import play_game

HERE = Path(__file__).resolve().parent

GOLDEN: dict[str, tuple[AnyGame, Any, int, tuple[str, ...]]] = {
    "burraco-quick": (burraco.GAME, burraco.Rules(), 101, ("greedy", "greedy")),
    "burraco-target-1005-4-jokers": (
        burraco.GAME,
        burraco.Rules(mode="target", target=1005, jokers=4),
        202,
        ("greedy", "greedy"),
    ),
    "three-thirteen-2": (three_thirteen.GAME, three_thirteen.Rules(), 303, ("greedy", "greedy")),
    "three-thirteen-4-variants": (
        three_thirteen.GAME,
        three_thirteen.Rules(players=4, jokers=True, ace_high=True, wild_only_melds=True),
        404,
        ("greedy", "random", "greedy", "greedy"),
    ),
}


def digest(state: Any) -> str:
    """A fingerprint of everything a replay rebuilds: the full event log and what
    every player sees at the end."""
    hasher = hashlib.sha256()
    for event in state.events:
        hasher.update(repr(event).encode())
    for player in range(state.num_players):
        observation = json.dumps(state.observation(player).to_json(), sort_keys=True)
        hasher.update(observation.encode())
    return hasher.hexdigest()


def main() -> None:
    digests: dict[str, str] = {}
    for name, (game, rules, seed, levels) in GOLDEN.items():
        bots = [make_bot(game.name, level) for level in levels]
        result = play_game(game, rules, bots, seed)
        (HERE / f"{name}.json").write_text(dumps(record_of(game, result.state, players=levels)))
        digests[name] = digest(result.state)
    (HERE / "digests.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
