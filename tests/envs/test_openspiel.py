"""OpenSpiel: the games load, pass OpenSpiel's random-simulation checks, and its own
algorithms (Python ISMCTS with resampling, outcome-sampling MCCFR) run on them."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

import rummykit.envs.openspiel  # noqa: F401 - registers the games

GAMES = [
    ("python_three_thirteen", {"players": 2, "last_round": 2}),
    ("python_three_thirteen", {"players": 3, "last_round": 2}),
    ("python_three_thirteen", {"players": 4, "jokers": True, "last_round": 1}),
    ("python_burraco", {}),
    ("python_burraco", {"jokers": 4, "one_set_per_rank": False}),
    ("python_burraco", {"players": 4}),
]
GAME_IDS = ["tt2", "tt3", "tt4-jokers", "burraco", "burraco-4-jokers", "burraco-four"]


@pytest.mark.parametrize(("name", "params"), GAMES, ids=GAME_IDS)
def test_random_simulation_checks(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_sizes_and_parameters() -> None:
    burraco = pyspiel.load_game("python_burraco")
    assert burraco.num_distinct_actions() == 145
    assert burraco.information_state_tensor_shape() == [1361]
    assert burraco.max_chance_outcomes() == 256
    assert burraco.num_players() == 2
    four = pyspiel.load_game("python_burraco", {"players": 4})
    assert four.num_players() == 4 and four.information_state_tensor_shape() == [1470]
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_burraco", {"players": 3})
    three = pyspiel.load_game("python_three_thirteen", {"players": 4})
    assert three.num_players() == 4
    assert three.num_distinct_actions() == 108
    assert three.observation_tensor_shape() == [633]
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_three_thirteen", {"players": 5})


def _play_to_a_decision(game: Any, seed: int, moves: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or (moves > 0 and not state.is_terminal()):
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves -= 1
    return state


@pytest.mark.parametrize(("name", "params"), GAMES, ids=GAME_IDS)
def test_resampling_keeps_the_information_state(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for seed in range(6):
        state = _play_to_a_decision(game, seed, 10 + 7 * seed)
        if state.is_terminal():
            continue
        player = state.current_player()
        twin = state.resample_from_infostate(player, sampler)
        assert twin.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(
            twin.information_state_tensor(player), state.information_state_tensor(player)
        )
        assert twin.legal_actions() == state.legal_actions()
        other = (player + 1) % game.num_players()
        changed += twin.observation_string(other) != state.observation_string(other)
        while not twin.is_terminal():  # the resampled game plays on to its end
            twin.apply_action(twin.legal_actions()[0])
    assert changed  # other hands were really redealt


def test_information_state_hides_a_meld_being_chosen() -> None:
    game = pyspiel.load_game("python_burraco")
    rng = random.Random(1)
    state = game.new_initial_state()
    seen_hidden = False
    while not state.is_terminal() and not seen_hidden:
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
            continue
        player = state.current_player()
        choose = [a for a in state.legal_actions() if 55 <= a < 108]
        if choose and not state.model.pending:
            other = 1 - player
            before = state.information_state_string(other)
            state.apply_action(choose[0])
            assert state.information_state_string(other) == before
            assert state.information_state_string(player) != before
            seen_hidden = True
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen_hidden


def test_openspiel_ismcts_plays_a_game() -> None:
    game = pyspiel.load_game("python_three_thirteen", {"last_round": 1})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(3))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(4),
    )
    rng = random.Random(2)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 40:
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 0


def test_outcome_sampling_mccfr_runs() -> None:
    game = pyspiel.load_game("python_three_thirteen", {"last_round": 1})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(0)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = _play_to_a_decision(game, 0, 0)
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)
