"""The Three-Thirteen arrangement solver as a bot uses it: memoised, with a cheap exact
answer to "would this card lower my deadwood?".

Every answer is exact and a pure function of the cards and the rules, so the memo
changes how fast a bot decides, never what it decides.  The cheap answer rests on one
fact about the least deadwood ``dw`` (:func:`~rummykit.games.three_thirteen.arrange.deadwood`):
``dw(X - c) >= dw(X) - points(c)`` for every card ``c`` of ``X`` (put ``c`` back
unmelded).  So to learn whether some discard from ``hand + [card]`` beats ``dw(hand)``
only the cards worth more than ``dw(hand + [card]) - dw(hand)`` need a look, the highest
first, and the first success ends the search.

This module never sees a game state, does no I/O and draws no random number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from rummykit.cards import DEADWOOD_POINTS, Card
from rummykit.games.three_thirteen.arrange import best_discards, deadwood

MEMO_LIMIT: Final = 4096
"""How many answers each memo keeps before it starts afresh (bounded memory)."""

LOOKS: Final = 3
"""Discards :meth:`SolverMemo.lowers_deadwood` tries one by one before it asks the
solver for every discard at once (whose answer the memo keeps for the discard)."""

CHEAP_LIMIT: Final = 4

K = TypeVar("K")
V = TypeVar("V")
Cards = tuple[Card, ...]
Outcome = tuple[int, Cards]
"""The least deadwood after one discard and every distinct card whose discard leaves it."""


class SolverMemo:
    """Memoised solver answers for the hands of one rule set (any wild rank).

    >>> from rummykit.cards import parse_card, parse_cards
    >>> memo = SolverMemo(ace_high=False, wild_only_melds=False)
    >>> hand = parse_cards("5h 6h Kc")
    >>> memo.deadwood(hand, wild_rank=3)
    21
    >>> [memo.lowers_deadwood(hand, parse_card(name), wild_rank=3) for name in ("7h", "Qd")]
    [True, False]
    """

    __slots__ = ("_ace_high", "_best", "_deadwood", "_wild_only_melds")

    def __init__(self, *, ace_high: bool, wild_only_melds: bool) -> None:
        self._ace_high = ace_high
        self._wild_only_melds = wild_only_melds
        self._deadwood: dict[tuple[Cards, int], int] = {}
        self._best: dict[tuple[Cards, int], Outcome] = {}

    def deadwood(self, cards: Sequence[Card], *, wild_rank: int) -> int:
        """The least deadwood of ``cards``."""
        key = (tuple(sorted(cards)), wild_rank)
        found = self._deadwood.get(key)
        if found is None:
            found = deadwood(
                key[0],
                wild_rank=wild_rank,
                ace_high=self._ace_high,
                wild_only_melds=self._wild_only_melds,
            )
            _store(self._deadwood, key, found)
        return found

    def best_discards(self, cards: Sequence[Card], *, wild_rank: int) -> Outcome:
        """The least deadwood after one discard from ``cards`` and every distinct card
        whose discard leaves it (the engine's ``best_discards``)."""
        key = (tuple(sorted(cards)), wild_rank)
        found = self._best.get(key)
        if found is None:
            found = self._cheap_best_discards(key[0], wild_rank)
        if found is None:
            found = best_discards(
                key[0],
                wild_rank=wild_rank,
                ace_high=self._ace_high,
                wild_only_melds=self._wild_only_melds,
            )
            _store(self._best, key, found)
        return found

    def _cheap_best_discards(self, ordered: Cards, wild_rank: int) -> Outcome | None:
        for index, card in enumerate(ordered):
            if index and ordered[index - 1] == card:
                continue
            hand = ordered[:index] + ordered[index + 1 :]
            before = self._deadwood.get((hand, wild_rank))
            if before is None:
                continue
            added = DEADWOOD_POINTS[card]
            if self.deadwood(ordered, wild_rank=wild_rank) != before + added:
                return None
            candidates = sorted(
                (c for c in set(hand) if c != card and DEADWOOD_POINTS[c] >= added),
                key=lambda c: (-DEADWOOD_POINTS[c], c),
            )
            if len(candidates) > CHEAP_LIMIT:
                return None
            values = {card: before}
            for other in candidates:
                rest = list(ordered)
                rest.remove(other)
                values[other] = self.deadwood(rest, wild_rank=wild_rank)
            least = min(values.values())
            return least, tuple(sorted(c for c, v in values.items() if v == least))
        return None

    def remember_kept(
        self, cards: Sequence[Card], discard: Card, least: int, wild_rank: int
    ) -> None:
        """Note that ``cards`` less ``discard`` has deadwood ``least`` (a best discard's
        outcome), so next turn's question about that hand costs nothing."""
        kept = list(cards)
        kept.remove(discard)
        _store(self._deadwood, (tuple(sorted(kept)), wild_rank), least)

    def lowers_deadwood(self, hand: Sequence[Card], card: Card, *, wild_rank: int) -> bool:
        """Whether some discard from ``hand + [card]`` leaves less deadwood than ``hand``
        has now (discarding ``card`` itself gives back ``hand``)."""
        before = self.deadwood(hand, wild_rank=wild_rank)
        if before == 0:
            return False
        grown = (*hand, card)
        key = (tuple(sorted(grown)), wild_rank)
        known = self._best.get(key)
        if known is not None:
            return known[0] < before
        together = self.deadwood(grown, wild_rank=wild_rank)
        # dw(grown - c) >= together - points(c): only cards worth more can beat ``before``.
        candidates = sorted(
            (c for c in set(hand) if c != card and together - DEADWOOD_POINTS[c] < before),
            key=lambda c: (-DEADWOOD_POINTS[c], c),
        )
        for look, other in enumerate(candidates):
            if look == LOOKS:
                return self.best_discards(grown, wild_rank=wild_rank)[0] < before
            rest = list(grown)
            rest.remove(other)
            if self.deadwood(rest, wild_rank=wild_rank) < before:
                return True
        return False


def _store(memo: dict[K, V], key: K, value: V) -> None:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
