"""Burraco's entry in the bot registry (:mod:`rummykit.bots.games`): its greedy bot, its
search adapter and the points a unit of search reward is worth (a fixed scale)."""

from __future__ import annotations

from typing import Any, Final

from rummykit.bots.burraco.evaluate import REWARD_SCALE, BurracoSearch
from rummykit.bots.burraco.greedy import BurracoGreedyBot
from rummykit.bots.kit import GameBots


def _points_per_reward(observation: Any) -> float:
    return float(REWARD_SCALE)


BOTS: Final = GameBots(
    greedy=BurracoGreedyBot, search=BurracoSearch, points_per_reward=_points_per_reward
)
