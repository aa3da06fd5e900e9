"""A cheap view of what one Three-Thirteen player sees, for code that reads it every move.

``State.observation`` builds the complete, frozen :class:`.Observation` (round results,
winners, JSON round trip).  A learning environment that encodes the table after every
move needs only the table itself, so ``State.player_view`` hands out a
:class:`PlayerView`: the same fields, under the same names and with the same values, as
the observation's table fields, taken from the same places and nothing else.  It shows
the player's own hand, public counts and piles, the round's pile history, the cards each
player was seen to take and still holds, the melds laid down and the running totals;
never another hand, the stock's order or the seed.  Its parts are tuples or numbers,
so later moves do not change a view.

:func:`table_parts` is cheaper still, for a reader that keeps its own copies: the same
fields as the engine holds them, lists it must neither change nor keep (they change
with the next move), unsorted hands and raw pile moves.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from rummykit.cards import Card
from rummykit.games.three_thirteen.rounds import Round
from rummykit.games.three_thirteen.rules import Rules
from rummykit.games.three_thirteen.table import PileMove, PileMoveKind, TableMeld


class PlayerView:
    """The table as ``player`` sees it; each field equals the :class:`.Observation`
    field of the same name (``hand`` and ``known_cards`` sorted by card code)."""

    __slots__ = (
        "current_player",
        "dealer",
        "discard_history",
        "discard_pile",
        "hand",
        "hand_sizes",
        "known_cards",
        "last_turns_remaining",
        "melds",
        "phase",
        "player",
        "reshuffled",
        "round_number",
        "rules",
        "stock_count",
        "totals",
        "turn",
        "went_out",
        "wild_rank",
    )

    player: int
    rules: Rules
    round_number: int
    wild_rank: int
    dealer: int
    current_player: int | None
    phase: Literal["draw", "discard", "over"]
    turn: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_count: int
    discard_pile: tuple[Card, ...]
    discard_history: tuple[PileMove, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    melds: tuple[TableMeld, ...]
    reshuffled: bool
    went_out: int | None
    last_turns_remaining: int
    totals: tuple[int, ...]


def player_view(
    table: Round, *, player: int, rules: Rules, totals: list[int], game_over: bool
) -> PlayerView:
    """``player``'s view of the round ``table`` (``player`` already checked)."""
    view = object.__new__(PlayerView)
    view.player = player
    view.rules = rules
    view.round_number = table.number
    view.wild_rank = table.wild_rank
    view.dealer = table.dealer
    view.current_player = None if game_over else table.current
    view.phase = "over" if game_over else table.phase
    view.turn = table.turn
    view.hand = tuple(sorted(table.hands[player]))
    view.hand_sizes = tuple(map(len, table.hands))
    view.stock_count = len(table.stock)
    view.discard_pile = tuple(table.discard_pile)
    view.discard_history = table.discard_history()
    view.known_cards = tuple(map(tuple, map(sorted, table.taken)))
    view.melds = tuple(table.table_melds)
    view.reshuffled = table.reshuffled
    view.went_out = table.went_out
    view.last_turns_remaining = table.last_turns
    view.totals = tuple(totals)
    return view


class TableParts(NamedTuple):
    """The fields of a :class:`PlayerView` as the round holds them, read in place.

    The lists are the round's own: valid until the next move, never to be changed or
    kept.  ``hand`` is the player's hand in the order the round holds it (cards drawn
    or taken are appended, a discard removes its first copy); ``taken[seat]`` the cards
    ``seat`` was seen to take and still holds, in the same way (each equals
    ``known_cards[seat]`` once sorted); ``history`` the round's pile moves as
    ``(player, kind, card)`` tuples, oldest first, each tuple staying the same object
    for the rest of the round.  The other fields equal the view's.
    """

    player: int
    rules: Rules
    hand: list[Card]
    discard_pile: list[Card]
    taken: list[list[Card]]
    melds: list[TableMeld]
    history: list[tuple[int, PileMoveKind, Card]]
    hand_sizes: tuple[int, ...]
    totals: list[int]
    round_number: int
    wild_rank: int
    dealer: int
    current_player: int | None
    phase: Literal["draw", "discard", "over"]
    went_out: int | None
    stock_count: int
    reshuffled: bool
    last_turns_remaining: int
    turn: int


_new_parts = tuple.__new__


def table_parts(
    table: Round, *, player: int, rules: Rules, totals: list[int], game_over: bool
) -> TableParts:
    """``player``'s fields of the round ``table``, in place (``player`` already checked).

    Built with ``tuple.__new__``: the named tuple's own constructor costs about a
    microsecond more for its nineteen fields, which is most of this call.
    """
    return _new_parts(
        TableParts,
        (
            player,
            rules,
            table.hands[player],
            table.discard_pile,
            table.taken,
            table.table_melds,
            table.history,
            tuple(map(len, table.hands)),
            totals,
            table.number,
            table.wild_rank,
            table.dealer,
            None if game_over else table.current,
            "over" if game_over else table.phase,
            table.went_out,
            len(table.stock),
            table.reshuffled,
            table.last_turns,
            table.turn,
        ),
    )
