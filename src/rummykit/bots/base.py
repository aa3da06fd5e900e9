"""The bot interface shared by every game and level."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rummykit.bots.reasons import Reason


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's chosen action and a one-line reason a player can read (in any language:
    see :mod:`rummykit.bots.reasons`)."""

    action: Any
    reason: Reason


class Bot(Protocol):
    """A player: picks one of ``legal_actions`` from what ``observation`` shows.

    ``rng`` is the bot's only source of randomness, so a bot handed a seeded generator
    is deterministic.  The observation is the engine's per-player view; a bot never
    receives a game state (search bots build their own from the observation).
    """

    @property
    def name(self) -> str: ...

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision: ...


def choose(bot: Bot, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """The action ``bot`` picks (its reason dropped)."""
    return bot.decide(observation, legal_actions, rng).action
