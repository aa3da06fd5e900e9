"""Burraco for two players as a PettingZoo AEC environment, version 0.

>>> from rummykit.envs import burraco_v0
>>> env = burraco_v0.env()
>>> env.reset(seed=7)
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((1361,), (145,))
>>> [env.unwrapped.steps.describe(i) for i in observation["action_mask"].nonzero()[0]]
['draw', 'take']

=====================  ==============================================================
agents                 ``player_0``, ``player_1``
action space           ``Discrete(145)``: 0 draw, 1 take, 2+c discard c, 55+c choose
                       c for a meld, 108 lay the chosen cards as a meld, 109+k add
                       them to your k-th meld (:mod:`.burraco_actions`)
observation space      ``Dict(observation=Box(float32, 1361), action_mask=Box(int8,
                       145))``; every slot in :mod:`.burraco_encoding`
rewards                each hand: your hand score minus theirs, times ``score_scale``
                       (0.01); at the end: ``win_reward`` (1.0) for the winner, minus
                       that for the loser, 0 each on a draw (:mod:`.rewards`)
episode                the whole game (``mode="quick"``: one hand; ``mode="target"``:
                       hands until ``target``) or one hand (``episode="hand"``)
=====================  ==============================================================

Every rule option of ``burraco.Rules`` is a keyword: ``jokers``, ``one_set_per_rank``,
``mode``, ``target``, ``stalemate_turns``.  The environment options (``episode``,
``score_scale``, ``win_reward``, ``max_cycles``, ``illegal``, ``illegal_reward``,
``render_mode``) are those of :mod:`.aec`.  A turn is several steps by the same agent:
draw or take, any number of melds and additions (each one card at a time), a discard.

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

    metadata: dict[str, Any] = {**RummyEnv.metadata, "name": "burraco_v0"}  # noqa: RUF012

    def __init__(self, **options: Any) -> None:
        super().__init__(game="burraco", **options)


def env(**options: Any) -> OrderEnforcing:
    """The environment with PettingZoo's order check (``reset`` before ``step``)."""
    return OrderEnforcing(raw_env(**options))


def parallel_env(**options: Any) -> RummyParallelEnv:
    """The same game in PettingZoo's parallel API (:mod:`.parallel`: only the agent to
    move acts; ``max_cycles`` counts parallel steps)."""
    max_cycles = options.pop("max_cycles", None)
    return RummyParallelEnv(raw_env(**options), max_cycles=max_cycles)
