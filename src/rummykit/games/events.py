"""The events both games write the same way: a card drawn from the stock, a discard,
the end of the game.

A game's own events module imports these and puts them in its ``Event`` union, so the
two games' records share one class (and one JSON form) for what they have in common;
:func:`seen_by`, what a player may see of any event, is one function for both.
What differs between the games keeps its own class there: the deal and the end of a hand
(Burraco's reason and closer, Three-Thirteen's running totals).
Events describe; they never change a state.

>>> from rummykit.cards import parse_card
>>> StockDrawn(1, parse_card("7h")).to_json()
{'event': 'stock_drawn', 'player': 1, 'card': '7h'}
>>> StockDrawn(1, parse_card("7h")).seen_by(0)
StockDrawn(player=1, card=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar, cast

from rummykit.cards import Card, format_card

EventT = TypeVar("EventT")


def seen_by(event: EventT, player: int) -> EventT:
    """``event`` as ``player`` may see it, in either game.

    An event that holds something private (a dealt hand, a card drawn from the stock, a
    pozzetto's cards) has a ``seen_by(player)`` method that puts ``None`` in its place;
    any other event is seen whole.

    >>> from rummykit.cards import parse_card
    >>> seen_by(Discarded(0, parse_card("Qh")), 1) == Discarded(0, parse_card("Qh"))
    True
    """
    hide = getattr(event, "seen_by", None)
    return event if hide is None else cast(EventT, hide(player))


@dataclass(frozen=True, slots=True)
class StockDrawn:
    """``player`` drew the top stock card (``None`` for those who may not see it)."""

    player: int
    card: Card | None

    def to_json(self) -> dict[str, Any]:
        card = None if self.card is None else format_card(self.card)
        return {"event": "stock_drawn", "player": self.player, "card": card}

    def seen_by(self, player: int) -> StockDrawn:
        """The draw as ``player`` sees it: the card only by the one who drew it."""
        if player == self.player or self.card is None:
            return self
        return StockDrawn(self.player, None)


@dataclass(frozen=True, slots=True)
class Discarded:
    """``player`` ended the turn by discarding ``card`` (everyone sees it)."""

    player: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"event": "discarded", "player": self.player, "card": format_card(self.card)}


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over: ``winners`` (several when they share the best total; Burraco's
    best is the highest, Three-Thirteen's the lowest) and every player's final total.

    >>> GameEnded(winners=(1,), totals=(40, 55)).to_json()
    {'event': 'game_ended', 'winners': [1], 'totals': [40, 55]}
    """

    winners: tuple[int, ...]
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"event": "game_ended", "winners": list(self.winners), "totals": list(self.totals)}
