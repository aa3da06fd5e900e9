"""What happened in a Burraco game, one frozen value per step: the game record.

Every applied action yields at least one event; a deal, a pozzetto taken, a pozzetto
turned into the stock, the end of a hand and of the game are events too.  Fields that
some player may not see (another player's dealt hand or drawn card, a pozzetto's
cards) are ``None`` in :meth:`State.events_for` for that player: :func:`seen_by` says
which.  The draw and the discard are the events both games share
(:mod:`rummykit.games.events`).  The JSON of every event is listed in
docs/observations.md.  This module only describes events; it never changes a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.cards import Card
from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.results import EndReason, HandResult
from rummykit.games.core import cards_to_json
from rummykit.games.events import Discarded, GameEnded, StockDrawn, seen_by
from rummykit.games.visibility import own_seat_only


def _hidden_cards(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else cards_to_json(cards)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt:
    """A new hand: each player's 11 cards (two or four hands), the two pozzetti, the
    card turned up."""

    hand_number: int
    dealer: int
    first_player: int
    hands: tuple[tuple[Card, ...] | None, ...]
    pozzetti: tuple[tuple[Card, ...] | None, ...]
    discard_pile: tuple[Card, ...]
    stock_count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "hand_dealt",
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "hands": [_hidden_cards(h) for h in self.hands],
            "pozzetti": [_hidden_cards(p) for p in self.pozzetti],
            "discard_pile": cards_to_json(self.discard_pile),
            "stock_count": self.stock_count,
        }

    def seen_by(self, player: int) -> HandDealt:
        """The deal as ``player`` sees it: the own hand only, no pozzetto's cards."""
        return HandDealt(
            hand_number=self.hand_number,
            dealer=self.dealer,
            first_player=self.first_player,
            hands=own_seat_only(self.hands, player),
            pozzetti=tuple(None for _ in self.pozzetti),
            discard_pile=self.discard_pile,
            stock_count=self.stock_count,
        )


@dataclass(frozen=True, slots=True)
class PileTaken:
    """``player`` took the whole discard pile (bottom to top)."""

    player: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": "pile_taken", "player": self.player, "cards": cards_to_json(self.cards)}


@dataclass(frozen=True, slots=True)
class Melded:
    """``player`` laid a new meld with id ``meld_id``, arranged as ``meld``."""

    player: int
    meld_id: int
    meld: Meld

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "melded",
            "player": self.player,
            "meld_id": self.meld_id,
            "meld": self.meld.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Extended:
    """``player`` added ``cards`` to meld ``meld_id``, which now stands as ``meld``."""

    player: int
    meld_id: int
    cards: tuple[Card, ...]
    meld: Meld

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "extended",
            "player": self.player,
            "meld_id": self.meld_id,
            "cards": cards_to_json(self.cards),
            "meld": self.meld.to_json(),
        }


@dataclass(frozen=True, slots=True)
class PozzettoTaken:
    """``player`` emptied their hand and took pozzetto ``pozzetto`` (its cards are
    ``None`` for the other players)."""

    player: int
    pozzetto: int
    cards: tuple[Card, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "pozzetto_taken",
            "player": self.player,
            "pozzetto": self.pozzetto,
            "cards": _hidden_cards(self.cards),
        }

    def seen_by(self, player: int) -> PozzettoTaken:
        """The pozzetto's cards are seen by the player who took it only."""
        return self if player == self.player else PozzettoTaken(self.player, self.pozzetto, None)


@dataclass(frozen=True, slots=True)
class PozzettoToStock:
    """The stock ran out and pozzetto ``pozzetto`` became the new stock."""

    pozzetto: int

    def to_json(self) -> dict[str, Any]:
        return {"event": "pozzetto_to_stock", "pozzetto": self.pozzetto}


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded:
    """The hand is over and scored (``result`` holds each player's breakdown)."""

    hand_number: int
    reason: EndReason
    closer: int | None
    result: HandResult

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "hand_ended",
            "hand_number": self.hand_number,
            "reason": self.reason,
            "closer": self.closer,
            "result": self.result.to_json(),
        }


Event = (
    HandDealt
    | StockDrawn
    | PileTaken
    | Melded
    | Extended
    | Discarded
    | PozzettoTaken
    | PozzettoToStock
    | HandEnded
    | GameEnded
)


__all__ = [
    "Discarded",
    "Event",
    "Extended",
    "GameEnded",
    "HandDealt",
    "HandEnded",
    "Melded",
    "PileTaken",
    "PozzettoTaken",
    "PozzettoToStock",
    "StockDrawn",
    "seen_by",
]
