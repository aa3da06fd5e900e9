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

At four, partners may share what they hold out of band.  :func:`partner_figures`
searches the decision again as if the seat saw its partner's hand (every one of its
simulated deals gives the partner the cards the partner really held), which is what
the ACBL's EDGAR does for bridge partnerships: a decision *tells of the partner* when
that search's move differs from the plain one, and the played move's **partner gain** is
how much better it does than the plain search's move once the partner's hand is known.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
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
    best: Any = None
    """The search's move (``None`` when the decision was forced)."""


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
        best=best,
    )


@dataclass(frozen=True, slots=True)
class PartnerFigures:
    """One decision searched again with the partner's hand known: whether the move then
    differs (``telling``), whether the played move is that move (``matched``), and the
    played move's gain over the plain search's move, in the game's points."""

    telling: bool
    matched: bool
    gain: float


def partner_figures(
    game_name: str,
    observation: Any,
    partner: int,
    partner_hand: Sequence[Any],
    legal: Sequence[Any],
    played: Any,
    plain: DecisionFigures,
    *,
    iterations: int,
    seed: int,
) -> PartnerFigures | None:
    """The decision searched as if its seat saw ``partner_hand`` (``partner``'s real
    cards), for a game whose observation lists the cards known in each seat's hand
    (``known_cards``); ``None`` for a forced decision or another game."""
    known = getattr(observation, "known_cards", None)
    if plain.best is None or known is None:
        return None
    seeing = replace(
        observation,
        known_cards=tuple(
            tuple(partner_hand) if seat == partner else cards for seat, cards in enumerate(known)
        ),
    )
    bots = bots_for(game_name)
    adapter = including(bots.search(), played)
    bot = ISMCTSBot(including(adapter, plain.best), iterations=iterations)
    best = bot.decide(seeing, legal, random.Random(seed)).action
    rounds = bot.last_rounds
    gain = 0.0
    mine, theirs = rounds.get(played, []), rounds.get(plain.best, [])
    count = min(len(mine), len(theirs))
    if played != plain.best and count:
        difference, _ = paired_gain(mine[:count], theirs[:count])
        gain = difference * bots.points_per_reward(observation)
    return PartnerFigures(telling=best != plain.best, matched=best == played, gain=gain)
