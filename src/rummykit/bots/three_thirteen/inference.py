"""Three-Thirteen's reading of the pile for the model of play of
:mod:`rummykit.bots.inference`: the round's pile moves, its wild cards (the round's wild
rank and the jokers) and a seat's hand in a determinization."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.bots.inference import Evidence, pile_evidence
from rummykit.cards import JOKER, RANK_OF, Card
from rummykit.games.three_thirteen.observation import Observation
from rummykit.games.three_thirteen.rules import wild_rank
from rummykit.games.three_thirteen.state import State


class ThreeThirteenPile:
    """The :class:`~rummykit.bots.inference.PileReading` of Three-Thirteen."""

    def evidence(self, observation: Observation) -> list[Evidence]:
        return pile_evidence(
            [(move.player, move.kind, move.card) for move in observation.discard_history]
        )

    def wild(self, observation: Observation) -> Callable[[Card], bool]:
        rank = wild_rank(observation.round_number)
        return lambda card: card == JOKER or RANK_OF[card] == rank

    def hand(self, state: State, seat: int) -> Sequence[Card]:
        return state.hand(seat)
