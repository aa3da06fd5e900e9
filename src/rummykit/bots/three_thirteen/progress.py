"""Three-Thirteen's moves that keep a round moving (:mod:`rummykit.bots.progress`).

Taking the top discard and discarding it again is legal and changes nothing; the bots
never discard a face they took from the discard pile since anyone last drew from the
stock (unless no other discard is open; going out is always open), and never take the
top discard when their hand would then hold nothing else to discard.  Read from the
observation alone: its discard pile, its history and the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.bots.progress import PileMove, faces_taken, taking_stalls, without_throwbacks
from rummykit.cards import Card
from rummykit.games.three_thirteen.actions import DRAW_STOCK, TAKE_DISCARD, Discard
from rummykit.games.three_thirteen.observation import Observation


def faces_taken_back(observation: Observation) -> frozenset[Card]:
    """The faces the observer may not throw back now
    (:func:`~rummykit.bots.progress.faces_taken`)."""
    moves: list[PileMove] = [
        (move.kind, move.player, (move.card,)) for move in observation.discard_history
    ]
    return faces_taken(moves, observation.player, drawing=observation.phase == "draw")


def take_goes_round(observation: Observation, faces: frozenset[Card] | None = None) -> bool:
    """Would taking the top discard leave the observer nothing to discard but cards
    taken back (:func:`~rummykit.bots.progress.taking_stalls`)?  Only in the draw phase."""
    pile = observation.discard_pile
    if observation.phase != "draw" or not pile:
        return False
    if faces is None:
        faces = faces_taken_back(observation)
    return taking_stalls(observation.hand, pile[-1], faces)


def _discarded(action: Any) -> Card | None:
    return action.card if type(action) is Discard else None


def moves_with_progress(observation: Observation, legal_actions: Sequence[Any]) -> list[Any]:
    """``legal_actions`` less the moves that would let the round go round in circles:
    taking the top discard when :func:`take_goes_round` (and the stock is open), and the
    discards of faces taken back (unless no other discard is open).  After someone went
    out the round ends anyway, and every move stays."""
    if observation.went_out is not None:
        return list(legal_actions)
    faces = faces_taken_back(observation)
    if observation.phase == "draw":
        if (
            DRAW_STOCK in legal_actions
            and TAKE_DISCARD in legal_actions
            and take_goes_round(observation, faces)
        ):
            return [action for action in legal_actions if action != TAKE_DISCARD]
        return list(legal_actions)
    return without_throwbacks(legal_actions, faces, _discarded)
