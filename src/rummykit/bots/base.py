"""The bot interface shared by every game and level."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol


class Bot(Protocol):
    """A player: picks one of ``legal_actions`` from what ``observation`` shows.

    ``rng`` is the bot's only source of randomness, so a bot with a seeded generator
    is deterministic.  The observation is the engine's per-player view; a bot must not
    obtain the real state by any other route.
    """

    @property
    def name(self) -> str: ...

    def choose(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any: ...
