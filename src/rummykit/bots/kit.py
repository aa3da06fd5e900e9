"""What a game's bot package provides to the bot registry (:mod:`rummykit.bots.games`).

Only the shape; each game's ``kit`` module fills it in and nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummykit.bots.base import Bot
    from rummykit.bots.ismcts import SearchAdapter


@dataclass(frozen=True, slots=True, kw_only=True)
class GameBots:
    """One game's bots: ``greedy`` and ``search`` make a new greedy bot and a new search
    adapter; ``points_per_reward(observation)`` converts the search's reward (a value in
    ``-1 .. 1``) into the game's points at that decision."""

    greedy: Callable[[], Bot]
    search: Callable[[], SearchAdapter]
    points_per_reward: Callable[[Any], float]
