"""The Three-Thirteen arrangement solver: the least deadwood a hand can leave.

RULES.md 2.3-2.4.  A card is wild if its rank is the round's ``wild_rank`` or it is
the joker.  A meld is a *set* (naturals of one rank) or a *run* (naturals of one suit,
distinct ranks, consecutive with wilds filling the gaps, ace low unless ``ace_high``,
at most 13 cards), with any number of wilds and at least one natural card unless
``wild_only_melds``.  The solver is exact: it minimises the deadwood points of the
cards left out of melds (an unmelded wild counts its face, a joker 15).

>>> from rummykit.cards import format_cards, parse_cards
>>> hand = parse_cards("Ah 2h 4h 5h 7h 8h Th Tc")  # round 6: eights are wild
>>> [format_cards(meld) for meld in arrange(hand, wild_rank=8).melds]
['Tc Th 8h']
>>> deadwood(hand, wild_rank=8)
19
>>> least, discards = best_discards(hand + parse_cards("3h"), wild_rank=8)  # drew the 3h
>>> least, format_cards(discards)  # A-5 runs without a wild; the 8h joins the tens
(0, '7h')

How it is fast (all exact): :mod:`.arrange_runs` keeps per-suit run tables keyed by
the suit's ranks as a bit mask (the most points runs meld with ``w`` wilds);
:mod:`.arrange_search` tries the few ways to form sets, shares the wilds between the
suits' tables and, for the discard questions, answers every discard in one search;
:mod:`.arrange_layout` turns the result into melds; :mod:`.arrange_bound` turns
most hands away from the going-out search with a few table lookups.  The tables fill lazily and stay
small (a few thousand suit patterns).  Hands of any size are handled; more than 14
cards is only slower.

Card codes outside 0..52 raise :class:`~rummykit.cards.CardError`; a wild rank outside
1..13, or a card held three times (there are at most two decks), ``ValueError``.

This module never does I/O and imports nothing outside the standard library.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rummykit.cards import (
    DEADWOOD_POINTS,
    JOKER,
    RANK_OF,
    SUIT_OF,
    Card,
    CardError,
    format_cards,
)
from rummykit.games.core import MeldError
from rummykit.games.three_thirteen.arrange_bound import may_go_out
from rummykit.games.three_thirteen.arrange_layout import lay_out
from rummykit.games.three_thirteen.arrange_search import (
    best_discard_outcome,
    best_plan,
    going_out_cards,
    melded_points,
    split_hand,
)

__all__ = [
    "Arrangement",
    "arrange",
    "best_discards",
    "classify_meld",
    "deadwood",
    "going_out_discards",
    "going_out_discards_unchecked",
]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """An optimal arrangement of a hand.

    ``melds`` holds each meld's cards (a run low to high with its wilds at their
    places, a set with its naturals first); ``unmelded`` is sorted and ``deadwood`` is
    the sum of its points.
    """

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]


_CARD_CODES = frozenset(range(JOKER + 1))
_INT_TYPE = frozenset({int})


def _check_cards(cards: Sequence[Card]) -> list[Card]:
    hand = list(cards)
    if not (set(map(type, hand)) <= _INT_TYPE and _CARD_CODES.issuperset(hand)):
        for card in hand:
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= JOKER:
                raise CardError(f"{card!r} is not a card code (0..52)")
    return hand


def _check_wild_rank(wild_rank: int) -> None:
    if isinstance(wild_rank, bool) or not isinstance(wild_rank, int) or not 1 <= wild_rank <= 13:
        raise ValueError(f"the wild rank is a rank from 1 (ace) to 13 (king), not {wild_rank!r}")


def _is_wild(card: Card, wild_rank: int) -> bool:
    return card == JOKER or RANK_OF[card] == wild_rank


def _run_positions(naturals: Sequence[Card], ace_high: bool) -> list[list[int]]:
    """The ways to place naturals of one suit in a run: sorted positions, ace 1 or 14."""
    ranks = sorted(RANK_OF[c] for c in naturals)
    options = [ranks]
    if ace_high and ranks and ranks[0] == 1:
        options.append([*ranks[1:], 14])
    return options


def classify_meld(
    cards: Sequence[Card],
    *,
    wild_rank: int,
    ace_high: bool = False,
    wild_only_melds: bool = False,
) -> Literal["set", "run"]:
    """``"set"`` or ``"run"`` for a legal meld; a :class:`MeldError` saying why if not.

    A meld whose naturals all share one rank is a set (wilds may stand for anything).

    >>> from rummykit.cards import parse_cards
    >>> classify_meld(parse_cards("5h 5c 8h"), wild_rank=8)
    'set'
    >>> classify_meld(parse_cards("4h 8c 6h"), wild_rank=8)
    'run'
    >>> classify_meld(parse_cards("Qh Kh Ah"), wild_rank=8)
    Traceback (most recent call last):
    ...
    rummykit.games.core.MeldError: Qh Kh Ah is not a run: the ace is low only (A 2 3)
    """
    hand = _check_cards(cards)
    _check_wild_rank(wild_rank)
    named = format_cards(hand)
    if len(hand) < 3:
        raise MeldError(f"{named or 'no cards'}: a meld needs at least 3 cards")
    naturals = [c for c in hand if not _is_wild(c, wild_rank)]
    wilds = len(hand) - len(naturals)
    if not naturals:
        if wild_only_melds:
            return "set"
        raise MeldError(f"{named}: a meld needs at least one natural (non-wild) card")
    if len({RANK_OF[c] for c in naturals}) == 1:
        return "set"
    if len({SUIT_OF[c] for c in naturals}) != 1:
        raise MeldError(
            f"{named} is neither a set (the naturals differ in rank) nor a run"
            " (the naturals differ in suit)"
        )
    if len({RANK_OF[c] for c in naturals}) != len(naturals):
        raise MeldError(f"{named} is not a run: a run cannot hold the same card twice")
    if len(hand) > 13:
        raise MeldError(f"{named} is not a run: a run has at most 13 cards")
    for positions in _run_positions(naturals, ace_high):
        span = positions[-1] - positions[0] + 1
        if span <= len(hand):
            return "run"
    options = _run_positions(naturals, ace_high)
    gaps = min(p[-1] - p[0] + 1 - len(p) for p in options)
    if not ace_high and any(RANK_OF[c] == 1 for c in naturals):
        low = options[0]
        if low[-1] - low[0] + 1 - len(low) > wilds and 14 - low[1] + 1 - len(low) <= wilds:
            raise MeldError(f"{named} is not a run: the ace is low only (A 2 3)")
    raise MeldError(
        f"{named} is not a run: its gaps need {gaps} wild card"
        f"{'' if gaps == 1 else 's'} and it has {wilds}"
    )


def _assemble(
    hand: list[Card], *, wild_rank: int, ace_high: bool, wild_only_melds: bool
) -> Arrangement:
    split = split_hand(hand, wild_rank)
    wilds = sorted(split.wilds)
    plan = best_plan(split, ace_high) if split.points else None
    if plan is None or not plan.melded:
        naturals = sorted(card for card in hand if not _is_wild(card, wild_rank))
        if wild_only_melds and len(wilds) >= 3:
            return Arrangement(
                deadwood=split.points, melds=(tuple(wilds),), unmelded=tuple(naturals)
            )
        unmelded = sorted(hand)
        return Arrangement(
            deadwood=sum(DEADWOOD_POINTS[c] for c in unmelded),
            melds=(),
            unmelded=tuple(unmelded),
        )
    melds, left = lay_out(plan, wilds, ace_high)
    return Arrangement(
        deadwood=split.points - plan.melded, melds=tuple(melds), unmelded=tuple(left)
    )


# ---------------------------------------------------------------------------------------
# Public entry points


def arrange(
    cards: Sequence[Card],
    *,
    wild_rank: int,
    ace_high: bool = False,
    wild_only_melds: bool = False,
) -> Arrangement:
    """An arrangement of ``cards`` leaving the least deadwood.

    >>> from rummykit.cards import format_cards, parse_cards
    >>> best = arrange(parse_cards("Ah 2h 4h 5h 7h 8h Th Tc"), wild_rank=8)
    >>> best.deadwood, format_cards(best.unmelded)
    (19, 'Ah 2h 4h 5h 7h')
    """
    hand = _check_cards(cards)
    _check_wild_rank(wild_rank)
    return _assemble(hand, wild_rank=wild_rank, ace_high=ace_high, wild_only_melds=wild_only_melds)


def deadwood(
    cards: Sequence[Card],
    *,
    wild_rank: int,
    ace_high: bool = False,
    wild_only_melds: bool = False,
) -> int:
    """The least deadwood of ``cards`` (the points of an optimal arrangement).

    >>> from rummykit.cards import parse_cards
    >>> deadwood(parse_cards("Ah 2h 4h 5h 7h 8h Th Tc"), wild_rank=8)
    19
    """
    hand = _check_cards(cards)
    _check_wild_rank(wild_rank)
    return _deadwood(hand, wild_rank, ace_high, wild_only_melds)


def _deadwood(hand: list[Card], wild_rank: int, ace_high: bool, wild_only_melds: bool) -> int:
    split = split_hand(hand, wild_rank)
    points = split.points
    melded = melded_points(split, ace_high) if points else 0
    if melded:
        return points - melded
    if wild_only_melds and len(split.wilds) >= 3:
        return points
    return points + sum(DEADWOOD_POINTS[c] for c in split.wilds)


def _discards_one_by_one(
    hand: list[Card], wild_rank: int, ace_high: bool, wild_only_melds: bool
) -> tuple[int, tuple[Card, ...]]:
    """``best_discards`` by trying each card (for the few hands the joint search leaves)."""
    best = -1
    chosen: list[Card] = []
    for card in sorted(set(hand)):
        rest = list(hand)
        rest.remove(card)
        points = _deadwood(rest, wild_rank, ace_high, wild_only_melds)
        if best < 0 or points < best:
            best, chosen = points, [card]
        elif points == best:
            chosen.append(card)
    return best, tuple(chosen)


def best_discards(
    cards: Sequence[Card],
    *,
    wild_rank: int,
    ace_high: bool = False,
    wild_only_melds: bool = False,
) -> tuple[int, tuple[Card, ...]]:
    """For a hand after drawing: the least deadwood after one discard, and every distinct
    card whose discard leaves it (sorted).

    >>> from rummykit.cards import format_cards, parse_cards
    >>> points, discards = best_discards(parse_cards("5h 6h 7h Kc"), wild_rank=3)
    >>> points, format_cards(discards)
    (0, 'Kc')
    """
    hand = _check_cards(cards)
    _check_wild_rank(wild_rank)
    if not hand:
        raise ValueError("best_discards needs at least one card to discard")
    split = split_hand(hand, wild_rank)
    wilds = split.wilds
    if len(hand) - len(wilds) < 2:
        return _discards_one_by_one(hand, wild_rank, ace_high, wild_only_melds)
    # Leaving every wild unmelded costs their points unless they can meld alone.
    penalty = bool(wilds) and not (wild_only_melds and len(wilds) >= 3)
    outcome = best_discard_outcome(split, ace_high)
    points = split.points
    best = points - outcome.natural_value
    chosen = list(outcome.natural_cards)
    if penalty and any(
        outcome.natural_value == DEADWOOD_POINTS[card] for card in outcome.natural_cards
    ):
        # Some best throw leaves no group at all: its wilds would count too.
        return _discards_one_by_one(hand, wild_rank, ace_high, wild_only_melds)
    if wilds:
        melded = outcome.wild_melded
        if melded > 0:
            outcomes = [(points - melded, card) for card in set(wilds)]
        elif wild_only_melds and len(wilds) >= 4:
            outcomes = [(points, card) for card in set(wilds)]
        else:
            total = points + sum(DEADWOOD_POINTS[c] for c in wilds)
            outcomes = [(total - DEADWOOD_POINTS[card], card) for card in set(wilds)]
        for value, card in outcomes:
            if value < best:
                best, chosen = value, [card]
            elif value == best:
                chosen.append(card)
    return best, tuple(sorted(chosen))


def going_out_discards(
    cards: Sequence[Card],
    *,
    wild_rank: int,
    ace_high: bool = False,
    wild_only_melds: bool = False,
) -> tuple[Card, ...]:
    """Every distinct card whose discard leaves the rest fully melded; ``()`` if none.

    >>> from rummykit.cards import format_cards, parse_cards
    >>> format_cards(going_out_discards(parse_cards("5h 6h 7h Kc"), wild_rank=3))
    'Kc'
    """
    hand = _check_cards(cards)
    _check_wild_rank(wild_rank)
    return going_out_discards_unchecked(hand, wild_rank, ace_high, wild_only_melds)


def going_out_discards_unchecked(
    hand: list[Card], wild_rank: int, ace_high: bool, wild_only_melds: bool
) -> tuple[Card, ...]:
    """:func:`going_out_discards` for a hand already known valid (card codes, a wild
    rank from 1 to 13): a round asks it in every discard phase.  A card held three
    times still raises ``ValueError``."""
    if not may_go_out(hand, wild_rank, ace_high):
        return ()
    split = split_hand(hand, wild_rank)
    if len(hand) - len(split.wilds) < 2:
        return tuple(
            card
            for card in sorted(set(hand))
            if _deadwood(_without(hand, card), wild_rank, ace_high, wild_only_melds) == 0
        )
    naturals, wild_ok = going_out_cards(split, ace_high)
    if wild_ok:
        naturals.update(split.wilds)
    return tuple(sorted(naturals))


def _without(hand: list[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest
