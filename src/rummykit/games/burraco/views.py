"""What each player is shown: the observation of a table, and the full deal event.

The rules of DESIGN.md section 3 live here: a player sees their own hand, everything
public on the table, and never the other hand's unseen cards, the stock order or a
pozzetto's cards (``events.seen_by`` hides the same things in the event log).  These
functions only read; they never change a game.
"""

from __future__ import annotations

from rummykit.cards import sorted_cards
from rummykit.games.burraco.events import HandDealt
from rummykit.games.burraco.observation import Observation, TableMeld
from rummykit.games.burraco.results import HandResult
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.table import Table


def dealt_event(table: Table) -> HandDealt:
    """The full record of a fresh deal (everything in it; see ``events.seen_by``)."""
    return HandDealt(
        hand_number=table.hand_number,
        dealer=table.dealer,
        first_player=table.player,
        hands=tuple(tuple(hand) for hand in table.hands),
        pozzetti=tuple(table.pozzetti),
        discard_pile=tuple(table.discard_pile),
        stock_count=len(table.stock),
    )


def observe(
    table: Table,
    *,
    player: int,
    rules: Rules,
    totals: tuple[int, ...],
    hand_results: tuple[HandResult, ...],
    hand_over: bool,
    winners: tuple[int, ...] | None,
) -> Observation:
    """``player``'s view of ``table`` (``winners`` is ``None`` while the game goes on)."""
    over = winners is not None
    hand = table.hands[player]
    restricted_card = None if over or not table.restricted else table.restricted_card
    forbidden = None
    if (
        restricted_card is not None
        and table.player == player
        and hand.count(restricted_card) <= table.restricted
    ):
        forbidden = restricted_card
    return Observation(
        player=player,
        rules=rules,
        hand_number=table.hand_number,
        dealer=table.dealer,
        current_player=None if over else table.player,
        phase="over" if over else table.phase,
        turn=table.turn,
        hand=tuple(sorted_cards(hand)),
        hand_sizes=tuple(len(h) for h in table.hands),
        stock_count=len(table.stock),
        discard_pile=tuple(table.discard_pile),
        discard_history=tuple(table.discard_history),
        known_cards=tuple(tuple(sorted_cards(cards)) for cards in table.known),
        melds=tuple(
            TableMeld(meld_id, owner, meld)
            for meld_id, (meld, owner) in enumerate(zip(table.melds, table.owners, strict=True))
        ),
        pozzetti_left=table.pozzetti_left(),
        took_pozzetto=tuple(table.took_pozzetto),
        restricted_card=restricted_card,
        forbidden_discard=forbidden,
        hand_results=hand_results,
        totals=totals,
        hand_over=hand_over,
        game_over=over,
        winners=winners or (),
    )
