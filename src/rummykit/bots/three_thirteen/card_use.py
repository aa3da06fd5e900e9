"""How much a Three-Thirteen card is worth to an opponent or to one's own hand.

These are the tie-breaks of the greedy bot: when several discards leave the same least
deadwood (the exact solver decides that), the bot gives away the card the next player
shows the least use for and keeps the one with the most meld partners.  Everything here
reads only what an observation shows (the cards an opponent was seen taking and
discarding this round); it never looks at a hidden card, never calls the solver and
never draws a random number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import DEADWOOD_POINTS, JOKER, RANK_OF, SUIT_OF, Card
from rummykit.games.three_thirteen.observation import Observation

WILD_INTEREST = 100
"""What a wild is worth to an opponent: more than any natural card can be."""


def is_wild(card: Card, wild_rank: int) -> bool:
    """Whether ``card`` is wild in a round of ``wild_rank`` (the joker always is).

    >>> from rummykit.cards import parse_card
    >>> is_wild(parse_card("5c"), 5), is_wild(parse_card("Jk"), 5), is_wild(parse_card("6c"), 5)
    (True, True, False)
    """
    return card == JOKER or RANK_OF[card] == wild_rank


@dataclass(frozen=True, slots=True, kw_only=True)
class OpponentSigns:
    """What one opponent showed this round: ``holding`` the cards seen taken from the
    discard pile and still held, ``collected_ranks`` the ranks of every card they took,
    ``shed_ranks`` the ranks of the natural cards they discarded."""

    holding: tuple[Card, ...]
    collected_ranks: frozenset[int]
    shed_ranks: frozenset[int]

    @classmethod
    def of(cls, observation: Observation, seat: int) -> OpponentSigns:
        """The signs ``seat`` gave this round, as ``observation`` shows them."""
        collected: set[int] = set()
        shed: set[int] = set()
        for move in observation.discard_history:
            if move.player != seat or move.card == JOKER:
                continue
            if move.kind == "take":
                collected.add(RANK_OF[move.card])
            elif not is_wild(move.card, observation.wild_rank):
                shed.add(RANK_OF[move.card])
        return cls(
            holding=observation.known_cards[seat],
            collected_ranks=frozenset(collected),
            shed_ranks=frozenset(shed - collected),
        )


def opponent_interest(card: Card, signs: OpponentSigns, *, wild_rank: int) -> int:
    """How useful ``card`` looks to the opponent who gave ``signs`` (higher: more useful).

    A wild is worth :data:`WILD_INTEREST`.  A natural card scores 4 for each held card of
    its rank (set material), 3 for each held card one rank away in its suit and 2 for
    each two ranks away (run material), 1 if the opponent took a card of its rank this
    round, and loses 1 if they discarded its rank (they are not collecting it).

    >>> from rummykit.cards import parse_card, parse_cards
    >>> signs = OpponentSigns(
    ...     holding=tuple(parse_cards("8h")), collected_ranks=frozenset({8}),
    ...     shed_ranks=frozenset({13}))
    >>> [opponent_interest(parse_card(name), signs, wild_rank=3) for name in
    ...     ("8c", "9h", "Th", "Jh", "Kc", "3d")]
    [5, 3, 2, 0, -1, 100]
    """
    if is_wild(card, wild_rank):
        return WILD_INTEREST
    rank, suit = RANK_OF[card], SUIT_OF[card]
    interest = 0
    for held in signs.holding:
        if is_wild(held, wild_rank):
            continue
        if RANK_OF[held] == rank:
            interest += 4
        elif SUIT_OF[held] == suit:
            gap = abs(RANK_OF[held] - rank)
            if gap == 1:
                interest += 3
            elif gap == 2:
                interest += 2
    if rank in signs.collected_ranks:
        interest += 1
    if rank in signs.shed_ranks:
        interest -= 1
    return interest


def meld_partners(card: Card, hand: Sequence[Card], *, wild_rank: int) -> int:
    """How well ``card`` fits with the rest of ``hand`` (one copy of it left out).

    Each other natural card of its rank counts 2, each of its suit one rank away 2 and
    two ranks away 1.  A wild counts for nothing here (wilds are kept anyway).

    >>> from rummykit.cards import parse_card, parse_cards
    >>> hand = parse_cards("7h 8h 9h 7c Kd")
    >>> [meld_partners(parse_card(name), hand, wild_rank=3) for name in ("7h", "Kd")]
    [5, 0]
    """
    if is_wild(card, wild_rank):
        return 0
    rank, suit = RANK_OF[card], SUIT_OF[card]
    partners = 0
    skipped = False
    for other in hand:
        if other == card and not skipped:
            skipped = True
            continue
        if is_wild(other, wild_rank):
            continue
        if RANK_OF[other] == rank:
            partners += 2
        elif SUIT_OF[other] == suit:
            gap = abs(RANK_OF[other] - rank)
            partners += 2 if gap == 1 else 1 if gap == 2 else 0
    return partners


def points(card: Card) -> int:
    """The deadwood points of ``card`` (ace 1, 2..10 face, J Q K 10, joker 15)."""
    return DEADWOOD_POINTS[card]
