"""The parallel environments: PettingZoo's checkers, and the same game as the AEC one.

PettingZoo's ``max_cycles_test`` runs ``parallel_env`` and an AEC environment of the
same module; its AEC half counts how often ``agent_iter`` selects each agent, which
must be once a cycle.  The games' own AEC environments select only the agent to move,
and a turn takes several steps by the same agent, so that half is given PettingZoo's
``parallel_to_aec`` of the parallel environment, where agents take turns giving actions
(docs/envs.md says so).
"""

from __future__ import annotations

import random
import warnings
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from pettingzoo.test.max_cycles_test import max_cycles_test
from pettingzoo.test.parallel_test import parallel_api_test
from pettingzoo.test.seed_test import parallel_seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from rummykit.envs import burraco_v0, three_thirteen_v0
from rummykit.envs.parallel import RummyParallelEnv
from rummykit.envs.steps import IllegalStep
from tests.envs.support import CONFIGS, IDS


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_parallel_api_test(module: Any, options: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(module.parallel_env(**options), num_cycles=1000)
    assert not [str(w.message) for w in caught]


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_max_cycles_test(module: Any, options: dict[str, Any]) -> None:
    def parallel(**more: Any) -> RummyParallelEnv:
        env: RummyParallelEnv = module.parallel_env(**options, **more)
        return env

    max_cycles_test(
        SimpleNamespace(parallel_env=parallel, env=lambda **more: parallel_to_aec(parallel(**more)))
    )


def test_the_aec_environment_selects_only_the_agent_to_move() -> None:
    """Why ``max_cycles_test`` is not given ``env()``: with random ids (most refused)
    the agent to move is selected again and again, so agents are not selected once a
    cycle."""
    with pytest.raises(AssertionError):
        max_cycles_test(burraco_v0)


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_parallel_seed_test(module: Any, options: dict[str, Any]) -> None:
    parallel_seed_test(lambda: module.parallel_env(**options), num_cycles=300)


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_parallel_plays_the_aec_game(module: Any, options: dict[str, Any]) -> None:
    """The same seed and the same ids of the agents to move give the same observations,
    rewards and ends in both APIs; the other agents' actions change nothing."""
    aec = module.env(**options)
    aec.reset(seed=21)
    parallel = module.parallel_env(**options)
    observations, infos = parallel.reset(seed=21)
    rng, noise = random.Random(21), random.Random(5)
    steps = 0
    while aec.agents and steps < 1500:
        agent = aec.agent_selection
        observation, _reward, _terminated, _truncated, _info = aec.last()
        assert infos[agent]["active_agent"] == agent
        for other in parallel.agents:
            assert observations[other]["action_mask"].any() == (other == agent)
            expected = aec.observe(other)
            assert np.array_equal(observations[other]["observation"], expected["observation"])
            assert np.array_equal(observations[other]["action_mask"], expected["action_mask"])
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        actions = {other: noise.randrange(-5, 500) for other in parallel.agents}
        actions[agent] = action
        aec.step(action)
        observations, rewards, terminations, truncations, infos = parallel.step(actions)
        assert rewards == {other: aec.rewards[other] for other in rewards}
        assert terminations == {other: aec.terminations[other] for other in terminations}
        assert not any(truncations.values())
        steps += 1
        if any(terminations.values()):
            break
    if steps < 1500:
        assert parallel.agents == [] and all(terminations.values())


def test_max_cycles_truncates_every_agent() -> None:
    env = three_thirteen_v0.parallel_env(players=3, max_cycles=5)
    observations, _infos = env.reset(seed=4)
    for step in range(5):
        assert len(env.agents) == 3
        actions = {
            agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
            if observations[agent]["action_mask"].any()
            else 0
            for agent in env.agents
        }
        observations, _rewards, terminations, truncations, _infos = env.step(actions)
        assert not any(terminations.values())
        assert all(truncations.values()) == (step == 4)
    assert env.agents == []
    assert not any(observation["action_mask"].any() for observation in observations.values())
    assert env.step({}) == ({}, {}, {}, {}, {})
    env.max_cycles = None
    env.reset(seed=4)
    assert len(env.agents) == 3


def test_refusals_and_bad_input() -> None:
    env = burraco_v0.parallel_env()
    _observations, infos = env.reset(seed=2)
    mover = infos["player_0"]["active_agent"]
    with pytest.raises(ValueError, match="no action"):
        env.step({agent: 0 for agent in env.agents if agent != mover})
    discard = 2  # a discard before drawing: refused, the game unchanged
    _obs, rewards, _term, _trunc, infos = env.step(dict.fromkeys(env.agents, discard))
    assert rewards[mover] == -1.0
    assert infos[mover]["refusal"]["code"] == "wrong_phase"
    assert infos[mover]["active_agent"] == mover
    strict = burraco_v0.parallel_env(illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalStep):
        strict.step(dict.fromkeys(strict.agents, discard))
    with pytest.raises(ValueError, match="max_cycles"):
        three_thirteen_v0.parallel_env(max_cycles=0)
    assert env.observation_space("player_1") is env.aec_env.observation_space("player_1")
