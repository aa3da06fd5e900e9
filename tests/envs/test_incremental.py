"""The kept vectors: an encoder that rewrites only what changed gives, at every step,
exactly the vector encoded from scratch from the engine's full observation, also when it
is handed positions out of order (an earlier position, another game)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

from rummykit.envs import burraco_encoding, burraco_v0, three_thirteen_encoding, three_thirteen_v0
from rummykit.envs.burraco_actions import BurracoSteps
from rummykit.envs.three_thirteen_actions import ThreeThirteenSteps
from rummykit.games import burraco, three_thirteen


def tt_kept(
    encoder: three_thirteen_encoding.Encoder,
    state: three_thirteen.State,
    seat: int,
    rng: random.Random,
) -> Any:
    """The kept vector of ``seat``, handed the full observation, the view or the table
    parts at random: whichever, the same vector."""
    given = rng.randrange(3)
    if given == 0:
        return encoder.encode(state.observation(seat))
    if given == 1:
        return encoder.encode(state.player_view(seat))
    return encoder.encode_parts(state.table_parts(seat))


@pytest.mark.parametrize(
    "rules",
    [
        three_thirteen.Rules(players=2),
        three_thirteen.Rules(players=3, jokers=True),
        three_thirteen.Rules(players=4, ace_high=True, first_round=8),
    ],
    ids=["tt2", "tt3-jokers", "tt4-late"],
)
def test_three_thirteen_kept_vectors_equal_fresh_ones(rules: three_thirteen.Rules) -> None:
    rng = random.Random(3)
    players = rules.players
    # One encoder per seat kept over every game, also fed earlier positions.
    wanderers = [three_thirteen_encoding.Encoder(players, seat) for seat in range(players)]
    saved: list[Any] = []
    steps = 0
    game = 0
    while steps < 4000:
        model = ThreeThirteenSteps.new(rules, game)
        game += 1
        while True:
            state = model.state
            for seat in range(players):
                fresh = three_thirteen_encoding.encode(state.observation(seat))
                assert np.array_equal(model.encode(seat), fresh)
                assert np.array_equal(tt_kept(wanderers[seat], state, seat, rng), fresh)
            if rng.random() < 0.05:
                saved.append(state.clone())
            if saved and rng.random() < 0.05:
                earlier = saved[rng.randrange(len(saved))]
                seat = rng.randrange(players)
                fresh = three_thirteen_encoding.encode(earlier.observation(seat))
                assert np.array_equal(tt_kept(wanderers[seat], earlier, seat, rng), fresh)
            if model.current_player is None:
                break
            legal = model.legal_ids()
            model.step(legal[rng.randrange(len(legal))])
            steps += 1
    assert game > 1  # positions of several games went through the same encoders


def burraco_kept(
    encoder: burraco_encoding.Encoder,
    state: burraco.State,
    seat: int,
    chosen: tuple[int, ...],
    rng: random.Random,
) -> Any:
    """The kept vector of ``seat`` with ``chosen``, handed the full observation, the view
    or the table parts at random: whichever, the same vector."""
    given = rng.randrange(3)
    if given == 0:
        return encoder.encode(state.observation(seat), chosen)
    if given == 1:
        return encoder.encode(state.player_view(seat), chosen)
    return encoder.encode_parts(state.table_parts(seat), chosen)


@pytest.mark.parametrize(
    "rules",
    [
        burraco.Rules(),
        burraco.Rules(jokers=4, mode="target", target=505, one_set_per_rank=False),
        burraco.Rules(players=4, mode="target", target=505),
    ],
    ids=["burraco", "burraco-target", "burraco-four"],
)
def test_burraco_kept_vectors_equal_fresh_ones(rules: burraco.Rules) -> None:
    rng = random.Random(4)
    seats = rules.players
    wanderers = [burraco_encoding.Encoder(seat, seats) for seat in range(seats)]
    saved: list[tuple[Any, tuple[int, ...]]] = []
    steps = 0
    game = 0
    while steps < 4000:
        model = BurracoSteps.new(rules, game)
        game += 1
        while True:
            state = model.state
            for seat in range(seats):
                chosen = model.pending if seat == model.current_player else ()
                fresh = burraco_encoding.encode(state.observation(seat), chosen)
                assert np.array_equal(model.encode(seat), fresh)
                assert np.array_equal(
                    burraco_kept(wanderers[seat], state, seat, chosen, rng), fresh
                )
                # The same parts again with another choice: only the choice is rewritten.
                if chosen and rng.random() < 0.3:
                    parts = state.table_parts(seat)
                    assert np.array_equal(wanderers[seat].encode_parts(parts, chosen), fresh)
                    fewer = chosen[: rng.randrange(len(chosen))]
                    fresh = burraco_encoding.encode(state.observation(seat), fewer)
                    assert np.array_equal(wanderers[seat].encode_parts(parts, fewer), fresh)
            if rng.random() < 0.05:
                saved.append((state.clone(), model.pending))
            if saved and rng.random() < 0.05:
                earlier, pending = saved[rng.randrange(len(saved))]
                seat = rng.randrange(seats)
                chosen = pending if seat == earlier.current_player else ()
                fresh = burraco_encoding.encode(earlier.observation(seat), chosen)
                kept = burraco_kept(wanderers[seat], earlier, seat, chosen, rng)
                assert np.array_equal(kept, fresh)
            if model.current_player is None:
                break
            legal = model.legal_ids()
            model.step(legal[rng.randrange(len(legal))])
            steps += 1
    assert game > 1


def test_an_encoder_refuses_another_seat_s_view() -> None:
    state = three_thirteen.State.new(three_thirteen.Rules(players=3), 1)
    encoder = three_thirteen_encoding.Encoder(3, 0)
    with pytest.raises(ValueError):
        encoder.encode(state.player_view(1))
    with pytest.raises(ValueError):
        three_thirteen_encoding.Encoder(2, 0).encode(state.player_view(0))
    game = burraco.State.new(burraco.Rules(), 1)
    with pytest.raises(ValueError):
        burraco_encoding.Encoder(1).encode(game.player_view(0))
    with pytest.raises(ValueError):
        burraco_encoding.Encoder(1).encode_parts(game.table_parts(0))


def test_a_pickled_encoder_starts_empty_and_still_encodes_exactly() -> None:
    game = burraco.State.new(burraco.Rules(), 4)
    kept = burraco_encoding.Encoder(1)
    kept.encode(game.player_view(1))
    game.apply(next(iter(game.legal_actions())))
    copy = pickle.loads(pickle.dumps(kept))
    expected = burraco_encoding.encode(game.observation(1))
    assert np.array_equal(copy.encode(game.player_view(1)), expected)
    assert np.array_equal(kept.encode(game.player_view(1)), expected)
    copy = pickle.loads(pickle.dumps(kept))
    assert np.array_equal(copy.encode_parts(game.table_parts(1)), expected)

    state = three_thirteen.State.new(three_thirteen.Rules(players=2), 4)
    encoder = three_thirteen_encoding.Encoder(2, 0)
    encoder.encode(state.player_view(0))
    legal = list(state.legal_actions())
    state.apply(legal[0])
    twin = pickle.loads(pickle.dumps(encoder))
    fresh = three_thirteen_encoding.encode(state.observation(0))
    assert np.array_equal(twin.encode(state.player_view(0)), fresh)
    assert np.array_equal(encoder.encode(state.player_view(0)), fresh)


@pytest.mark.parametrize("module", [three_thirteen_v0, burraco_v0], ids=["tt", "burraco"])
def test_arrays_handed_out_are_the_caller_s_to_change(module: Any) -> None:
    env = module.env()
    env.reset(seed=11)
    rng = random.Random(11)
    for _ in range(60):
        observation, *_ = env.last()
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        observation["observation"][:] = 7.0  # the caller scribbles on what it was given
        mask[:] = 1
        env.step(int(legal[rng.randrange(len(legal))]))
        steps = env.unwrapped.steps
        seat = steps.current_player
        again, *_ = env.last()
        view = steps.state.observation(seat)
        if module is burraco_v0:
            fresh = burraco_encoding.encode(view, steps.pending)
        else:
            fresh = three_thirteen_encoding.encode(view)
        assert np.array_equal(again["observation"], fresh)
        assert np.flatnonzero(again["action_mask"]).tolist() == sorted(steps.legal_ids())
