"""What happened in a Three-Thirteen game, one frozen value per happening.

Every applied action yields at least one event; the list of events is the game's record
as the server broadcasts it.  :func:`seen_by` hides what a player may not see (another
player's dealt hand or card drawn from the stock) by putting ``None`` in its place.
What both games have in common carries the same name in both (a round is a "hand" in
``hand_dealt`` and ``hand_ended``, as in ``State.hand_number``), and the draw and the
discard are the very classes of :mod:`rummykit.games.events`; docs/observations.md
lists every event's JSON.  Events describe; they never change a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.cards import Card, format_card
from rummykit.games import core
from rummykit.games.events import Discarded, GameEnded, StockDrawn, seen_by
from rummykit.games.three_thirteen.scoring import RoundResult
from rummykit.games.three_thirteen.table import TableMeld
from rummykit.games.visibility import own_seat_only


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt:
    """A round was dealt: each hand (sorted; ``None`` where hidden), the up-card (the whole
    discard pile), the stock; ``first_player`` plays first."""

    hand_number: int
    round_number: int
    wild_rank: int
    dealer: int
    first_player: int
    hands: tuple[tuple[Card, ...] | None, ...]
    discard_pile: tuple[Card, ...]
    stock_count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "hand_dealt",
            "hand_number": self.hand_number,
            "round_number": self.round_number,
            "wild_rank": self.wild_rank,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "hands": [None if hand is None else core.cards_to_json(hand) for hand in self.hands],
            "discard_pile": core.cards_to_json(self.discard_pile),
            "stock_count": self.stock_count,
        }

    def seen_by(self, player: int) -> HandDealt:
        """The deal as ``player`` sees it: the own hand only."""
        return HandDealt(
            hand_number=self.hand_number,
            round_number=self.round_number,
            wild_rank=self.wild_rank,
            dealer=self.dealer,
            first_player=self.first_player,
            hands=own_seat_only(self.hands, player),
            discard_pile=self.discard_pile,
            stock_count=self.stock_count,
        )


@dataclass(frozen=True, slots=True)
class DiscardTaken:
    """``player`` took ``card`` from the top of the discard pile."""

    player: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"event": "discard_taken", "player": self.player, "card": format_card(self.card)}


@dataclass(frozen=True, slots=True, kw_only=True)
class WentOut:
    """``player`` went out: laid ``melds`` down and discarded ``discard``.

    Every other player now has one last turn.
    """

    player: int
    melds: tuple[TableMeld, ...]
    discard: Card

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "went_out",
            "player": self.player,
            "melds": [meld.to_json() for meld in self.melds],
            "discard": format_card(self.discard),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class StockReshuffled:
    """The stock ran out: the discard pile but its top card became the new stock."""

    round_number: int
    stock_count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "stock_reshuffled",
            "round_number": self.round_number,
            "stock_count": self.stock_count,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded:
    """A round is over: every arrangement laid down, the scores and the running totals."""

    hand_number: int
    result: RoundResult
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "hand_ended",
            "hand_number": self.hand_number,
            "result": self.result.to_json(),
            "totals": list(self.totals),
        }


Event = (
    HandDealt
    | StockDrawn
    | DiscardTaken
    | Discarded
    | WentOut
    | StockReshuffled
    | HandEnded
    | GameEnded
)


__all__ = [
    "DiscardTaken",
    "Discarded",
    "Event",
    "GameEnded",
    "HandDealt",
    "HandEnded",
    "StockDrawn",
    "StockReshuffled",
    "WentOut",
    "seen_by",
]
