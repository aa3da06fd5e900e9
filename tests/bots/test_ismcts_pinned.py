"""The Hard bot's search chooses the same moves for a given deal, seed and iteration
budget: the chosen move and each root action's summed rollout rewards are pinned for a
few positions of both games at two and four players, so that a change meant only to
make the search faster shows here if it changes what the search sees."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummykit.bots.burraco.evaluate import BurracoSearch
from rummykit.bots.burraco.evaluate import CheapPolicy as BurracoPolicy
from rummykit.bots.ismcts import ISMCTSBot, SearchAdapter
from rummykit.bots.three_thirteen.evaluate import CheapPolicy as ThreeThirteenPolicy
from rummykit.bots.three_thirteen.evaluate import ThreeThirteenSearch
from rummykit.games import burraco, three_thirteen


def burraco_position(players: int, seed: int) -> Any:
    """A Burraco state ten turns into a hand, played by the rollout policy: in the
    ``play`` phase for an even ``seed``, else in the ``draw`` phase."""
    rng = random.Random(seed)
    state = burraco.State.new(burraco.Rules(players=players), 3000 + seed)
    policy = BurracoPolicy()
    phase = "play" if seed % 2 == 0 else "draw"
    while state.turn < 10 or state.phase != phase or len(list(state.legal_actions())) < 2:
        state.apply(policy.action(state, rng))
    return state


def three_thirteen_position(players: int, seed: int) -> Any:
    """A Three-Thirteen state of round 7 a few moves in, played by the rollout policy."""
    rng = random.Random(seed)
    rules = three_thirteen.Rules(players=players, first_round=7, last_round=7)
    state = three_thirteen.State.new(rules, 4000 + seed)
    policy = ThreeThirteenPolicy(rules, state.wild_rank)
    for _ in range(3 + seed % 4):
        state.apply(policy.action(state, rng))
    while len(list(state.legal_actions())) < 2:
        state.apply(policy.action(state, rng))
    return state


def searched(
    adapter: SearchAdapter, state: Any, seed: int, iterations: int
) -> tuple[str, list[float]]:
    """The move chosen and, sorted, the summed rewards of each root action (its paired
    rounds', or its tree node's when the search is not paired; none when it did not
    search)."""
    bot = ISMCTSBot(adapter, iterations=iterations)
    player = state.current_player
    legal = list(state.legal_actions())
    decision = bot.decide(state.observation(player), legal, random.Random(seed))
    if bot.last_rounds:
        totals = [sum(rewards) for rewards in bot.last_rounds.values()]
    elif bot.last_root is not None:
        totals = [child.reward for child in bot.last_root.children.values()]
    else:  # one candidate: the guide's move, not searched
        totals = []
    return repr(decision.action), sorted(round(total, 6) for total in totals)


def position(game: str, players: int, seed: int) -> tuple[SearchAdapter, Any]:
    if game == "burraco":
        return BurracoSearch(), burraco_position(players, seed)
    return ThreeThirteenSearch(), three_thirteen_position(players, seed)


PINNED: list[tuple[str, int, int, int, str, list[float]]] = [
    ("burraco", 2, 1, 60, "DrawStock()", [-1.270833, -0.075]),
    ("burraco", 2, 2, 120, "Meld(cards=(17, 30, 43))", []),
    ("burraco", 2, 3, 200, "DrawStock()", [-18.033333, -6.416667]),
    (
        "burraco",
        2,
        4,
        150,
        "Discard(card=37)",
        [
            -8.595833,
            -8.225,
            -8.208333,
            -8.2,
            -8.116667,
            -8.116667,
            -8.0875,
            -8.070833,
            -7.958333,
            -7.895833,
        ],
    ),
    ("burraco", 4, 1, 60, "TakePile()", [-1.654167, 1.808333]),
    ("burraco", 4, 2, 120, "Extend(meld_id=3, cards=(25,))", [0.152778, 0.152778]),
    ("burraco", 4, 3, 200, "TakePile()", [34.525, 49.351389]),
    (
        "burraco",
        4,
        4,
        150,
        "Meld(cards=(40, 41, 42))",
        [
            -2.793056,
            -2.456944,
            -2.430556,
            -2.355556,
            -2.133333,
            -1.720833,
            -1.618056,
            -1.563889,
            -1.011111,
        ],
    ),
    ("three_thirteen", 2, 1, 60, "DrawStock()", [1.333333, 2.088889]),
    ("three_thirteen", 2, 2, 120, "Discard(card=20)", [4.6, 5.133333, 5.377778, 6.066667, 7.6]),
    ("three_thirteen", 2, 3, 200, "DrawStock()", [-7.688889, -4.666667]),
    (
        "three_thirteen",
        2,
        4,
        150,
        "Discard(card=49)",
        [-12.022222, -11.844444, -11.466667, -10.088889, -9.666667],
    ),
    ("three_thirteen", 4, 1, 60, "TakeDiscard()", [-7.637037, -1.577778]),
    ("three_thirteen", 4, 2, 120, "Discard(card=37)", [-2.925926, -2.77037, -1.459259, -1.444444]),
    ("three_thirteen", 4, 3, 200, "DrawStock()", [-32.17037, -16.392593]),
    ("three_thirteen", 4, 4, 150, "Discard(card=46)", [11.985185, 12.925926]),
]
"""(game, players, seed, iterations, move chosen, sorted summed rewards of the root
actions): the search's answers before it was made faster."""


@pytest.mark.parametrize(
    ("game", "players", "seed", "iterations", "move", "totals"),
    PINNED,
    ids=[
        f"{game}-{players}-seed{seed}-{iterations}"
        for game, players, seed, iterations, *_ in PINNED
    ],
)
def test_search_answers_are_pinned(
    game: str, players: int, seed: int, iterations: int, move: str, totals: list[float]
) -> None:
    adapter, state = position(game, players, seed)
    assert searched(adapter, state, seed, iterations) == (move, totals)
