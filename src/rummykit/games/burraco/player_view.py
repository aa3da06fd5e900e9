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
the melds and the running totals; never another hand's unseen cards (a partner's
included), the stock's order, a pozzetto's cards or the seed.  Its parts are tuples
or numbers, so later moves do not change a view.

:func:`table_parts` is cheaper still, for a reader that keeps its own copies: the same
fields as the table holds them, lists it must neither change nor keep (they change with
the next move), an unsorted hand and the pile's :class:`.History` itself.
"""

from __future__ import annotations

from typing import NamedTuple

from rummykit.cards import Card, sorted_cards
from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.observation import ObservedPhase
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.table import PileEntry, Table
from rummykit.games.history import History


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
    forbidden = _forbidden(table, player, restricted_card)
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


def _forbidden(table: Table, player: int, restricted_card: Card | None) -> Card | None:
    """The card ``player`` may not discard now (the restricted card, while the hand
    holds no more copies of it than were taken alone from the pile)."""
    if (
        restricted_card is not None
        and table.player == player
        and table.hands[player].count(restricted_card) <= table.restricted
    ):
        return restricted_card
    return None


class TableParts(NamedTuple):
    """The fields of a :class:`PlayerView` as the table holds them, read in place.

    The lists and the history are the table's own: valid until the next move, never to
    be changed or kept.  ``hand`` is the player's hand in the order the table holds it;
    ``known[seat]`` the cards ``seat`` was seen to take with the pile and still holds
    (each equals ``known_cards[seat]`` once sorted); ``melds`` and ``owners`` are
    ``table_melds`` and ``owners`` as lists (a meld is an immutable value: a meld that
    grows is replaced by a new one); ``history`` is the hand's pile history, an
    append-only :class:`.History` whose items stay the same objects for the rest of
    the hand (a new hand has a new one).  The other fields equal the view's.
    """

    player: int
    rules: Rules
    hand: list[Card]
    discard_pile: list[Card]
    known: list[list[Card]]
    melds: list[Meld]
    owners: list[int]
    history: History[PileEntry]
    hand_sizes: tuple[int, ...]
    stock_count: int
    pozzetti_left: tuple[int, ...]
    took_pozzetto: list[bool]
    restricted_card: Card | None
    forbidden_discard: Card | None
    totals: list[int]
    hand_number: int
    dealer: int
    current_player: int | None
    phase: ObservedPhase
    turn: int


_new_parts = tuple.__new__


def table_parts(
    table: Table, *, player: int, rules: Rules, totals: list[int], over: bool
) -> TableParts:
    """``player``'s fields of ``table``, in place (``player`` already checked; ``over``:
    the game is over).

    Built with ``tuple.__new__``: the named tuple's own constructor costs about a
    microsecond more for its twenty fields, a third of this call.
    """
    restricted_card = None if over or not table.restricted else table.restricted_card
    hands = table.hands
    return _new_parts(
        TableParts,
        (
            player,
            rules,
            hands[player],
            table.discard_pile,
            table.known,
            table.melds,
            table.owners,
            table.discard_history,
            (len(hands[0]), len(hands[1])) if len(hands) == 2 else tuple(map(len, hands)),
            len(table.stock),
            table.pozzetti_left(),
            table.took_pozzetto,
            restricted_card,
            None if restricted_card is None else _forbidden(table, player, restricted_card),
            totals,
            table.hand_number,
            table.dealer,
            None if over else table.player,
            "over" if over else table.phase,
            table.turn,
        ),
    )
