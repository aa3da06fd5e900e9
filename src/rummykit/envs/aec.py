"""The PettingZoo AEC environment both games share (``burraco_v0``, ``three_thirteen_v0``).

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers of the engine).  The agent
selected is always the player to move; a turn takes several steps (draw, then discard;
in Burraco the cards of each meld are chosen one step at a time).  Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``; the mask is all zeros
for an agent that is not to move.  Rewards follow :mod:`.rewards`.

Options (keywords of ``env()``/``raw_env()``; the rest are the game's rule options):

- ``episode``: ``"game"`` (default) plays the whole game; ``"hand"`` ends the episode
  after the first hand (Burraco) or round (Three-Thirteen).
- ``score_scale`` (0.01), ``win_reward`` (1.0): see :mod:`.rewards`.
- ``max_cycles``: truncate every agent once ``max_cycles * num_agents`` steps were
  played (a cycle is as many steps as there are agents); ``None`` (default) never.
- ``illegal``: ``"refuse"`` (default): an id the mask excludes is refused, the game is
  left as it was, the agent gets ``illegal_reward`` (-1.0) and ``infos[agent]["refusal"]``
  holds the engine's refusal (``code``, ``params``, ``message``); the same agent is to
  move again.  ``"raise"``: raise :class:`~rummykit.envs.steps.IllegalStep` instead.
- ``render_mode``: ``"human"`` prints the table after every step, ``"ansi"`` makes
  ``render()`` return it; the table is shown as the player to move sees it.

``reset(seed=s)`` deals the engine game of seed ``s`` (the same deal as
``rummykit play --seed s``); later resets without a seed draw seeds from a generator
seeded by ``s``, so a seeded environment replays the same games.
"""

from __future__ import annotations

import random
from typing import Any, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import order_enforcing

from rummykit.envs import rewards, step_models
from rummykit.envs.step_models import make_steps
from rummykit.envs.steps import IllegalStep, StepModel, action_index, rules_for
from rummykit.games.randomness import MAX_SEED, check_seed

EPISODES = ("game", "hand")
ILLEGAL = ("refuse", "raise")


class RummyEnv(AECEnv[str, dict[str, Any], Any]):
    """One game of Burraco or Three-Thirteen as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - the libraries read it from the class
        "render_modes": ["human", "ansi"],
        "name": "rummykit",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        game: str,
        render_mode: str | None = None,
        episode: str = "game",
        score_scale: float = 0.01,
        win_reward: float = 1.0,
        max_cycles: int | None = None,
        illegal: str = "refuse",
        illegal_reward: float = -1.0,
        **rule_options: Any,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'human', 'ansi' or None, not {render_mode!r}")
        if episode not in EPISODES:
            raise ValueError(f"episode is 'game' or 'hand', not {episode!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal is 'refuse' or 'raise', not {illegal!r}")
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles is a whole number of at least 1, not {max_cycles!r}")
        self.game = game
        self.rules = rules_for(game, rule_options)
        self.reward_options = rewards.RewardOptions(score_scale=score_scale, win_reward=win_reward)
        self.episode = episode
        self.max_cycles = max_cycles
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.steps: StepModel = make_steps(game, self.rules, 0)
        players = self.steps.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.steps.layout.bounds()
        count = self.steps.action_count
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self._seeds = random.Random()
        self._played = 0
        self._no_mask = np.zeros(count, dtype=np.int8)

    # -----------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_seed(self) -> int:
        """The engine seed of the game being played."""
        return int(self.steps.state.seed)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            engine_seed = check_seed(seed)
            self._seeds = random.Random(engine_seed)
        else:
            engine_seed = self._seeds.randrange(MAX_SEED + 1)
        self.steps = make_steps(self.game, self.rules, engine_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._played = 0
        self.agent_selection = self._agent_to_move()

    def _agent_to_move(self) -> str:
        player = self.steps.current_player
        return self.possible_agents[0 if player is None else player]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        live = (
            not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
            and self.steps.current_player == seat
        )
        return {
            "observation": self.steps.encode(seat),
            "action_mask": self.steps.mask() if live else self._no_mask.copy(),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        steps = self.steps
        index = action_index(action, steps.action_count)
        self._cumulative_rewards[agent] = 0.0
        given = self.rewards
        if any(given.values()):
            for name in given:
                given[name] = 0.0
        self.infos[agent] = {}
        try:
            events = steps.step(index)
        except IllegalStep as refused:
            if self.illegal == "raise":
                raise
            given[agent] = self.illegal_reward
            self.infos[agent] = {"refusal": refused.refusal.to_json()}
        else:
            # An engine action was played (not one more card of a meld) and ended a hand.
            if events and steps.state.hand_over:
                self._score_after_step()
        self._played += 1
        ended = any(self.terminations.values())
        if (
            self.max_cycles is not None
            and self._played >= self.max_cycles * len(self.possible_agents)
            and not ended
        ):
            self.truncations = dict.fromkeys(self.agents, True)
        if not ended:
            self.agent_selection = self._agent_to_move()
        if any(given.values()):
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _score_after_step(self) -> None:
        earned, over = rewards.after_action(
            self.game, self.steps.state, self.reward_options, self.episode
        )
        for agent, reward in zip(self.possible_agents, earned, strict=True):
            self.rewards[agent] += reward
        if over:
            self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = step_models.table_text(self.steps)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])


class OrderEnforcing(wrappers.OrderEnforcingWrapper[str, dict[str, Any], Any]):
    """PettingZoo's order check (``reset`` before anything else), with ``last`` handed
    straight to the environment instead of through one attribute lookup per field."""

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    # The two attributes the agent loop reads every step, without ``__getattr__``'s two
    # hops (the same error before ``reset``).
    @property
    def agents(self) -> list[str]:  # type: ignore[override]  # read-only: the env sets it
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:  # type: ignore[override]  # read-only: the env sets it
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)  # type: ignore[no-untyped-call]


class _AgentIterable(order_enforcing.AECOrderEnforcingIterable[str, dict[str, Any], Any]):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(order_enforcing.AECOrderEnforcingIterator[str, dict[str, Any], Any]):
    """PettingZoo's order-checking iterator (the same checks and errors), reading the
    environment's ``agents`` and ``agent_selection`` directly."""

    def __next__(self) -> str:
        wrapper = cast(OrderEnforcing, self.env)
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection
