"""Burraco's :class:`~rummykit.bots.game_bots.GameBots`, found by
:mod:`rummykit.bots.by_game`: its greedy bot, its search adapter, the points a unit of
search reward is worth (a fixed scale), the hint's search budget and the smallest loss a
review calls a mistake."""

from __future__ import annotations

from typing import Any, Final

from rummykit.bots.burraco.evaluate import REWARD_SCALE, BurracoSearch
from rummykit.bots.burraco.greedy import BurracoGreedyBot
from rummykit.bots.burraco.inference import BurracoPile
from rummykit.bots.burraco.progress import moves_with_progress
from rummykit.bots.game_bots import GameBots

HINT_ITERATIONS: Final = 1200
"""A hint's search: over the positions of the recorded games (tests/golden) it took 0.4 s
of one core for most of them, at most 1 s."""
MISTAKE_POINTS: Final = 20.0
"""A review calls a play a mistake only when the better play is worth at least this
much in the bot's evaluation of the hand: a high card (an ace 15, a two 20) left in
hand, or a meld one card short of a burraco's share."""


def _points_per_reward(observation: Any) -> float:
    return float(REWARD_SCALE)


def _hint_iterations(observation: Any) -> int:
    return HINT_ITERATIONS


BOTS: Final = GameBots(
    greedy=BurracoGreedyBot,
    search=BurracoSearch,
    points_per_reward=_points_per_reward,
    hint_iterations=_hint_iterations,
    mistake_points=MISTAKE_POINTS,
    moves_with_progress=moves_with_progress,
    pile_reading=BurracoPile,
)
