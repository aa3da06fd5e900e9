"""What happened in a Three-Thirteen game, one frozen value per happening.

Every applied action yields at least one event; the list of events is the game's record
as the server broadcasts it.  :func:`event_for` hides what a player may not see (another
player's dealt hand or card drawn from the stock) by putting ``None`` in its place.
Events describe; they never change a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.cards import Card, format_card
from rummykit.games import core
from rummykit.games.three_thirteen.scoring import RoundResult
from rummykit.games.three_thirteen.table import TableMeld


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundDealt:
    """A round was dealt: each hand (sorted; ``None`` where hidden), the up-card, the stock."""

    round_number: int
    wild_rank: int
    dealer: int
    hands: tuple[tuple[Card, ...] | None, ...]
    discard_top: Card
    stock_count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "round_dealt",
            "round_number": self.round_number,
            "wild_rank": self.wild_rank,
            "dealer": self.dealer,
            "hands": [None if hand is None else core.cards_to_json(hand) for hand in self.hands],
            "discard_top": format_card(self.discard_top),
            "stock_count": self.stock_count,
        }


@dataclass(frozen=True, slots=True)
class StockDrawn:
    """``player`` drew the top stock card (``None`` for those who may not see it)."""

    player: int
    card: Card | None

    def to_json(self) -> dict[str, Any]:
        card = None if self.card is None else format_card(self.card)
        return {"type": "stock_drawn", "player": self.player, "card": card}


@dataclass(frozen=True, slots=True)
class DiscardTaken:
    """``player`` took ``card`` from the top of the discard pile."""

    player: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard_taken", "player": self.player, "card": format_card(self.card)}


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """``player`` ended the turn by discarding ``card``."""

    player: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "card_discarded", "player": self.player, "card": format_card(self.card)}


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
            "type": "went_out",
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
            "type": "stock_reshuffled",
            "round_number": self.round_number,
            "stock_count": self.stock_count,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnded:
    """A round is over: every arrangement laid down, the scores and the running totals."""

    result: RoundResult
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "round_ended", "result": self.result.to_json(), "totals": list(self.totals)}


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded:
    """The last round is over: the lowest total wins; equal lowest totals share the win."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "game_ended", "totals": list(self.totals), "winners": list(self.winners)}


Event = (
    RoundDealt
    | StockDrawn
    | DiscardTaken
    | CardDiscarded
    | WentOut
    | StockReshuffled
    | RoundEnded
    | GameEnded
)


def event_for(event: Event, player: int) -> Event:
    """``event`` as ``player`` may see it: others' dealt hands and stock draws hidden."""
    if isinstance(event, StockDrawn):
        if event.player != player and event.card is not None:
            return StockDrawn(event.player, None)
        return event
    if isinstance(event, RoundDealt):
        return RoundDealt(
            round_number=event.round_number,
            wild_rank=event.wild_rank,
            dealer=event.dealer,
            hands=tuple(hand if seat == player else None for seat, hand in enumerate(event.hands)),
            discard_top=event.discard_top,
            stock_count=event.stock_count,
        )
    return event
