"""A one-draw lookahead on top of ``greedy``: draws and discards weighed by the next draw.

``greedy`` takes the top discard whenever that lowers its deadwood, and discards a card
among those leaving the least deadwood now.  Both ignore what the stock may bring.
:class:`LookaheadGuide` plays like ``greedy`` except in two places, where it weighs the
cards it cannot see, each as likely to come next from the stock:

- **Draw**: it takes the top discard (a natural card) only if the least deadwood after
  taking it and the best discard is below the *mean* least deadwood after a stock draw
  and the best discard.  A low card replacing a high loner is often worse than the
  stock, which can replace the loner too, or complete a meld.
- **Discard** (not going out, no one out yet): of the discards leaving at most
  :data:`MARGIN` more deadwood than the least, it keeps the hand with the least *draw
  value*: the mean, over the unseen cards, of the least deadwood after drawing that card
  and discarding the best card.  Of two hands with about the same deadwood, the one
  more cards improve goes out sooner.  ``greedy``'s choice wins a tie.

After someone went out, and for going out, it plays exactly like ``greedy``.  The unseen
cards are the deck less its own hand, the discard pile and the cards others were seen
taking and still hold; after the reshuffle, the cards the stock may hold.  It reads only
the observation, never does I/O and never draws a random number.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from rummykit.bots.base import Decision
from rummykit.bots.reasons import Reason
from rummykit.bots.three_thirteen.card_use import is_wild
from rummykit.bots.three_thirteen.greedy import ThreeThirteenGreedyBot
from rummykit.bots.three_thirteen.progress import moves_with_progress
from rummykit.cards import Card, format_card
from rummykit.games.three_thirteen.actions import DRAW_STOCK, TAKE_DISCARD, Discard
from rummykit.games.three_thirteen.observation import Observation

MARGIN: Final = 4
"""A discard may leave this much more deadwood than the least to be weighed."""


def unseen_cards(observation: Observation) -> list[Card]:
    """The cards ``observation``'s player may draw next (with repeats for two decks)."""
    if observation.stock_may_hold is not None:
        return list(observation.stock_may_hold)
    left = Counter(observation.rules.deck())
    left.subtract(observation.hand)
    left.subtract(observation.discard_pile)
    for seat, cards in enumerate(observation.known_cards):
        if seat != observation.player:
            left.subtract(cards)
    return sorted(left.elements())


class LookaheadGuide:
    """``greedy`` with a one-draw lookahead for its draws and discards (module docstring)."""

    __slots__ = ("_greedy",)

    name: Final = "lookahead"

    def __init__(self) -> None:
        self._greedy = ThreeThirteenGreedyBot()

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        """``greedy``'s decision, unless the lookahead prefers another draw or discard."""
        legal_actions = moves_with_progress(observation, legal_actions)
        decision = self._greedy.decide(observation, legal_actions, rng)
        if observation.went_out is not None:
            return decision
        if observation.phase == "draw":
            return self._draw(observation, legal_actions, decision)
        if type(decision.action) is not Discard:
            return decision
        memo = self._greedy.memo(observation)
        wild_rank = observation.wild_rank
        hand = list(observation.hand)
        allowed = {a.card for a in legal_actions if type(a) is Discard}
        left: dict[Card, tuple[Card, ...]] = {}
        wood: dict[Card, int] = {}
        for card in allowed:
            rest = list(hand)
            rest.remove(card)
            left[card] = tuple(sorted(rest))
            wood[card] = memo.deadwood(rest, wild_rank=wild_rank)
        least = min(wood.values())
        weighed = sorted(card for card in allowed if wood[card] <= least + MARGIN)
        if len(weighed) < 2:
            return decision
        unseen = Counter(unseen_cards(observation))
        if not unseen:
            return decision
        total = sum(unseen.values())

        def draw_value(card: Card) -> float:
            rest = left[card]
            now = wood[card]
            value = 0
            for drawn, count in unseen.items():
                after, _ = memo.best_discards((*rest, drawn), wild_rank=wild_rank)
                value += count * min(now, after)
            return value / total

        values = {card: draw_value(card) for card in weighed}
        usual = decision.action.card
        best = min(weighed, key=lambda card: (values[card], card != usual, card))
        if best == usual or values[best] >= values.get(usual, float("inf")):
            return decision
        return Decision(
            Discard(best),
            Reason.of("discard_leaving", card=format_card(best), deadwood=wood[best]),
        )

    def _draw(
        self, observation: Observation, legal_actions: Sequence[Any], decision: Decision
    ) -> Decision:
        """Take the top discard when the deadwood after taking it and discarding the best
        card is below the mean deadwood after a stock draw and the best discard."""
        if TAKE_DISCARD not in legal_actions or DRAW_STOCK not in legal_actions:
            return decision
        top = observation.discard_pile[-1]
        wild_rank = observation.wild_rank
        if is_wild(top, wild_rank):
            return decision
        unseen = Counter(unseen_cards(observation))
        if not unseen:
            return decision
        memo = self._greedy.memo(observation)
        hand = tuple(observation.hand)
        taken, _ = memo.best_discards((*hand, top), wild_rank=wild_rank)
        total = 0
        for drawn, count in unseen.items():
            total += count * memo.best_discards((*hand, drawn), wild_rank=wild_rank)[0]
        stock = total / sum(unseen.values())
        take = taken < stock
        if take == (decision.action == TAKE_DISCARD):
            return decision
        if take:
            before = memo.deadwood(hand, wild_rank=wild_rank)
            return Decision(
                TAKE_DISCARD,
                Reason.of("take_card", card=format_card(top))
                + Reason.of("deadwood_change", before=before, after=taken),
            )
        return Decision(DRAW_STOCK, Reason.of("draw_stock"))
