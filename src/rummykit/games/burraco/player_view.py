"""A cheap view of what one Burraco player sees, for code that reads it every move.

``State.observation`` builds the complete, frozen :class:`.Observation` (hand results,
winners, a :class:`.TableMeld` per meld, JSON round trip).  A learning environment that
encodes the table after every move needs only the table itself, so
``State.player_view`` hands out a :class:`PlayerView`: the observation's table fields
under the same names and with the same values, taken from the same places by the same
rules (:func:`.views.observe`) and nothing else.  The melds come as two tuples,
``table_melds`` (meld ``k`` is the one with id ``k``) and ``owners``, instead of
``TableMeld`` values.  It shows the player's own hand, public counts and piles, the
pile's history, the cards each player was seen to take with the pile and still holds,
the melds and the running totals; never the other hand's unseen cards, the stock's
order, a pozzetto's cards or the seed.  Its parts are tuples or numbers, so later moves
do not change a view.
"""

from __future__ import annotations

from rummykit.cards import Card, sorted_cards
from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.observation import ObservedPhase
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.table import PileEntry, Table


class PlayerView:
    """The table as ``player`` sees it; each field but ``table_melds`` and ``owners``
    equals the :class:`.Observation` field of the same name."""

    __slots__ = (
        "current_player",
        "dealer",
        "discard_history",
        "discard_pile",
        "forbidden_discard",
        "hand",
        "hand_number",
        "hand_sizes",
        "known_cards",
        "owners",
        "phase",
        "player",
        "pozzetti_left",
        "restricted_card",
        "rules",
        "stock_count",
        "table_melds",
        "took_pozzetto",
        "totals",
        "turn",
    )

    player: int
    rules: Rules
    hand_number: int
    dealer: int
    current_player: int | None
    phase: ObservedPhase
    turn: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_count: int
    discard_pile: tuple[Card, ...]
    discard_history: tuple[PileEntry, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    table_melds: tuple[Meld, ...]
    owners: tuple[int, ...]
    pozzetti_left: tuple[int, ...]
    took_pozzetto: tuple[bool, ...]
    restricted_card: Card | None
    forbidden_discard: Card | None
    totals: tuple[int, ...]


def player_view(
    table: Table, *, player: int, rules: Rules, totals: tuple[int, ...], over: bool
) -> PlayerView:
    """``player``'s view of ``table`` (``player`` already checked; ``over``: the game is
    over).  The same choices as :func:`.views.observe`."""
    view = object.__new__(PlayerView)
    hand = table.hands[player]
    restricted_card = None if over or not table.restricted else table.restricted_card
    forbidden = None
    if (
        restricted_card is not None
        and table.player == player
        and hand.count(restricted_card) <= table.restricted
    ):
        forbidden = restricted_card
    view.player = player
    view.rules = rules
    view.hand_number = table.hand_number
    view.dealer = table.dealer
    view.current_player = None if over else table.player
    view.phase = "over" if over else table.phase
    view.turn = table.turn
    view.hand = tuple(sorted_cards(hand))
    view.hand_sizes = tuple(map(len, table.hands))
    view.stock_count = len(table.stock)
    view.discard_pile = tuple(table.discard_pile)
    view.discard_history = tuple(table.discard_history)
    view.known_cards = tuple(map(tuple, map(sorted_cards, table.known)))
    view.table_melds = tuple(table.melds)
    view.owners = tuple(table.owners)
    view.pozzetti_left = table.pozzetti_left()
    view.took_pozzetto = tuple(table.took_pozzetto)
    view.restricted_card = restricted_card
    view.forbidden_discard = forbidden
    view.totals = totals
    return view
