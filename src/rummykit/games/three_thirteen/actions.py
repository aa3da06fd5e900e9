"""The four things a Three-Thirteen player can do on a turn, as frozen hashable values.

A turn is a draw (``DrawStock`` or ``TakeDiscard``) followed by ``Discard`` or
``GoOut``.  Cards are named by face (an ``int`` of :mod:`rummykit.cards`).  These classes
only name an intent; whether it is legal is decided by ``State.check`` and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from rummykit.cards import CARD_COUNT, Card


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock."""


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile."""


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn by putting ``card`` on the discard pile."""

    card: Card


@dataclass(frozen=True, slots=True)
class GoOut:
    """Lay every card but ``card`` down in melds and discard ``card``: going out."""

    card: Card


Action = DrawStock | TakeDiscard | Discard | GoOut
ACTION_TYPES: Final = (DrawStock, TakeDiscard, Discard, GoOut)

# Shared instances: the legal-action generator hands these out instead of building new
# objects on every call (actions are immutable, so sharing them is safe).
DRAW_STOCK: Final = DrawStock()
TAKE_DISCARD: Final = TakeDiscard()
DISCARDS: Final[tuple[Discard, ...]] = tuple(Discard(card) for card in range(CARD_COUNT))
GO_OUTS: Final[tuple[GoOut, ...]] = tuple(GoOut(card) for card in range(CARD_COUNT))


class LegalOptions(NamedTuple):
    """The legal actions of a position as plain values (``State.legal_options``)."""

    draw_stock: bool
    take_discard: bool
    discards: list[Card]
    """The cards that may be discarded, each once, in code order."""
    going_out: tuple[Card, ...]
    """The cards whose discard goes out, in code order."""
