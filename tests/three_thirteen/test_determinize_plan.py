"""Determinization remembers the last observation's plan: never a stale one.

Both games' ``determinize`` work out once per observation object what every
determinization of it shares; here observations of several positions (and equal
copies of one, which are other objects) are determinized in turn, over and over, and
every state must show its own observation, the same seed must give the same state
whatever came between, and an impossible observation is still refused after a good one.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from rummykit.games import burraco, three_thirteen


def observations_of(game: Any, rules: Any, seed: int) -> list[Any]:
    """Observations of every player at positions of one random game."""
    rng = random.Random(seed)
    state = game.State.new(rules, seed)
    found: list[Any] = []
    for step in range(160):
        if state.game_over:
            break
        if step % 23 == 0:
            found.extend(state.observation(player) for player in range(state.num_players))
        state.apply(rng.choice(list(state.legal_actions())))
    return found


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        (three_thirteen, three_thirteen.Rules(players=3)),
        (three_thirteen, three_thirteen.Rules(players=2, first_round=11)),
        (burraco, burraco.Rules()),
    ],
    ids=["tt3", "tt2-round-11", "burraco"],
)
def test_interleaved_observations_each_get_their_own_state(game: Any, rules: Any) -> None:
    seen = observations_of(game, rules, 8)
    assert len(seen) >= 8
    rng = random.Random(1)
    first: dict[tuple[int, int], Any] = {}
    for _ in range(300):
        index = rng.randrange(len(seen))
        observation = seen[index]
        if rng.random() < 0.3:
            observation = dataclasses.replace(observation)  # equal, another object
        seed = rng.randrange(4)
        state = game.determinize(observation, seed)
        assert state.observation(observation.player) == observation
        locations = state.locations()
        assert first.setdefault((index, seed), locations) == locations


def test_an_impossible_observation_is_refused_after_a_good_one() -> None:
    state = three_thirteen.State.new(three_thirteen.Rules(), 3)
    good = state.observation(0)
    three_thirteen.determinize(good, 1)
    bad = dataclasses.replace(good, stock_count=good.stock_count + 1)
    with pytest.raises(ValueError):
        three_thirteen.determinize(bad, 1)
    three_thirteen.determinize(good, 1)
    table = burraco.State.new(burraco.Rules(), 3)
    fine = table.observation(1)
    burraco.determinize(fine, 1)
    with pytest.raises(ValueError):
        burraco.determinize(dataclasses.replace(fine, stock_count=fine.stock_count - 1), 1)
