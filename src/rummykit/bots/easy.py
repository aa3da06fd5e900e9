"""``easy``: the game's ``greedy`` player who slips now and then.

A beginner's opponent should play sensible moves most of the time and leave chances
often enough to be beaten: at each decision, with probability :data:`SLIP` (one half)
the bot plays a random legal move instead of the greedy one.  Both the slip and the
random move are drawn from the ``rng`` the bot is handed, so a seeded easy bot is as
reproducible as the others, and on the ladder it sits between ``random`` and ``greedy``
(``tests/cli/test_ladder_command.py``; the figures in docs/competition.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from rummykit.bots.base import Bot, Decision
from rummykit.bots.reasons import Reason

SLIP: Final = 0.5
"""The share of decisions played at random."""


class EasyBot:
    """``greedy``'s move, or with probability :data:`SLIP` a random legal one.

    ``moves``, when given, narrows the legal actions a slip picks from (the game's
    ``moves_with_progress``: even a slip never throws back a card just taken)."""

    name = "easy"

    def __init__(
        self,
        greedy: Bot,
        slip: float = SLIP,
        *,
        moves: Callable[[Any, Sequence[Any]], list[Any]] | None = None,
    ) -> None:
        if not 0.0 <= slip <= 1.0:
            raise ValueError(f"the share of slips must be between 0 and 1, not {slip!r}")
        self.greedy = greedy
        self.slip = slip
        self.moves = moves

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        if not legal_actions:
            raise ValueError("there is no legal action to choose from")
        if len(legal_actions) > 1 and rng.random() < self.slip:
            some = legal_actions if self.moves is None else self.moves(observation, legal_actions)
            return Decision(some[rng.randrange(len(some))], Reason.of("random_move"))
        return self.greedy.decide(observation, legal_actions, rng)
