"""Three-Thirteen rummy as a PettingZoo AEC environment, version 0.

>>> from rummykit.envs import three_thirteen_v0
>>> env = three_thirteen_v0.env(players=3)
>>> env.reset(seed=7)
>>> env.agent_selection in env.possible_agents
True
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((522,), (108,))

=====================  ==============================================================
agents                 ``player_0`` ... ``player_{n-1}`` (2 to 4, ``players=``)
action space           ``Discrete(108)``: 0 draw, 1 take, 2+c discard c, 55+c go out
                       discarding c (c a card code, :mod:`.three_thirteen_actions`)
observation space      ``Dict(observation=Box(float32, 411/522/633),
                       action_mask=Box(int8, 108))``; every slot in
                       :mod:`.three_thirteen_encoding`
rewards                each round: the mean of the others' round points minus yours,
                       times ``score_scale`` (0.01); at the end: ``win_reward`` (1.0)
                       times the outcome (+1 for a sole winner of two players, shared
                       among winners, -1 shared among the others); :mod:`.rewards`
episode                the whole game (``episode="game"``, rounds ``first_round`` to
                       ``last_round``) or one round (``episode="hand"``)
=====================  ==============================================================

Every rule option of ``three_thirteen.Rules`` is a keyword: ``players``, ``jokers``,
``ace_high``, ``wild_only_melds``, ``first_round``, ``last_round``.  The environment
options (``episode``, ``score_scale``, ``win_reward``, ``max_cycles``, ``illegal``,
``illegal_reward``, ``render_mode``) are those of :mod:`.aec`.

``parallel_env(**options)`` is the same game in PettingZoo's parallel API
(:mod:`.parallel`): every agent gives an action each step, only the one to move is
played, and ``infos[agent]["active_agent"]`` says who moves next.

Version history: v0, the first version (``parallel_env`` added since; the AEC
environment unchanged).
"""

from __future__ import annotations

from typing import Any

from rummykit.envs.aec import OrderEnforcing, RummyEnv
from rummykit.envs.parallel import RummyParallelEnv


class raw_env(RummyEnv):
    """The unwrapped environment (see the module docstring)."""

    metadata: dict[str, Any] = {**RummyEnv.metadata, "name": "three_thirteen_v0"}  # noqa: RUF012

    def __init__(self, **options: Any) -> None:
        super().__init__(game="three-thirteen", **options)


def env(**options: Any) -> OrderEnforcing:
    """The environment with PettingZoo's order check (``reset`` before ``step``)."""
    return OrderEnforcing(raw_env(**options))


def parallel_env(**options: Any) -> RummyParallelEnv:
    """The same game in PettingZoo's parallel API (:mod:`.parallel`: only the agent to
    move acts; ``max_cycles`` counts parallel steps)."""
    max_cycles = options.pop("max_cycles", None)
    return RummyParallelEnv(raw_env(**options), max_cycles=max_cycles)
