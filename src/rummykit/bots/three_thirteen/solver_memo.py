"""The Three-Thirteen arrangement solver as a bot uses it: memoised, with a cheap exact
route to the best discards of a hand that has just drawn a card it cannot use.

Every answer is exact and a pure function of the cards and the rules, so the memo
changes how fast a bot decides, never what it decides.  The cheap route rests on one
fact about the least deadwood ``dw`` (:func:`~rummykit.games.three_thirteen.arrange.deadwood`):
``dw(X - c) >= dw(X) - points(c)`` for every card ``c`` of ``X`` (put ``c`` back
unmelded).  When a hand ``H`` whose deadwood is known draws a card ``t`` that adds
nothing (``dw(H + t) == dw(H) + points(t)``), discarding ``t`` gives back ``dw(H)`` and
every card worth less than ``t`` does worse, so only the few cards worth at least as
much as ``t`` need a solver call each; with more of them the engine's ``best_discards``
answers instead.

This module never sees a game state, does no I/O and draws no random number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from rummykit.cards import DEADWOOD_POINTS, Card
from rummykit.games.three_thirteen.arrange import best_discards, deadwood

MEMO_LIMIT: Final = 4096
"""How many answers each memo keeps before it starts afresh (bounded memory)."""

CHEAP_LIMIT: Final = 4
"""The most cards the cheap route looks at one by one before it leaves the question to
the engine's ``best_discards``."""

K = TypeVar("K")
V = TypeVar("V")
Cards = tuple[Card, ...]
Outcome = tuple[int, Cards]
"""The least deadwood after one discard and every distinct card whose discard leaves it."""


class SolverMemo:
    """Memoised solver answers for the hands of one rule set (any wild rank).

    >>> from rummykit.cards import format_cards, parse_cards
    >>> memo = SolverMemo(ace_high=False, wild_only_melds=False)
    >>> memo.deadwood(parse_cards("5h 6h Kc"), wild_rank=3)
    21
    >>> least, discards = memo.best_discards(parse_cards("5h 6h Kc 7h"), wild_rank=3)
    >>> least, format_cards(discards)
    (0, 'Kc')
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
        whose discard leaves it, as the engine's ``best_discards`` gives them."""
        key = (tuple(sorted(cards)), wild_rank)
        found = self._best.get(key)
        if found is None:
            found = self._by_the_cheap_route(key[0], wild_rank)
            if found is None:
                found = best_discards(
                    key[0],
                    wild_rank=wild_rank,
                    ace_high=self._ace_high,
                    wild_only_melds=self._wild_only_melds,
                )
            _store(self._best, key, found)
        return found

    def remember_kept(
        self, cards: Sequence[Card], discard: Card, least: int, *, wild_rank: int
    ) -> None:
        """Note that ``cards`` less ``discard`` has deadwood ``least`` (the outcome of a
        best discard), so that next turn's questions about that hand start from it."""
        kept = list(cards)
        kept.remove(discard)
        _store(self._deadwood, (tuple(sorted(kept)), wild_rank), least)

    def _by_the_cheap_route(self, ordered: Cards, wild_rank: int) -> Outcome | None:
        """The best discards of ``ordered`` if it is a known hand plus a card that adds
        nothing to it and few cards are worth as much (module docstring); else ``None``."""
        for index, card in enumerate(ordered):
            if index and ordered[index - 1] == card:
                continue
            hand = ordered[:index] + ordered[index + 1 :]
            before = self._deadwood.get((hand, wild_rank))
            if before is None:
                continue
            added = DEADWOOD_POINTS[card]
            candidates = {c for c in hand if c != card and DEADWOOD_POINTS[c] >= added}
            if len(candidates) > CHEAP_LIMIT:
                return None
            if self.deadwood(ordered, wild_rank=wild_rank) != before + added:
                return None
            values = {card: before}
            for other in candidates:
                rest = list(ordered)
                rest.remove(other)
                values[other] = self.deadwood(rest, wild_rank=wild_rank)
            least = min(values.values())
            return least, tuple(sorted(c for c, value in values.items() if value == least))
        return None


def _store(memo: dict[K, V], key: K, value: V) -> None:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
