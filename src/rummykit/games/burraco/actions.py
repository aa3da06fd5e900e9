"""What a Burraco player can do on a turn, as small frozen values.

Cards are named by face (``rummykit.cards`` integers) and melds by their stable id
(ids count up from 0 within a hand, in the order the melds were laid).  An action says
*what* the player wants; whether it is legal is decided by ``State.check`` alone, so
this module never looks at a game.

The turn (RULES.md 1.2): in the ``draw`` phase :class:`DrawStock` or :class:`TakePile`;
in the ``play`` phase any number of :class:`Meld` and :class:`Extend`, then one
:class:`Discard`, which ends the turn.

>>> from rummykit.cards import parse_cards
>>> Meld(tuple(parse_cards("3h 4h 5h"))) == Meld(tuple(parse_cards("3h 4h 5h")))
True
>>> len({DrawStock(), DrawStock(), TakePile()})
2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rummykit.cards import CARD_COUNT, Card


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock."""


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the whole discard pile into the hand (never part of it)."""


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay a new meld (set or run) from the hand; the engine finds its arrangement.

    The order of ``cards`` does not matter to the rules; ``legal_actions`` lists each
    meld once, in the order of its arrangement (a run low to high, wild at its place).
    """

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Extend:
    """Add cards from the hand to one of the player's own melds (``meld_id``).

    This is also how a wild is replaced: adding the natural card it stands for.  Several
    cards are legal together when adding them one at a time in some order is legal.
    """

    meld_id: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card face up on the pile; this ends the turn."""

    card: Card


DISCARDS: Final = tuple(Discard(card) for card in range(CARD_COUNT))
"""``Discard(card)`` by card code, made once (actions are immutable values)."""

Action = DrawStock | TakePile | Meld | Extend | Discard
ACTION_TYPES = (DrawStock, TakePile, Meld, Extend, Discard)
