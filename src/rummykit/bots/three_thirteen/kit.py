"""Three-Thirteen's entry in the bot registry (:mod:`rummykit.bots.games`): its greedy
bot, its search adapter and the points a unit of search reward is worth, which grows
with the round (more cards dealt, more deadwood at stake)."""

from __future__ import annotations

from typing import Any, Final

from rummykit.bots.kit import GameBots
from rummykit.bots.three_thirteen.evaluate import ThreeThirteenSearch, reward_scale
from rummykit.bots.three_thirteen.greedy import ThreeThirteenGreedyBot


def _points_per_reward(observation: Any) -> float:
    return float(reward_scale(observation.round_number))


BOTS: Final = GameBots(
    greedy=ThreeThirteenGreedyBot,
    search=ThreeThirteenSearch,
    points_per_reward=_points_per_reward,
)
