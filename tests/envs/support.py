"""Shared helpers for the environment tests: configurations and random masked play."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np

from rummykit.envs import burraco_v0, three_thirteen_v0

# (module, options): every player count of Three-Thirteen, variants of both games.
CONFIGS: list[tuple[Any, dict[str, Any]]] = [
    (three_thirteen_v0, {"players": 2}),
    (three_thirteen_v0, {"players": 3}),
    (three_thirteen_v0, {"players": 4, "jokers": True, "ace_high": True}),
    (three_thirteen_v0, {"players": 2, "wild_only_melds": True, "first_round": 9}),
    (burraco_v0, {}),
    (burraco_v0, {"jokers": 4, "mode": "target", "target": 505, "one_set_per_rank": False}),
    (burraco_v0, {"players": 4}),
]
IDS = [
    "tt2",
    "tt3",
    "tt4-jokers-ace-high",
    "tt2-wild-only-late",
    "burraco",
    "burraco-target",
    "burraco-four",
]


def random_play(env: Any, rng: random.Random) -> Iterator[tuple[str, int | None]]:
    """Play one episode of ``env`` (already reset) with uniformly random masked ids,
    yielding each agent and its action (``None`` on the dead steps at the end)."""
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            yield agent, None
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal), f"{agent} has no legal action"
        action = int(legal[rng.randrange(len(legal))])
        env.step(action)
        yield agent, action
