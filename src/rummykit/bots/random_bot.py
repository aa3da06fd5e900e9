"""``random``: uniformly random among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if not legal_actions:
            raise ValueError("there is no legal action to choose from")
        return legal_actions[rng.randrange(len(legal_actions))]
