"""Builders for Burraco test positions: a table laid out card by card, the rest of the
deck filled in so that every card of the game is somewhere."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummykit.cards import Card, burraco_deck, parse_card, parse_cards
from rummykit.games.burraco import Discard, DrawStock, Extend, Meld, Rules, State
from rummykit.games.burraco.dealing import first_dealer
from rummykit.games.burraco.events import Event, StockDrawn
from rummykit.games.burraco.melds import arrange
from rummykit.games.burraco.table import PileEntry, Table
from rummykit.games.history import History

BURRACO = "3d 4d 5d 6d 7d 8d 9d"
"""A clean burraco (seven of a suit in sequence, no wild card)."""


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def meld(text: str) -> Meld:
    return Meld(tuple(cards(text)))


def extend(meld_id: int, text: str) -> Extend:
    return Extend(meld_id, tuple(cards(text)))


def discard(text: str) -> Discard:
    return Discard(parse_card(text))


def position(**parts: Any) -> State:
    """A state in the middle of a hand, laid out by :func:`table_of` (same arguments)."""
    rules = parts.get("rules") or Rules()
    seed = parts.get("seed", 1)
    totals = parts.pop("totals", (0,) * len(parts["hands"]))
    table = table_of(**parts)
    return State.from_parts(rules=rules, seed=seed, table=table, totals=totals, hand_results=())


def table_of(
    *,
    hands: Sequence[str],
    melds: Sequence[tuple[int, str]] = (),
    pile: str = "",
    stock_top: str = "",
    stock_size: int | None = None,
    pozzetti: tuple[bool, bool] = (True, True),
    took: tuple[bool, bool] = (False, False),
    player: int = 0,
    phase: str = "play",
    rules: Rules | None = None,
    seed: int = 1,
    dealer: int | None = None,
) -> Table:
    """The table of a hand in play.

    ``hands`` are the two or four hands, ``melds`` (owning team, cards) are arranged by the melds
    module, ``pile`` is the discard pile bottom to top, ``stock_top`` the top cards of
    the stock (last = top).  The cards not named fill the pozzetti left (11 each), then
    the stock; ``stock_size`` caps the stock and puts the spare cards at the bottom of
    the discard pile.
    """
    rules = rules or Rules()
    spare = Counter(burraco_deck(jokers=rules.jokers))
    named = [c for hand in hands for c in cards(hand)]
    named += [c for _, meld in melds for c in cards(meld)]
    named += cards(pile) + cards(stock_top)
    spare.subtract(named)
    assert all(n >= 0 for n in spare.values()), "a card is named more often than the deck has it"
    rest = sorted(spare.elements())
    pozzetto_cards: list[tuple[Card, ...] | None] = []
    for present in pozzetti:
        if present:
            pozzetto_cards.append(tuple(rest[:11]))
            rest = rest[11:]
        else:
            pozzetto_cards.append(None)
    pile_cards = cards(pile)
    if stock_size is not None:
        extra = len(rest) + len(cards(stock_top)) - stock_size
        assert extra >= 0
        pile_cards = rest[:extra] + pile_cards
        rest = rest[extra:]
    table = Table(
        hand_number=0,
        dealer=first_dealer(seed, len(hands)) if dealer is None else dealer,
        hands=[cards(hand) for hand in hands],
        pozzetti=pozzetto_cards,
        discard_pile=pile_cards,
        stock=rest + cards(stock_top),
    )
    table.discard_history = History(
        [PileEntry("start", None, tuple(pile_cards[:1]))] if pile_cards else []
    )
    table.player = player
    table.phase = "play" if phase == "play" else "draw"
    for owner, meld_text in melds:
        meld = arrange(cards(meld_text))
        table.melds.append(meld)
        table.owners.append(owner)
        if meld.kind == "set":
            table.set_ranks[owner] |= 1 << meld.rank
        if meld.is_burraco:
            table.has_burraco[owner] = True
    table.took_pozzetto = list(took)
    return table


def stacked_deck(
    *,
    dealer_hand: str,
    other_hand: str,
    pozzetto0: str = "",
    pozzetto1: str = "",
    pile: str = "",
    stock_top: str = "",
    rules: Rules | None = None,
) -> list[Card]:
    """A deck list that ``State.new(..., deck=...)`` deals into these cards (the rest
    filled from the unnamed cards; the named hands and pozzetti must be complete when
    given)."""
    rules = rules or Rules()
    spare = Counter(burraco_deck(jokers=rules.jokers))
    parts = [cards(t) for t in (dealer_hand, other_hand, pozzetto0, pozzetto1, pile, stock_top)]
    for part in parts:
        spare.subtract(part)
    assert all(n >= 0 for n in spare.values())
    rest = sorted(spare.elements())

    def fill(part: list[Card], size: int) -> list[Card]:
        nonlocal rest
        need = size - len(part)
        out = part + rest[:need]
        rest = rest[need:]
        return out

    dealer_cards = fill(parts[0], 11)
    other_cards = fill(parts[1], 11)
    pozzetto_0 = fill(parts[2], 11)
    pozzetto_1 = fill(parts[3], 11)
    pile_cards = fill(parts[4], 1)
    popped: list[Card] = []
    for i in range(11):
        popped += [other_cards[i], dealer_cards[i]]
    popped += pozzetto_0 + pozzetto_1 + pile_cards
    stock = rest + parts[5]
    return stock + popped[::-1]


def draw_and_discard(state: State) -> list[Event]:
    """Draw from the stock and discard the card drawn; the events of both."""
    drawn = state.apply(DrawStock())[0]
    assert isinstance(drawn, StockDrawn) and drawn.card is not None
    return [drawn, *state.apply(Discard(drawn.card))]
