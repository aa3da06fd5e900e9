"""Gymnasium single-agent environments: one seat is the learner, bots play the others.

``rummykit/Burraco-v0`` and ``rummykit/ThreeThirteen-v0`` are registered when
:mod:`rummykit.envs` is imported::

    import gymnasium as gym
    import rummykit.envs  # registers the environments

    env = gym.make("rummykit/ThreeThirteen-v0", opponents="greedy", players=3)
    vector = gym.make_vec("rummykit/Burraco-v0", num_envs=4, vectorization_mode="async")

Spaces, observations, action ids and rewards are those of the AEC environments
(:mod:`.burraco_v0`, :mod:`.three_thirteen_v0`): an observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` (the mask is also in
``info["action_mask"]``), and the reward of a step is what the learner earned from its
action and from the bots' actions that followed, up to its next decision.

Options (keywords of ``gym.make`` or the classes; the rest are rule options):

- ``seat``: the learner's seat (default 0); ``None`` draws it at every reset.
- ``opponents``: a bot spec (``"random"``, ``"greedy"``, ``"ismcts:seconds=0.1"``) for
  every other seat, or a list with one spec per other seat in seat order.
- ``partner``: with four players (``players=4``: Burraco's partnerships), the bot spec
  of the learner's partner, opposite; by default the opponents' spec.  The learner's
  reward is its team's (:mod:`.rewards`).
- ``episode``, ``score_scale``, ``win_reward``, ``illegal_reward``, ``render_mode``:
  as in :mod:`.aec`.  An id the mask excludes is refused: nothing changes, the reward
  is ``illegal_reward`` and ``info["refusal"]`` says why.

Bots see only their own engine observation and draw on a generator seeded from the
environment's, so ``reset(seed=s)`` replays the same game (the deal of engine seed
``s``) for the same learner actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from rummykit.bots.base import Bot
from rummykit.bots.levels import make_bot
from rummykit.envs import rewards, step_models
from rummykit.envs.step_models import make_steps
from rummykit.envs.steps import IllegalStep, StepModel, action_index, rules_for
from rummykit.games.randomness import MAX_SEED, check_seed

Observation = dict[str, Any]


class RummySingleAgentEnv(gym.Env[Observation, np.int64]):
    """One seat of a Burraco or Three-Thirteen game (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        *,
        game: str,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "random",
        partner: str | None = None,
        render_mode: str | None = None,
        episode: str = "game",
        score_scale: float = 0.01,
        win_reward: float = 1.0,
        illegal_reward: float = -1.0,
        **rule_options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'ansi', 'human' or None, not {render_mode!r}")
        if episode not in ("game", "hand"):
            raise ValueError(f"episode is 'game' or 'hand', not {episode!r}")
        self.game = game
        self.rules = rules_for(game, rule_options)
        self.reward_options = rewards.RewardOptions(score_scale=score_scale, win_reward=win_reward)
        self.episode = episode
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.steps: StepModel = make_steps(game, self.rules, 0)
        players = self.steps.num_players
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise ValueError(f"seat is a seat number from 0 to {players - 1} or None, not {seat!r}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"opponents needs one bot spec per other seat ({players - 1})")
        partner_of = getattr(self.steps.state, "partner_of", None)
        has_partner = partner_of is not None and partner_of(0) is not None
        if partner is not None and not has_partner:
            raise ValueError("partner is for a game of partnerships (Burraco with players=4)")
        self.partner_spec = partner
        self._partner_bot: Bot | None = None if partner is None else make_bot(game, partner)
        self._bots: list[Bot] = [make_bot(game, spec) for spec in specs]
        self.opponents = tuple(specs)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        low, high = self.steps.layout.bounds()
        count = self.steps.action_count
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(count)
        self._bot_rngs: list[random.Random] = []
        self._over = True

    # -----------------------------------------------------------------------------------

    def _bot_at(self, player: int) -> Bot:
        if self._partner_bot is not None and self.steps.state.partner_of(self.seat) == player:
            return self._partner_bot
        others = [s for s in range(self.steps.num_players) if s != self.seat]
        return self._bots[others.index(player)]

    def _observation(self) -> tuple[Observation, dict[str, Any]]:
        live = not self._over and self.steps.current_player == self.seat
        mask = self.steps.mask() if live else np.zeros(self.steps.action_count, dtype=np.int8)
        observation = {"observation": self.steps.encode(self.seat), "action_mask": mask}
        return observation, {"action_mask": mask.copy(), "seat": self.seat}

    def _play_bots(self) -> float:
        """Let the bots move until it is the learner's turn or the episode ends; return
        what the learner earned meanwhile."""
        earned = 0.0
        state = self.steps.state
        while not self._over:
            player = self.steps.current_player
            if player is None or player == self.seat:
                break
            legal = list(state.legal_actions())
            if len(legal) == 1:
                action = legal[0]
            else:
                observation = state.observation(player)
                action = (
                    self._bot_at(player).decide(observation, legal, self._bot_rngs[player]).action
                )
            self.steps.apply(action)
            earned += self._score()
        return earned

    def _score(self) -> float:
        earned, over = rewards.after_action(
            self.game, self.steps.state, self.reward_options, self.episode
        )
        self._over = over
        return earned[self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        engine_seed = (
            check_seed(seed)
            if seed is not None
            else int(self.np_random.integers(0, MAX_SEED, dtype=np.int64))
        )
        players = self.steps.num_players
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, players))
        self._bot_rngs = [
            random.Random(int(self.np_random.integers(0, 2**63 - 1))) for _ in range(players)
        ]
        self.steps = make_steps(self.game, self.rules, engine_seed)
        self._over = False
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observation()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset() first")
        index = action_index(action, self.steps.action_count)
        try:
            events = self.steps.step(index)
        except IllegalStep as refused:
            observation, info = self._observation()
            info["refusal"] = refused.refusal.to_json()
            return observation, self.illegal_reward, False, False, info
        reward = self._score() if events else 0.0
        reward += self._play_bots()
        if self.render_mode == "human":
            self.render()
        observation, info = self._observation()
        return observation, float(reward), self._over, False, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = step_models.observation_text(
            self.game,
            self.steps.state.observation(self.seat),
            self.steps.pending if self.steps.current_player == self.seat else (),
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text


class BurracoEnv(RummySingleAgentEnv):
    """``rummykit/Burraco-v0``."""

    def __init__(self, **options: Any) -> None:
        super().__init__(game="burraco", **options)


class ThreeThirteenEnv(RummySingleAgentEnv):
    """``rummykit/ThreeThirteen-v0``."""

    def __init__(self, **options: Any) -> None:
        super().__init__(game="three-thirteen", **options)


ENV_IDS = {
    "rummykit/Burraco-v0": "rummykit.envs.gym_env:BurracoEnv",
    "rummykit/ThreeThirteen-v0": "rummykit.envs.gym_env:ThreeThirteenEnv",
}


def register() -> None:
    """Register both environments with Gymnasium (again is harmless)."""
    for env_id, entry_point in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry_point)
