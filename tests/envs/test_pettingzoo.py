"""PettingZoo's own checkers on both environments, every player count and variants."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test.api_test import api_test
from pettingzoo.test.seed_test import seed_test

from rummykit.envs import burraco_v0, three_thirteen_v0
from rummykit.envs.steps import IllegalStep, StepError
from tests.envs.support import CONFIGS, IDS, random_play

# What api_test says of any environment whose observations are dicts (as PettingZoo's
# own card games are), and of a finished agent's all-zero mask; anything else fails.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Action mask numpy array is all zeros (no legal actions).",
)


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_api_test(module: Any, options: dict[str, Any]) -> None:
    env = module.env(**options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=300)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_seed_test(module: Any, options: dict[str, Any]) -> None:
    seed_test(lambda: module.env(**options), num_cycles=200)


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_max_cycles_truncates_every_agent_after_that_many_cycles(
    module: Any, options: dict[str, Any]
) -> None:
    max_cycles = 7
    env = module.env(max_cycles=max_cycles, **options)
    env.reset(seed=3)
    agents = len(env.possible_agents)
    played = [action for _agent, action in random_play(env, random.Random(1))]
    live = [action for action in played if action is not None]
    assert len(live) == max_cycles * agents  # no game ends this early
    assert len(played) == len(live) + agents  # each agent is told, then removed
    assert env.agents == []


def test_max_cycles_is_checked() -> None:
    with pytest.raises(ValueError, match="max_cycles"):
        three_thirteen_v0.env(max_cycles=0)


@pytest.mark.parametrize(("module", "options"), CONFIGS, ids=IDS)
def test_same_seed_same_trajectory(module: Any, options: dict[str, Any]) -> None:
    def trajectory(seed: int) -> list[Any]:
        env = module.env(**options)
        env.reset(seed=seed)
        steps: list[Any] = []
        for agent, action in random_play(env, random.Random(seed)):
            if len(steps) >= 3000:
                break
            observation = env.observe(agent) if agent in env.agents else None
            digest = None if observation is None else observation["observation"].tobytes()
            steps.append((agent, action, env.rewards.get(agent), digest))
        return steps

    first = trajectory(11)
    assert first == trajectory(11)
    assert first != trajectory(12)


@pytest.mark.parametrize(
    ("module", "options"),
    [(three_thirteen_v0, {"players": 3}), (burraco_v0, {})],
    ids=["tt3", "burraco"],
)
def test_whole_games_end_with_zero_sum_rewards(module: Any, options: dict[str, Any]) -> None:
    env = module.raw_env(**options)
    rng = random.Random(5)
    for seed in range(3):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                assert terminated and not truncated
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        state = env.steps.state
        assert state.game_over
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)
        # The outcome part: the winner's cumulative reward is the best.
        best = max(totals, key=lambda agent: totals[agent])
        assert int(best.split("_")[1]) in state.winners


def test_episode_hand_ends_after_the_first_round() -> None:
    env = three_thirteen_v0.raw_env(players=2, episode="hand")
    env.reset(seed=4)
    for _ in random_play(env, random.Random(0)):
        pass
    state = env.steps.state
    assert len(state.hand_results) == 1
    assert not state.game_over


def test_illegal_ids_are_refused_and_change_nothing() -> None:
    env = burraco_v0.raw_env()
    env.reset(seed=2)
    agent = env.agent_selection
    before = env.observe(agent)["observation"]
    env.step(2)  # discard Ac before drawing: refused
    assert env.agent_selection == agent
    assert env.infos[agent]["refusal"]["code"] == "wrong_phase"
    assert env.rewards[agent] == -1.0
    assert np.array_equal(env.observe(agent)["observation"], before)


def test_illegal_ids_can_raise() -> None:
    env = three_thirteen_v0.raw_env(illegal="raise")
    env.reset(seed=2)
    with pytest.raises(IllegalStep) as refused:
        env.step(2)  # a discard in the draw phase
    assert refused.value.refusal.code == "wrong_phase"


@pytest.mark.parametrize("action", [-1, 108, 1.5, "draw", True])
def test_non_ids_are_a_typed_error(action: Any) -> None:
    env = three_thirteen_v0.raw_env()
    env.reset(seed=2)
    with pytest.raises(StepError):
        env.step(action)


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="players"):
        three_thirteen_v0.env(players=5)
    with pytest.raises(ValueError, match="unknown rule option"):
        burraco_v0.env(jokrs=4)
    with pytest.raises(ValueError, match="episode"):
        burraco_v0.env(episode="match")


def test_render_shows_the_table_as_the_player_to_move_sees_it() -> None:
    env = burraco_v0.raw_env(render_mode="ansi")
    env.reset(seed=9)
    text = env.render()
    assert isinstance(text, str)
    seat = env.steps.current_player
    assert f"You are player {seat}" in text
    assert "You are to draw" in text


def test_four_agents_share_their_team_rewards() -> None:
    env = burraco_v0.raw_env(players=4)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    space = env.observation_space("player_0")
    assert isinstance(space, gymnasium.spaces.Dict)
    assert space["observation"].shape == (1470,)
    rng = random.Random(8)
    for seed in range(2):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            totals[agent] += reward
            for other in env.agents:  # partners are rewarded alike at every step
                partner = f"player_{(int(other.split('_')[1]) + 2) % 4}"
                if partner in env.rewards:  # agents leave one by one at the end
                    assert env.rewards[other] == env.rewards[partner]
            if terminated or truncated:
                env.step(None)
                continue
            assert observation is not None
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        state = env.steps.state
        assert state.game_over and len(state.winners) in (2, 4)
        assert totals["player_0"] == pytest.approx(totals["player_2"])
        assert totals["player_1"] == pytest.approx(totals["player_3"])
        assert totals["player_0"] == pytest.approx(-totals["player_1"])
        if len(state.winners) == 2:  # a team won: both partners gain what the others lose
            for seat in range(4):
                assert (totals[f"player_{seat}"] > 0) == (seat in state.winners)


# Hands of ``burraco_v0`` at two players (episode seed and play seed alike) whose random
# play reaches a card offered for an addition that would leave one card the player may
# not close with; the other seeds are a spread of ordinary hands.
BURRACO_HANDS_WITH_A_REFUSED_LAST_ADDITION = (997, 1246, 1388)


@pytest.mark.parametrize(
    ("players", "seeds"),
    [(2, (*BURRACO_HANDS_WITH_A_REFUSED_LAST_ADDITION, *range(12))), (4, tuple(range(16)))],
    ids=["two-players", "four-players"],
)
def test_burraco_every_live_agent_has_a_legal_action(players: int, seeds: tuple[int, ...]) -> None:
    """Random masked play of whole hands: the agent to move, unless terminated or
    truncated, always has an id masked in (``random_play`` asserts it at each step)."""
    steps = 0
    for seed in seeds:
        env = burraco_v0.env(players=players, episode="hand")
        env.reset(seed=seed)
        for _agent, action in random_play(env, random.Random(seed)):
            steps += action is not None
    assert steps > 100 * len(seeds)
