"""``random``: uniformly random among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rummykit.bots.base import Decision
from rummykit.bots.reasons import Reason


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        if not legal_actions:
            raise ValueError("there is no legal action to choose from")
        return Decision(legal_actions[rng.randrange(len(legal_actions))], Reason.of("random_move"))
