"""The Burraco deal, exactly as docs/engine.md specifies it, from a seed or a deck.

First dealer: ``SeedStream(seed, "first-dealer").below(players)``; the deal passes to
the next seat (clockwise) each hand, so with two players the dealer alternates.  Hand
``n`` (from 0) shuffles ``burraco_deck(jokers=...)`` with ``SeedStream(seed,
f"hand/{n}")``.  Cards are dealt from the **end** of the list, one at a time, starting
with the seat after the dealer and going round, 11 each; then pozzetto 0 (11 cards),
pozzetto 1 (11 cards), one card face up on the discard pile; the rest is the stock (top
= end).  The seat after the dealer plays first.  This module only deals; it never
plays.
"""

from __future__ import annotations

from rummykit.cards import Card, burraco_deck
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.table import HAND_SIZE, POZZETTO_SIZE, Table
from rummykit.games.randomness import SeedStream


def first_dealer(seed: int, players: int = 2) -> int:
    return SeedStream(seed, "first-dealer").below(players)


def dealer_of_hand(seed: int, hand_number: int, players: int = 2) -> int:
    return (first_dealer(seed, players) + hand_number) % players


def shuffled_deck(rules: Rules, seed: int, hand_number: int) -> list[Card]:
    """The deck of hand ``hand_number`` after its shuffle (dealt from the end)."""
    deck = burraco_deck(jokers=rules.jokers)
    SeedStream(seed, f"hand/{hand_number}").shuffle(deck)
    return deck


def deal(deck: list[Card], *, hand_number: int, dealer: int, players: int = 2) -> Table:
    """Deal ``deck`` (consumed from its end) into a new table of ``players``;
    ``ValueError`` if it is too small to deal."""
    needed = players * HAND_SIZE + 2 * POZZETTO_SIZE + 2
    if len(deck) < needed:
        raise ValueError(f"a Burraco deal needs at least {needed} cards, not {len(deck)}")
    deck = list(deck)
    hands: list[list[Card]] = [[] for _ in range(players)]
    order = [(dealer + 1 + i) % players for i in range(players)]
    for _ in range(HAND_SIZE):
        for player in order:
            hands[player].append(deck.pop())
    pozzetti: list[tuple[Card, ...] | None] = []
    for _ in range(2):
        pozzetti.append(tuple(deck.pop() for _ in range(POZZETTO_SIZE)))
    discard_pile = [deck.pop()]
    return Table(
        hand_number=hand_number,
        dealer=dealer,
        hands=hands,
        pozzetti=pozzetti,
        discard_pile=discard_pile,
        stock=deck,
    )
