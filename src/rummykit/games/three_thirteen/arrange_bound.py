"""A quick necessary condition for going out: a lower bound on the wilds a hand needs.

Going out melds every card but the one thrown, so every natural left must sit in a
group (:mod:`.arrange_search`), and the groups' needs must add up to at most the wilds
held.  Share each group's need equally among its naturals.  A natural's *share* is the
least it could get in any group it can belong to that needs no more wilds than the
hand holds: 0 in a set of three or more, 1/2 in a set of two, ``need / size`` in a run
(a window of at most 13 ranks of its suit, with every natural of the suit inside it),
and 2 alone.  The hand needs at least the sum of the shares; throwing a natural takes
its share away and never lowers the others' (their groups only lose options).  So
after throwing ``c`` at least ``total - share(c)`` wilds are needed, and after
throwing a wild at least ``total`` of the wilds left.

Most hands met in play fail this test by far, which takes a handful of integer
operations: the hand is summed into one integer with four bits a card face (``4 *
card``, so each suit takes 52 bits and the jokers sit above), and each suit's fields
(the copies of each rank) are looked up in a table of *quick entries*: the sum of the
suit's run shares, and per rank what a set of two or of three would save, rounded up
to sixths of a wild.  The ranks the hand holds twice and three times pick with one
mask the savings to take off.  Only the hands this leaves near the edge are looked at
exactly: each suit keyed by its fields with bit 2 set where the hand holds the rank at
least twice and bit 3 at least three times, for the sum of its shares and its largest
share, in units of 1/360360 of a wild (exact: a run holds at most 13 naturals).  Both
kinds of table fill as hands ask for them; the quick one stays small (a few thousand
suit patterns a number of wilds), where the exact one would keep growing.

This module never does I/O and imports nothing outside the standard library.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from rummykit.cards import JOKER, Card

__all__ = ["UNIT", "forget", "may_go_out", "run_shares"]

UNIT: Final = 360360
"""The unit of the shares: 1/360360 of a wild (360360 is the least multiple of 1..13)."""

_ALONE: Final = 2 * UNIT
_HALF: Final = UNIT // 2

_SUIT_BITS: Final = 52
_SUIT_MASK: Final = (1 << _SUIT_BITS) - 1
_DIGITS: Final = _SUIT_MASK  # x % _DIGITS adds up x's 52-bit digits (the four suits)
_NIBBLE: Final = tuple(1 << 4 * card for card in range(JOKER + 1))
_EACH_RANK: Final = sum(1 << 4 * index for index in range(13))  # 1 in each field of a suit
_COUNTS: Final = 3 * _EACH_RANK  # the copies held, in a suit's fields
_EACH_CARD: Final = sum(_NIBBLE[:JOKER])  # 1 in each field of a suited card
_EACH_SUIT: Final = sum(1 << suit * _SUIT_BITS for suit in range(4))  # 1 in each suit's ace
_ACE_FIELDS: Final = 15 * _EACH_SUIT
_WILD_SHIFT: Final = (0, *(4 * (rank - 1) for rank in range(1, 14)))  # to the aces' fields
_JOKER_SHIFT: Final = 4 * JOKER
_HEARTS_SHIFT: Final = 2 * _SUIT_BITS
_SPADES_SHIFT: Final = 3 * _SUIT_BITS
# Constants for adding to every field at once (a field reaching 8 sets its bit 3).
_FIVE_EACH_CARD: Final = 5 * _EACH_CARD
_SEVEN_EACH_CARD: Final = 7 * _EACH_CARD
_EIGHT_EACH_CARD: Final = 8 * _EACH_CARD
_FIVE_EACH_RANK: Final = 5 * _EACH_RANK
_SIX_EACH_RANK: Final = 6 * _EACH_RANK
_EIGHT_EACH_RANK: Final = 8 * _EACH_RANK
# The naturals' fields, for each wild rank: every suited card but those of that rank.
_NATURALS: Final = (
    0,
    *(((1 << 4 * JOKER) - 1) & ~(15 * _EACH_SUIT << 4 * (rank - 1)) for rank in range(1, 14)),
)

# An exact entry is its suit's total share << 24 | its largest share; four entries add
# up without the largest shares (at most 2 * UNIT each) reaching the totals.
_TOTAL_SHIFT: Final = 24
_LARGEST: Final = (1 << _TOTAL_SHIFT) - 1
# A quick entry: the total run share in bits 0-23, then a byte per rank for what a set
# of two saves and a byte per rank for what a set of three saves, in sixths of a wild
# rounded up (the sum of four entries: at most 96 a byte, 180 over the bytes picked).
_SIXTH: Final = UNIT // 6
_PAIR_BYTES: Final = 24
_SET_BYTES: Final = _PAIR_BYTES + 8 * 13

# Past this many entries the tables start afresh (they are pure functions of their keys).
_TABLE_LIMIT: Final = 100_000
_MOST_WILDS: Final = 11  # with 11 wilds every group of a suit can be afforded

# One table per number of wilds (capped) and ace rule: index ``wilds << 1 | ace_high``;
# quick entries keyed by a suit's copies, exact ones by its fields with the set flags.
_quick_tables: tuple[dict[int, int], ...] = tuple({0: 0} for _ in range(2 * _MOST_WILDS + 2))
_tables: tuple[dict[int, int], ...] = tuple({0: 0} for _ in range(2 * _MOST_WILDS + 2))
_set_masks: dict[int, int] = {}
_run_shares: dict[int, tuple[int, ...]] = {}
_suit_cards_cache: dict[int, tuple[tuple[int, int, int], ...]] = {}


def forget() -> None:
    """Empty every table (they fill again as hands ask for them)."""
    for table in (*_quick_tables, *_tables):
        table.clear()
        table[0] = 0
    _set_masks.clear()
    _run_shares.clear()
    _suit_cards_cache.clear()


def run_shares(ranks: int, wilds: int, ace_high: bool) -> tuple[int, ...]:
    """``shares[r]``: the least share (in units) a natural of rank ``r`` gets in a run
    of its suit, whose ranks are ``ranks`` (bit ``r - 1``), with at most ``wilds``
    wilds; two wilds if no run does better.

    The best run for a natural, for a given lowest and highest rank, holds every rank
    of the suit between them: each one added needs one wild fewer.

    >>> [s / UNIT for s in run_shares(0b1011, 1, False)[1:5]]  # A 2 _ 4: A-4 needs 1
    [0.3333333333333333, 0.3333333333333333, 2.0, 0.3333333333333333]
    """
    wilds = min(wilds, _MOST_WILDS)
    key = ranks | wilds << 13 | ace_high << 17
    cached = _run_shares.get(key)
    if cached is not None:
        return cached
    positions = [rank for rank in range(1, 14) if ranks >> (rank - 1) & 1]
    if ace_high and ranks & 1:
        positions.append(14)
    best = [_ALONE] * 15
    count = len(positions)
    for low in range(count):
        for high in range(low + 1, count):
            span = positions[high] - positions[low] + 1
            if span > 13:
                break
            size = high - low + 1
            need = (3 if span < 3 else span) - size
            if need > wilds:
                continue
            share = need * UNIT // size
            for index in range(low, high + 1):
                position = positions[index]
                best[position] = min(best[position], share)
    best[1] = min(best[1], best[14])
    result = tuple(best[:14])
    if len(_run_shares) > _TABLE_LIMIT:
        _run_shares.clear()
    _run_shares[key] = result
    return result


def _suit_cards(counts: int, wilds: int, ace_high: bool) -> tuple[tuple[int, int, int], ...]:
    """``(field shift, copies, run share)`` for each rank a suit holds (``counts``: its
    fields without the flags)."""
    key = counts | wilds << _SUIT_BITS | ace_high << (_SUIT_BITS + 4)
    cached = _suit_cards_cache.get(key)
    if cached is not None:
        return cached
    fields = [counts >> 4 * index & 3 for index in range(13)]
    ranks = sum(1 << index for index, copies in enumerate(fields) if copies)
    runs = run_shares(ranks, wilds, ace_high)
    result = tuple(
        (4 * index, copies, runs[index + 1]) for index, copies in enumerate(fields) if copies
    )
    if len(_suit_cards_cache) > _TABLE_LIMIT:
        _suit_cards_cache.clear()
    _suit_cards_cache[key] = result
    return result


def _suit_entry(key: int, wilds: int, ace_high: bool) -> int:
    """The exact entry of one suit's key: its total share and its largest."""
    total = largest = 0
    for shift, copies, run_share in _suit_cards(key & _COUNTS, wilds, ace_high):
        flags = key >> shift & 12
        share = run_share
        if flags & 8:
            share = 0
        elif flags and wilds and share > _HALF:
            share = _HALF
        total += copies * share
        largest = max(largest, share)
    return total << _TOTAL_SHIFT | largest


def _quick_entry(counts: int, wilds: int, ace_high: bool) -> int:
    """The quick entry of a suit holding ``counts``: its run shares, and what sets
    could save (rounded up)."""
    entry = 0
    for shift, copies, share in _suit_cards(counts, wilds, ace_high):
        byte = 2 * shift
        entry += copies * share
        if wilds and share > _HALF:
            entry |= -(-copies * (share - _HALF) // _SIXTH) << _PAIR_BYTES + byte
        entry |= -(-copies * share // _SIXTH) << _SET_BYTES + byte
    return entry


def _fill(
    table: dict[int, int],
    keys: tuple[int, ...],
    wilds: int,
    ace_high: bool,
    make: Callable[[int, int, bool], int],
) -> int:
    """The sum of the entries of ``keys``, adding those missing to ``table``."""
    if len(table) > _TABLE_LIMIT:
        table.clear()
        table[0] = 0
    packed = 0
    for key in keys:
        entry = table.get(key)
        if entry is None:
            entry = table[key] = make(key, wilds, ace_high)
        packed += entry
    return packed


def _set_mask(flags: int) -> int:
    """The bytes of a quick entry (shifted down to the first) that the sets ``flags``
    save: bit 3 of a rank's field if the hand holds the rank three times or more, bit 2
    if twice."""
    mask = _set_masks.get(flags)
    if mask is None:
        mask = 0
        for index in range(13):
            bits = flags >> 4 * index
            if bits & 8:
                mask |= 255 << _SET_BYTES - _PAIR_BYTES + 8 * index
            elif bits & 4:
                mask |= 255 << 8 * index
        if len(_set_masks) > _TABLE_LIMIT:
            _set_masks.clear()
        _set_masks[flags] = mask
    return mask


def _exactly(naturals: int, flags: int, wilds: int, ace_high: bool) -> bool:
    """:func:`may_go_out` with exact shares (for the hands near the edge)."""
    if flags:
        present = naturals + _SEVEN_EACH_CARD & _EIGHT_EACH_CARD
        naturals |= flags * _EACH_SUIT & (present | present >> 1)
    keys = (
        naturals & _SUIT_MASK,
        naturals >> _SUIT_BITS & _SUIT_MASK,
        naturals >> _HEARTS_SHIFT & _SUIT_MASK,
        naturals >> _SPADES_SHIFT,
    )
    table = _tables[(wilds if wilds < _MOST_WILDS else _MOST_WILDS) << 1 | ace_high]
    total = _fill(table, keys, wilds, ace_high, _suit_entry) >> _TOTAL_SHIFT
    budget = wilds * UNIT
    if total <= budget:
        return True
    largest = max(table[key] & _LARGEST for key in keys)
    return total - largest <= budget


def may_go_out(cards: Sequence[Card], wild_rank: int, ace_high: bool) -> bool:
    """``False`` when no discard can leave ``cards`` fully melded, ``True`` when one may.

    The bound holds for hands of up to 15 cards with at least two naturals, none held
    three times; for any other hand the answer is ``True``.

    >>> from rummykit.cards import parse_cards
    >>> may_go_out(parse_cards("4h 5h 6h 9c 9d Js Qd"), 7, False)
    False
    >>> may_go_out(parse_cards("4h 5h 6h 9c 9d 7s Qd"), 7, False)
    True
    """
    size = len(cards)
    if size > 15:
        return True
    held = sum(map(_NIBBLE.__getitem__, cards))
    wilds = (held >> _WILD_SHIFT[wild_rank] & _ACE_FIELDS) % _DIGITS + (held >> _JOKER_SHIFT)
    naturals = held & _NATURALS[wild_rank]
    if size - wilds < 2 or (naturals + _FIVE_EACH_CARD | naturals) & _EIGHT_EACH_CARD:
        return True
    clubs = naturals & _SUIT_MASK
    diamonds = naturals >> _SUIT_BITS & _SUIT_MASK
    hearts = naturals >> _HEARTS_SHIFT & _SUIT_MASK
    spades = naturals >> _SPADES_SHIFT
    table = _quick_tables[(wilds if wilds < _MOST_WILDS else _MOST_WILDS) << 1 | ace_high]
    try:
        packed = table[clubs] + table[diamonds] + table[hearts] + table[spades]
    except KeyError:
        packed = _fill(table, (clubs, diamonds, hearts, spades), wilds, ace_high, _quick_entry)
    total = packed & _LARGEST
    # The ranks held at least twice and three times in the hand, as bits 2 and 3 of
    # their fields; what their sets save, rounded up, is taken off the total.
    totals = clubs + diamonds + hearts + spades
    flags = (totals + _SIX_EACH_RANK & _EIGHT_EACH_RANK) >> 1 | (
        totals + _FIVE_EACH_RANK & _EIGHT_EACH_RANK
    )
    if flags:
        mask = _set_masks.get(flags) or _set_mask(flags)
        total -= (packed >> _PAIR_BYTES & mask) % 255 * _SIXTH
    if total > wilds * UNIT + _ALONE:
        return False
    return _exactly(naturals, flags, wilds, ace_high)
