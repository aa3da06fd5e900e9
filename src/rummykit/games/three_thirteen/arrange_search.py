"""The arrangement search: sets by rank, runs by suit, wilds shared between them.

The model: a meld is a *group* of naturals plus wilds.  A set group of ``k`` naturals
of one rank needs ``max(0, 3 - k)`` wilds; a run group needs its gaps and padding to
three cards (:mod:`.arrange_runs`).  Once one group exists every further wild can join
a meld: a set takes any number, and runs that would pass 13 cards can be cut in two
without needing more wilds than the hand holds (``arrange_layout.place_extra_wilds``
proves it).  So the least deadwood is the points of the naturals left out, minimised
over groupings whose needs add up to at most the number of wilds; the wilds
themselves count only when no group can be made at all.

A lone natural with two wilds is a run group here (it could equally be a set), so the
search only tries sets of two or more naturals: for each rank held at least twice
(three times without wilds) it tries each way to put some of its cards in a set, and
leaves the rest to the per-suit run tables.  Each leaf of that search shares the
wilds left between the four suits (a small knapsack over the tables).

This module never does I/O and imports nothing outside the standard library.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from rummykit.cards import JOKER, RANK_OF, SUIT_OF, Card, format_card
from rummykit.games.three_thirteen.arrange_runs import (
    RANK_POINTS,
    cover_after_discard,
    cover_cache,
    discard_cache,
    discard_values,
    run_cover,
    run_values,
    values_cache,
)

__all__ = [
    "DiscardOutcome",
    "Hand",
    "Plan",
    "best_discard_outcome",
    "best_plan",
    "going_out_cards",
    "melded_points",
    "split_hand",
]

# One way to put cards of a rank in a set: (wilds needed, cards, ((suit, copies), ...)).
_SetOption = tuple[int, int, tuple[tuple[int, int], ...]]
# The ranks that can hold a set, each with its options.
_Candidates = list[tuple[int, tuple[_SetOption, ...]]]

_POWERS: Final = (1, 3, 9, 27)
_PLACES: Final = tuple(
    (SUIT_OF[card], 1 << (RANK_OF[card] - 1), _POWERS[SUIT_OF[card]]) for card in range(52)
)
"""Per suited card: its suit, its rank's bit in a suit key and its suit's base-3 digit."""
_CACHES: Final = (values_cache(False), values_cache(True))
_DISCARD_CACHES: Final = (discard_cache(False), discard_cache(True))
_option_cache: dict[tuple[int, int], tuple[_SetOption, ...]] = {}


@dataclass(slots=True)
class Hand:
    """A hand taken apart for the search.

    ``suit_keys[s]``: the suit key of the naturals of suit ``s`` (see
    :mod:`.arrange_runs`); ``patterns[r]``: the naturals of rank ``r`` as a base-3
    number (digit ``s`` = copies of suit ``s``); ``totals[r]``: how many;
    ``wilds``: the wild cards; ``points``: the naturals' deadwood points.
    """

    suit_keys: list[int]
    patterns: list[int]
    totals: list[int]
    wilds: list[Card]
    points: int


def split_hand(cards: Sequence[Card], wild_rank: int) -> Hand:
    """Take ``cards`` apart; a card held three times is refused (two decks at most)."""
    suit_keys = [0, 0, 0, 0]
    patterns = [0] * 14
    totals = [0] * 14
    wilds: list[Card] = []
    points = 0
    rank_of = RANK_OF
    place_of = _PLACES
    for card in cards:
        rank = rank_of[card]
        if rank == wild_rank or card == JOKER:
            wilds.append(card)
            continue
        suit, bit, power = place_of[card]
        key = suit_keys[suit]
        if key & bit:
            if key & bit << 13:
                raise ValueError(
                    f"{format_card(card)} is held three times: there are at most two decks"
                )
            suit_keys[suit] = key | bit << 13
        else:
            suit_keys[suit] = key | bit
        patterns[rank] += power
        totals[rank] += 1
        points += RANK_POINTS[rank]
    return Hand(suit_keys, patterns, totals, wilds, points)


def _options_for(pattern: int, least: int) -> tuple[_SetOption, ...]:
    """Every way to take ``least`` or more cards of a rank held as ``pattern``."""
    cached = _option_cache.get((pattern, least))
    if cached is not None:
        return cached
    held = [pattern // power % 3 for power in _POWERS]
    options: list[_SetOption] = []
    for c in range(held[0] + 1):
        for d in range(held[1] + 1):
            for h in range(held[2] + 1):
                for s in range(held[3] + 1):
                    size = c + d + h + s
                    if size >= least:
                        taken = tuple(
                            (suit, copies) for suit, copies in enumerate((c, d, h, s)) if copies
                        )
                        options.append((3 - size if size < 3 else 0, size, taken))
    options.sort(key=lambda option: (-option[1], option[2]))
    result = tuple(options)
    _option_cache[(pattern, least)] = result
    return result


def _candidates(hand: Hand, wilds: int) -> _Candidates:
    least = 2 if wilds else 3
    totals = hand.totals
    return [
        (rank, _options_for(hand.patterns[rank], least))
        for rank in range(1, 14)
        if totals[rank] >= least
    ]


def _take(keys: list[int], rank: int, taken: tuple[tuple[int, int], ...]) -> list[int]:
    """The suit keys after the set's copies of ``rank`` leave them."""
    keys = list(keys)
    bit = 1 << (rank - 1)
    for suit, copies in taken:
        key = keys[suit]
        if copies == 2:
            keys[suit] = key & ~(bit | bit << 13)
        elif key & bit << 13:
            keys[suit] = key & ~(bit << 13)
        else:
            keys[suit] = key & ~bit
    return keys


def _merge(first: list[int], values: tuple[int, ...], budget: int) -> list[int]:
    """``result[b]``: the most of ``first[b - i] + values[i]`` (a knapsack step)."""
    top = len(values) - 1
    result = [first[b] + values[0] for b in range(budget + 1)]
    for used in range(1, min(budget, top) + 1):
        gain = values[used]
        for b in range(used, budget + 1):
            value = first[b - used] + gain
            if value > result[b]:  # noqa: PLR1730 - faster than max() in this loop
                result[b] = value
    return result


def _table(keys: list[int], budget: int, ace_high: bool) -> list[int]:
    """``table[b]``: the most points the four suits' runs meld with ``b`` wilds."""
    v0 = run_values(keys[0], ace_high)
    top = len(v0) - 1
    table = [v0[b if b < top else top] for b in range(budget + 1)]
    for key in keys[1:]:
        table = _merge(table, run_values(key, ace_high), budget)
    return table


def _runs_value(keys: list[int], budget: int, ace_high: bool) -> int:
    """The most points the four suits' runs meld sharing ``budget`` wilds."""
    cache = _CACHES[ace_high]
    k0, k1, k2, k3 = keys
    v0 = cache.get(k0) or run_values(k0, ace_high)
    v1 = cache.get(k1) or run_values(k1, ace_high)
    v2 = cache.get(k2) or run_values(k2, ace_high)
    v3 = cache.get(k3) or run_values(k3, ace_high)
    base = v0[0] + v1[0] + v2[0] + v3[0]
    if budget == 0:
        return base
    if budget == 1:
        return base + max(v0[1] - v0[0], v1[1] - v1[0], v2[1] - v2[0], v3[1] - v3[0])
    if budget == 2:
        # Both wilds to one suit, or one each to two suits.
        singles = sorted((v0[1] - v0[0], v1[1] - v1[0], v2[1] - v2[0], v3[1] - v3[0]))
        doubles = max(v0[2] - v0[0], v1[2] - v1[0], v2[2] - v2[0], v3[2] - v3[0])
        return base + max(doubles, singles[2] + singles[3])
    return _table(keys, budget, ace_high)[budget]


# ---------------------------------------------------------------------------------------
# The least deadwood


_SetChoice = tuple[int, tuple[tuple[int, int], ...], int]


def _best_grouping(
    hand: Hand, ace_high: bool
) -> tuple[int, list[int], int, tuple[_SetChoice, ...]]:
    """The most natural points melded, and the leaf reaching it: the suit keys left for
    runs, the wilds left for them, and the sets ``(rank, taken, need)``.

    A branch below a leaf is cut when even melding every card of the ranks still open
    could not lift the leaf above the best so far (taking cards out of the suits never
    lets runs meld more).
    """
    wilds = len(hand.wilds)
    ceiling = hand.points
    start = hand.suit_keys
    value = _runs_value(start, wilds, ace_high)
    best: list[tuple[int, list[int], int, tuple[_SetChoice, ...]]] = [(value, start, wilds, ())]
    if value == ceiling:
        return best[0]
    candidates = _candidates(hand, wilds)
    if not candidates:
        return best[0]
    last = len(candidates)
    # later[i]: the points of every natural of the candidate ranks from i on.
    later = [0] * (last + 1)
    for index in range(last - 1, -1, -1):
        rank = candidates[index][0]
        later[index] = later[index + 1] + hand.totals[rank] * RANK_POINTS[rank]
    chosen: list[_SetChoice] = []

    def search(index: int, keys: list[int], budget: int, points: int) -> bool:
        for position in range(index, last):
            rank, options = candidates[position]
            for need, size, taken in options:
                if need > budget:
                    continue
                left = budget - need
                new_points = points + size * RANK_POINTS[rank]
                new_keys = _take(keys, rank, taken)
                value = new_points + _runs_value(new_keys, left, ace_high)
                chosen.append((rank, taken, need))
                if value > best[0][0]:
                    best[0] = (value, new_keys, left, tuple(chosen))
                    if value == ceiling:
                        return True
                if (
                    position + 1 < last
                    and value + later[position + 1] > best[0][0]
                    and search(position + 1, new_keys, left, new_points)
                ):
                    return True
                chosen.pop()
        return False

    search(0, start, wilds, 0)
    return best[0]


def melded_points(hand: Hand, ace_high: bool) -> int:
    """The most natural points that groups meld with the hand's wilds."""
    return _best_grouping(hand, ace_high)[0]


class Plan(NamedTuple):
    """Where an optimal arrangement puts the naturals.

    ``melded``: the natural points it melds; ``sets``: ``(rank, ((suit, copies), ...),
    wilds needed)`` for each set; then for each suit its key of naturals left for runs
    and the wilds its runs may use.
    """

    melded: int
    sets: tuple[_SetChoice, ...]
    suit_keys: tuple[int, ...]
    suit_wilds: tuple[int, ...]


def _suit_budgets(keys: list[int], budget: int, ace_high: bool) -> tuple[int, ...]:
    """How many wilds each suit's runs use in a best sharing of ``budget`` wilds (each
    suit the fewest that reach its share's value)."""
    if budget == 0:
        return (0, 0, 0, 0)
    tables = [run_values(key, ace_high) for key in keys]
    shares = [0, 0, 0, 0]
    if budget == 1:
        gains = [values[1] - values[0] for values in tables]
        best = max(gains)
        if best > 0:
            shares[gains.index(best)] = 1
        return tuple(shares)
    prefixes = [[0] * (budget + 1)]
    for values in tables:
        prefixes.append(_merge(prefixes[-1], values, budget))
    left = budget
    for suit in range(3, -1, -1):
        values = tables[suit]
        top = len(values) - 1
        target = prefixes[suit + 1][left]
        for used in range(min(left, top) + 1):
            if prefixes[suit][left - used] + values[used] == target:
                shares[suit] = used
                left -= used
                break
    for suit, values in enumerate(tables):
        used = shares[suit]
        while used and values[used - 1] == values[used]:
            used -= 1
        shares[suit] = used
    return tuple(shares)


def best_plan(hand: Hand, ace_high: bool) -> Plan:
    """An optimal plan: the sets, then each suit's runs and their wilds."""
    value, keys, budget, sets = _best_grouping(hand, ace_high)
    return Plan(value, sets, tuple(keys), _suit_budgets(keys, budget, ace_high))


# ---------------------------------------------------------------------------------------
# Discards


@dataclass(frozen=True, slots=True)
class DiscardOutcome:
    """The best of throwing one natural, and of throwing one wild.

    ``natural_value`` is the most of ``points(card) + melded points of the rest`` over
    the naturals (``-1`` if none), reached by each card of ``natural_cards``;
    ``wild_melded`` is the most natural points melded with one wild fewer (``-1`` if
    the hand has no wild).
    """

    natural_value: int
    natural_cards: tuple[Card, ...]
    wild_melded: int


def _throw_values(keys: list[int], budget: int, ace_high: bool) -> tuple[int, list[int]]:
    """At one leaf: the most of ``thrown points + melded`` over the cards to throw, and
    per suit the ranks (bit ``r - 1``) of the cards reaching it."""
    cache = _CACHES[ace_high]
    thrown_cache = _DISCARD_CACHES[ace_high]
    k0, k1, k2, k3 = keys
    tables = [
        cache.get(k0) or run_values(k0, ace_high),
        cache.get(k1) or run_values(k1, ace_high),
        cache.get(k2) or run_values(k2, ace_high),
        cache.get(k3) or run_values(k3, ace_high),
    ]
    best = -1
    masks = [0, 0, 0, 0]
    base = tables[0][0] + tables[1][0] + tables[2][0] + tables[3][0]
    if budget == 0:
        for suit in range(4):
            key = keys[suit]
            if key:
                value, ranks = (thrown_cache.get(key) or discard_values(key, ace_high))[0]
                value += base - tables[suit][0]
                if value > best:
                    best = value
                    masks = [0, 0, 0, 0]
                if value == best:
                    masks[suit] |= ranks
        return best, masks
    if budget == 1:
        gains = [table[1] - table[0] for table in tables]
        ordered = sorted(gains)
        for suit in range(4):
            key = keys[suit]
            if not key:
                continue
            others = base - tables[suit][0]
            # The best gain of the other suits: the second best if this suit's is best.
            other_gain = ordered[2] if gains[suit] == ordered[3] else ordered[3]
            thrown = thrown_cache.get(key) or discard_values(key, ace_high)
            for value, ranks in (
                (thrown[0][0] + others + other_gain, thrown[0][1]),
                (thrown[1][0] + others, thrown[1][1]),
            ):
                if value > best:
                    best = value
                    masks = [0, 0, 0, 0]
                if value == best:
                    masks[suit] |= ranks
        return best, masks
    if budget == 2:
        singles = [table[1] - table[0] for table in tables]
        doubles = [table[2] - table[0] for table in tables]
        ordered_singles = sorted(singles)
        ordered_doubles = sorted(doubles)
        for suit in range(4):
            key = keys[suit]
            if not key:
                continue
            others = base - tables[suit][0]
            other_singles = list(ordered_singles)
            other_singles.remove(singles[suit])
            other_double = (
                ordered_doubles[2] if doubles[suit] == ordered_doubles[3] else ordered_doubles[3]
            )
            spread = (
                others,
                others + other_singles[2],
                others + max(other_double, other_singles[1] + other_singles[2]),
            )
            thrown = thrown_cache.get(key) or discard_values(key, ace_high)
            for used in range(3):
                value, ranks = thrown[used]
                value += spread[2 - used]
                if value > best:
                    best = value
                    masks = [0, 0, 0, 0]
                if value == best:
                    masks[suit] |= ranks
        return best, masks
    for suit in range(4):
        key = keys[suit]
        if not key:
            continue
        shared = [0] * (budget + 1)
        for other in range(4):
            if other != suit:
                shared = _merge(shared, tables[other], budget)
        thrown = discard_values(key, ace_high)
        top = len(thrown) - 1
        for used in range(budget + 1):
            value, ranks = thrown[used if used < top else top]
            value += shared[budget - used]
            if value > best:
                best = value
                masks = [0, 0, 0, 0]
            if value == best:
                masks[suit] |= ranks
    return best, masks


def best_discard_outcome(hand: Hand, ace_high: bool) -> DiscardOutcome:
    """Throwing each card in turn, at the cost of about one search."""
    wilds = len(hand.wilds)
    candidates = _candidates(hand, wilds)
    natural = [-1]
    natural_masks = [0, 0, 0, 0]
    wild = [-1]

    def leaf(keys: list[int], budget: int, points: int) -> None:
        value, masks = _throw_values(keys, budget, ace_high)
        value += points
        if value >= natural[0] and any(masks):
            if value > natural[0]:
                natural[0] = value
                natural_masks[:] = masks
            else:
                for suit in range(4):
                    natural_masks[suit] |= masks[suit]
        if budget:
            value = points + _runs_value(keys, budget - 1, ace_high)
            wild[0] = max(wild[0], value)

    last = len(candidates)

    def search(index: int, keys: list[int], budget: int, points: int) -> None:
        for position in range(index, last):
            rank, options = candidates[position]
            for need, size, taken in options:
                if need > budget:
                    continue
                new_keys = _take(keys, rank, taken)
                new_points = points + size * RANK_POINTS[rank]
                leaf(new_keys, budget - need, new_points)
                if position + 1 < last:
                    search(position + 1, new_keys, budget - need, new_points)

    leaf(hand.suit_keys, wilds, 0)
    search(0, hand.suit_keys, wilds, 0)
    return DiscardOutcome(natural[0], _cards_of(natural_masks), wild[0])


def _cards_of(masks: list[int]) -> tuple[Card, ...]:
    """The cards whose ranks (bit ``r - 1``) ``masks`` hold per suit, in code order."""
    cards: list[Card] = []
    for suit, mask in enumerate(masks):
        left = mask
        while left:
            low = left & -left
            cards.append(suit * 13 + low.bit_length() - 1)
            left ^= low
    return tuple(cards)


# ---------------------------------------------------------------------------------------
# Going out


def going_out_cards(hand: Hand, ace_high: bool) -> tuple[set[Card], bool]:
    """The naturals whose discard leaves every other natural melded, and whether a wild
    can go instead, for a hand with at least two naturals (the caller handles fewer).

    Most hands cannot go out; the caller turns them away first with the cheaper bound
    of :mod:`.arrange_bound`.
    """
    wilds = len(hand.wilds)
    found: set[Card] = set()
    wild_ok = [False]
    candidates = _candidates(hand, wilds)
    known = cover_cache(ace_high)

    def leaf(keys: list[int], budget: int) -> None:
        covers = [known[key] if key in known else run_cover(key, ace_high) for key in keys]
        total = covers[0] + covers[1] + covers[2] + covers[3]
        if total < budget:
            wild_ok[0] = True
        elif total > budget + 2:
            return  # throwing a card lowers its suit's cover by two at most
        for suit in range(4):
            key = keys[suit]
            if not key:
                continue
            allowed = budget - total + covers[suit]
            if allowed < 0:
                continue
            for rank, cover in cover_after_discard(key, ace_high):
                if cover <= allowed:
                    found.add(suit * 13 + rank - 1)

    last = len(candidates)

    def search(index: int, keys: list[int], budget: int) -> None:
        for position in range(index, last):
            rank, options = candidates[position]
            for need, _, taken in options:
                if need > budget:
                    continue
                new_keys = _take(keys, rank, taken)
                leaf(new_keys, budget - need)
                if position + 1 < last:
                    search(position + 1, new_keys, budget - need)

    leaf(hand.suit_keys, wilds)
    search(0, hand.suit_keys, wilds)
    return found, wild_ok[0]
