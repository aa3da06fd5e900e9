"""Gymnasium: the registered environments pass ``check_env`` and run vectorised."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rummykit.envs  # noqa: F401 - registers the environments
from rummykit.envs.gym_env import BurracoEnv

ENVS = [
    ("rummykit/ThreeThirteen-v0", {}),
    ("rummykit/ThreeThirteen-v0", {"players": 4, "opponents": "greedy", "seat": None}),
    ("rummykit/Burraco-v0", {}),
    ("rummykit/Burraco-v0", {"opponents": ["greedy"], "seat": 1, "jokers": 4}),
    ("rummykit/Burraco-v0", {"players": 4, "opponents": "random", "partner": "greedy"}),
]
ENV_IDS = ["tt", "tt4-greedy-any-seat", "burraco", "burraco-greedy-seat-1", "burraco-four"]


@pytest.mark.parametrize(("env_id", "options"), ENVS, ids=ENV_IDS)
def test_check_env(env_id: str, options: dict[str, Any], capsys: Any) -> None:
    env = gym.make(env_id, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    assert "You are player" in capsys.readouterr().out  # the "human" render was shown


@pytest.mark.parametrize(("env_id", "options"), ENVS, ids=ENV_IDS)
def test_masked_episodes_end_and_replay_with_the_seed(env_id: str, options: dict[str, Any]) -> None:
    def episode(seed: int) -> list[Any]:
        env = gym.make(env_id, **options)
        observation, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace = []
        for _ in range(5000):
            legal = np.flatnonzero(observation["action_mask"])
            assert np.array_equal(observation["action_mask"], info["action_mask"])
            action = int(rng.choice(legal))
            observation, reward, terminated, _truncated, info = env.step(action)
            trace.append((action, reward, observation["observation"].tobytes()))
            if terminated:
                assert not observation["action_mask"].any()
                return trace
        raise AssertionError("the episode did not end")

    first = episode(5)
    assert first == episode(5)


def test_refused_action_changes_nothing() -> None:
    env = gym.make("rummykit/Burraco-v0")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and not terminated and not truncated
    assert info["refusal"]["code"]
    assert np.array_equal(again["observation"], observation["observation"])


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_envs(mode: str) -> None:
    envs = gym.make_vec(
        "rummykit/ThreeThirteen-v0", num_envs=3, vectorization_mode=mode, last_round=2
    )
    observation, _ = envs.reset(seed=7)
    assert observation["observation"].shape == (3, 411)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(3000):
        # A finished sub-environment (empty mask) is reset by this step; its action is unused.
        actions = [
            int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
            for mask in observation["action_mask"]
        ]
        observation, _reward, terminated, _truncated, _info = envs.step(np.array(actions))
        ended += int(terminated.sum())
        if ended >= 3:
            break
    envs.close()
    assert ended >= 3


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="seat"):
        gym.make("rummykit/Burraco-v0", seat=2)
    with pytest.raises(ValueError, match="one bot spec per other seat"):
        gym.make("rummykit/ThreeThirteen-v0", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        gym.make("rummykit/ThreeThirteen-v0", opponents="genius")


def test_one_seat_of_four_with_a_bot_partner() -> None:
    env = gym.make("rummykit/Burraco-v0", players=4, seat=2, opponents="random", partner="greedy")
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, BurracoEnv)
    assert unwrapped._bot_at(0).name == "greedy"  # the partner, opposite
    assert unwrapped._bot_at(1).name == unwrapped._bot_at(3).name == "random"
    observation, info = env.reset(seed=5)
    assert observation["observation"].shape == (1470,) and info["seat"] == 2
    rng = np.random.default_rng(5)
    total = 0.0
    for _ in range(5000):
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += float(reward)
        if terminated or truncated:
            break
    state = unwrapped.steps.state
    assert state.game_over
    # the learner's reward is its team's: the partner's hand score counts for it
    if state.winners and len(state.winners) == 2:
        assert (total > 0) == (2 in state.winners)
    with pytest.raises(ValueError, match="partner is for a game of partnerships"):
        gym.make("rummykit/Burraco-v0", partner="greedy")
