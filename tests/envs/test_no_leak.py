"""No leak: twin states that differ only in cards a player cannot see give that player
the same observation vector (the engine's ``shuffle_hidden`` makes the twins)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from rummykit.envs import burraco_encoding, three_thirteen_encoding
from rummykit.envs.burraco_actions import BurracoSteps
from rummykit.envs.steps import StepModel
from rummykit.envs.three_thirteen_actions import ThreeThirteenSteps
from rummykit.games import burraco, three_thirteen


def twin_vectors(model: StepModel, player: int, seed: int) -> tuple[Any, Any, bool]:
    """The player's vector from the model (with its caches) and from a fresh model of a
    twin whose hidden cards were shuffled; and whether the shuffle moved any card."""
    twin_state = model.state.clone()
    twin_state.shuffle_hidden(player, seed)
    moved = twin_state.locations() != model.state.locations()
    if isinstance(model, BurracoSteps):
        chosen = model.pending if player == model.current_player else ()
        twin = burraco_encoding.encode(twin_state.observation(player), chosen)
    else:
        twin = three_thirteen_encoding.encode(twin_state.observation(player))
    return model.encode(player), twin, moved


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: ThreeThirteenSteps.new(three_thirteen.Rules(players=2), seed),
        lambda seed: ThreeThirteenSteps.new(three_thirteen.Rules(players=4, jokers=True), seed),
        lambda seed: BurracoSteps.new(burraco.Rules(), seed),
        lambda seed: BurracoSteps.new(burraco.Rules(jokers=4, mode="target", target=505), seed),
        lambda seed: BurracoSteps.new(burraco.Rules(players=4), seed),
    ],
    ids=["tt2", "tt4-jokers", "burraco", "burraco-target", "burraco-four"],
)
def test_hidden_cards_do_not_change_the_vector(make: Any) -> None:
    rng = random.Random(21)
    checks = moved = 0
    for game in range(3):
        model = make(game)
        step = 0
        while model.current_player is not None and step < 1200:
            if step % 5 == 0:
                for player in range(model.num_players):
                    mine, twin, changed = twin_vectors(model, player, rng.randrange(2**32))
                    assert np.array_equal(mine, twin), "the vector shows a hidden card"
                    checks += 1
                    moved += changed
            legal = model.legal_ids()
            model.step(legal[rng.randrange(len(legal))])
            step += 1
    assert checks > 300
    assert moved > checks // 2  # the twins really differed
