"""Three-Thirteen's :class:`~rummykit.bots.game_bots.GameBots`, found by
:mod:`rummykit.bots.by_game`: its greedy bot, its search adapter, the points a unit of
search reward is worth, which grows with the round (more cards dealt, more deadwood at
stake), the hint's search budget (smaller where iterations cost more) and the smallest
loss a review calls a mistake."""

from __future__ import annotations

from typing import Any, Final

from rummykit.bots.game_bots import GameBots
from rummykit.bots.three_thirteen.evaluate import ThreeThirteenSearch, reward_scale
from rummykit.bots.three_thirteen.greedy import ThreeThirteenGreedyBot
from rummykit.bots.three_thirteen.inference import ThreeThirteenPile
from rummykit.bots.three_thirteen.progress import moves_with_progress
from rummykit.games.three_thirteen.rules import hand_size

HINT_WORK: Final = 9000
"""A hint searches ``HINT_WORK // (players * cards dealt)`` iterations: an iteration plays
the round out, so it costs about as much as there are players and cards in each hand
(1,500 iterations in the first round of two players, 173 in the last round of four).  Over
the positions of the recorded games (tests/golden) a hint took 0.6 to 0.8 s of one core
for most positions, at most 1.1 s."""
MISTAKE_POINTS: Final = 3.0
"""A review calls a play a mistake only when the better play saves at least this many
penalty points in the round: more than a low card's worth."""


def _points_per_reward(observation: Any) -> float:
    return float(reward_scale(observation.round_number))


def _hint_iterations(observation: Any) -> int:
    work = len(observation.hand_sizes) * hand_size(observation.round_number)
    return max(1, HINT_WORK // work)


BOTS: Final = GameBots(
    greedy=ThreeThirteenGreedyBot,
    search=ThreeThirteenSearch,
    points_per_reward=_points_per_reward,
    hint_iterations=_hint_iterations,
    mistake_points=MISTAKE_POINTS,
    moves_with_progress=moves_with_progress,
    pile_reading=ThreeThirteenPile,
)
