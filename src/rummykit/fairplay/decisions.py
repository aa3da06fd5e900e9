"""One decision weighed by the strongest bot: was it a real choice, did the played move
follow the bot, and what did it cost?

The search is the Hard bot's (:mod:`rummykit.bots.ismcts`, the game's adapter), with the
played move always among the root's candidates (:func:`~rummykit.bots.searched_move.including`),
so that every candidate, the played one included, is played on the same simulated deals
(paired rounds).  Its seed comes from what the seat saw and a salt
(:func:`assessment_seed`), never from anything hidden, so anyone holding the record gets
the same figures.

- A decision is a **real choice** when at least two moves were searched and their mean
  values differ by at least :data:`REAL_SHARE` of the game's ``mistake_points``.
- It is **telling** when the search's move is not the one its guide (the game's plain
  heuristic player) would make: a plain player follows the guide by nature, and only
  moves that beat it show help from a search.  The telling decisions carry most of the
  evidence (:mod:`.seat`).
- Its **loss** is the paired difference between the search's move and the played one,
  in the game's points (never below 0; 0 when the played move is the search's).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rummykit.bots.by_game import bots_for
from rummykit.bots.hints import hint_seed
from rummykit.bots.ismcts import ISMCTSBot, paired_gain
from rummykit.bots.searched_move import including

REAL_SHARE: Final = 0.25
"""A real choice: the searched moves' values spread over at least this share of the
game's ``mistake_points`` (5 points of a Burraco hand, 0.75 of a Three-Thirteen round)."""
SALT: Final = "rummykit-fairplay/v1"


@dataclass(frozen=True, slots=True)
class DecisionFigures:
    """What the search made of one decision: ``choices`` (how many moves it searched),
    ``spread`` (its difficulty: the searched moves' best mean minus their worst, in
    points) and ``loss`` in the game's points."""

    real: bool
    matched: bool
    telling: bool
    loss: float
    spread: float
    choices: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "real": self.real,
            "matched": self.matched,
            "telling": self.telling,
            "loss": round(self.loss, 2),
            "spread": round(self.spread, 2),
            "choices": self.choices,
        }


FORCED: Final = DecisionFigures(real=False, matched=True, telling=False, loss=0.0, spread=0.0)
"""A decision with one legal move (or one move worth searching)."""


def assessment_seed(observation: Mapping[str, Any], salt: str = "") -> int:
    """The search's seed at a decision: what the seat saw (engine JSON) and ``salt``."""
    return hint_seed(observation, f"{SALT}|{salt}")


def assess_decision(
    game_name: str,
    observation: Any,
    legal: Sequence[Any],
    played: Any,
    *,
    iterations: int,
    seed: int,
) -> DecisionFigures:
    """Search the decision (``iterations`` in all) and weigh the ``played`` move."""
    if played not in legal:
        raise ValueError("the played move is not legal there")
    if len(legal) < 2:
        return FORCED
    bots = bots_for(game_name)
    adapter = bots.search()
    guide = adapter.guide.decide(observation, legal, random.Random(seed)).action
    bot = ISMCTSBot(including(adapter, played), iterations=iterations)
    best = bot.decide(observation, legal, random.Random(seed)).action
    rounds = {action: rewards for action, rewards in bot.last_rounds.items() if rewards}
    if len(rounds) < 2 or played not in rounds:
        return FORCED
    scale = bots.points_per_reward(observation)
    means = [sum(rewards) / len(rewards) for rewards in rounds.values()]
    spread = (max(means) - min(means)) * scale
    loss = 0.0
    if best != played:
        count = min(len(rounds[best]), len(rounds[played]))
        gain, _ = paired_gain(rounds[best][:count], rounds[played][:count])
        loss = max(0.0, gain * scale)
    return DecisionFigures(
        real=spread >= REAL_SHARE * bots.mistake_points,
        matched=best == played,
        telling=best != guide,
        loss=loss,
        spread=spread,
        choices=len(rounds),
    )
