"""Burraco's moves that keep a hand moving (:mod:`rummykit.bots.progress`).

After taking a pile of one card a player may throw back its twin, which changes
nothing; the bots never discard a face they took alone from the pile since anyone last
drew from the stock (unless no other discard is open), and never take the pile's one
card when their hand would then hold nothing else to discard.  Read from the
observation alone: its discard pile, its history and the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.bots.progress import PileMove, faces_taken, taking_stalls, without_throwbacks
from rummykit.cards import Card
from rummykit.games.burraco import Discard, DrawStock, Observation, TakePile


def faces_taken_back(observation: Observation) -> frozenset[Card]:
    """The faces the observer may not throw back now
    (:func:`~rummykit.bots.progress.faces_taken`)."""
    moves: list[PileMove] = [
        (entry.kind, entry.player, entry.cards) for entry in observation.discard_history
    ]
    return faces_taken(moves, observation.player, drawing=observation.phase == "draw")


def take_goes_round(observation: Observation, faces: frozenset[Card] | None = None) -> bool:
    """Would taking the pile (one card) leave the observer nothing to discard but cards
    taken back (:func:`~rummykit.bots.progress.taking_stalls`)?  Only in the draw phase."""
    pile = observation.discard_pile
    if observation.phase != "draw" or len(pile) != 1:
        return False
    if faces is None:
        faces = faces_taken_back(observation)
    return taking_stalls(observation.hand, pile[0], faces)


def _discarded(action: Any) -> Card | None:
    return action.card if type(action) is Discard else None


def moves_with_progress(observation: Observation, legal_actions: Sequence[Any]) -> list[Any]:
    """``legal_actions`` less the moves that would let the hand go round in circles: the
    take of a one-card pile that :func:`take_goes_round` (when drawing is open), and the
    discards of faces taken back (unless no other discard is open)."""
    faces = faces_taken_back(observation)
    if observation.phase == "draw":
        if (
            DrawStock() in legal_actions
            and TakePile() in legal_actions
            and take_goes_round(observation, faces)
        ):
            return [action for action in legal_actions if type(action) is not TakePile]
        return list(legal_actions)
    return without_throwbacks(legal_actions, faces, _discarded)
