"""Burraco's reading of the pile for the model of play of
:mod:`rummykit.bots.inference`: the hand's pile history (the card turned up, the
discards, the pile taken), its wild cards (the twos and the jokers) and a seat's hand in
a determinization."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.bots.inference import Evidence, pile_evidence
from rummykit.cards import Card
from rummykit.games.burraco.legality import is_wild_in_hand
from rummykit.games.burraco.observation import Observation
from rummykit.games.burraco.state import State


class BurracoPile:
    """The :class:`~rummykit.bots.inference.PileReading` of Burraco."""

    def evidence(self, observation: Observation) -> list[Evidence]:
        return pile_evidence(
            [
                (entry.player, entry.kind, entry.cards[-1] if entry.cards else -1)
                for entry in observation.discard_history
                if entry.cards or entry.kind == "take"
            ]
        )

    def wild(self, observation: Observation) -> Callable[[Card], bool]:
        return is_wild_in_hand

    def hand(self, state: State, seat: int) -> Sequence[Card]:
        return state.hand_of(seat)
