"""Dealing a round and reshuffling the discard pile, exactly as docs/engine.md documents.

Round ``r`` shuffles a fresh deck with ``SeedStream(seed, f"round/{r}")``, deals from the
end of the list (``pop()``) one card at a time to each player starting left of the
dealer (the next index) until every hand holds ``r + 2`` cards, turns one card up to
start the discard pile and leaves the rest as the stock (top = end of the list).  The
one reshuffle a round allows takes the discard pile but its top card, bottom to top,
shuffles it with ``SeedStream(seed, f"round/{r}/reshuffle")`` and makes it the stock.

These functions only move cards between lists; they never decide whether a deal or a
reshuffle is due (that is the turn flow's job) and never use the ``random`` module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.games.randomness import SeedStream
from rummykit.games.three_thirteen.rules import Rules, hand_size


@dataclass(slots=True)
class Deal:
    """The cards of a freshly dealt round: hands by player, the discard pile, the stock."""

    hands: list[list[Card]]
    discard_pile: list[Card]
    stock: list[Card]


def first_dealer(seed: int, players: int) -> int:
    """The dealer of the first round: ``SeedStream(seed, "first-dealer").below(players)``."""
    return SeedStream(seed, "first-dealer").below(players)


def dealer_of(first: int, hand_number: int, players: int) -> int:
    """The dealer of the ``hand_number``-th round played (0-based); the deal passes left.

    >>> [dealer_of(2, k, 3) for k in range(4)]
    [2, 0, 1, 2]
    """
    return (first + hand_number) % players


def deal_round(
    *,
    rules: Rules,
    seed: int,
    round_number: int,
    dealer: int,
    deck: Sequence[Card] | None = None,
) -> Deal:
    """Deal round ``round_number``; ``deck`` (already in dealing order) replaces the shuffle.

    >>> deal = deal_round(rules=Rules(), seed=1, round_number=1, dealer=0)
    >>> [len(hand) for hand in deal.hands], len(deal.discard_pile), len(deal.stock)
    ([3, 3], 1, 45)
    """
    if deck is None:
        cards = rules.deck()
        SeedStream(seed, f"round/{round_number}").shuffle(cards)
    else:
        cards = list(deck)
    players = rules.players
    order = [(dealer + offset) % players for offset in range(1, players + 1)]
    hands: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(hand_size(round_number)):
        for player in order:
            hands[player].append(cards.pop())
    discard_pile = [cards.pop()]
    return Deal(hands=hands, discard_pile=discard_pile, stock=cards)


def reshuffle(*, seed: int, round_number: int, discard_pile: list[Card]) -> list[Card]:
    """Take all but the top card out of ``discard_pile`` (in place) and return them shuffled.

    >>> pile = [1, 2, 3, 4]
    >>> stock = reshuffle(seed=5, round_number=2, discard_pile=pile)
    >>> pile, sorted(stock)
    ([4], [1, 2, 3])
    """
    stock = discard_pile[:-1]
    del discard_pile[:-1]
    SeedStream(seed, f"round/{round_number}/reshuffle").shuffle(stock)
    return stock
