"""Every new Burraco meld a hand can lay, each multiset once, as the rules arrange it.

:func:`candidate_melds` (cards) and :func:`candidate_arrangements` (melds) list what
:func:`~.arranging.arrange` accepts among the sub-multisets of a hand, fast: sets come
from small cached tables per rank, runs from cached patterns per suit.  Turn rules (one
set per rank, keeping a card to discard) are the game state's, not this module's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from rummykit.cards import (
    CARD_COUNT,
    JOKER,
    Card,
)
from rummykit.games.burraco.melds.arranging import (
    _PLACE_CARDS,
    _TWO,
    _WILD_FACES,
    HIGH_ACE,
    MAX_SET_NATURALS,
    MIN_MELD,
    Meld,
    _checked,
)

# ---------------------------------------------------------------------------------------
# Every new meld of a hand


class Candidate(NamedTuple):
    """A new meld a hand can lay: ``meld`` as the rules arrange it, and its cards in
    code order (``sorted_cards``), kept with it so that no caller sorts them again."""

    meld: Meld
    sorted_cards: tuple[Card, ...]


def _candidate(meld: Meld) -> Candidate:
    return Candidate(meld, tuple(sorted(meld.cards)))


_SET_RANKS: Final = (1, *range(3, 14))


@lru_cache(maxsize=4096)
def _set_table(rank: int, per_suit: tuple[int, ...]) -> tuple[tuple[Candidate, ...], ...]:
    """The sets of ``rank`` from ``per_suit`` copies of each suit's card: first the
    clean ones, then those with each wild face in the order of ``_WILD_FACES``.

    With at most two copies of a card there are at most 12 x 81 tables.
    """
    choices: list[tuple[Card, ...]] = [()]
    for suit, available in enumerate(per_suit):
        card = suit * 13 + rank - 1
        choices = [chosen + (card,) * k for chosen in choices for k in range(available + 1)]
    clean = tuple(
        _candidate(Meld("set", naturals, None, None, rank))
        for naturals in choices
        if MIN_MELD <= len(naturals) <= MAX_SET_NATURALS
    )
    # Two naturals and a wild at least.
    wildable = [n for n in choices if _TWO <= len(n) <= MAX_SET_NATURALS]
    return (
        clean,
        *(
            tuple(_candidate(Meld("set", (*n, wild), len(n), None, rank)) for n in wildable)
            for wild in _WILD_FACES
        ),
    )


RunPattern = tuple[int, int, int, bool]
"""A run pattern: lowest and highest place, the wild's place (0: clean) and whether the
suit's own 2 may be that wild (the other wild faces always may)."""


@lru_cache(maxsize=1 << 15)
def _run_patterns(rank_mask: int, twos: int) -> tuple[RunPattern, ...]:
    """Every run (as places) of the naturals of ``rank_mask`` (bit ``r`` for rank ``r``,
    the ace is bit 1) and ``twos`` copies of the suit's 2, each multiset once.

    Only the arrangement the rules give a multiset is listed: the wild high when it
    could stand at either end, ``A..K`` rather than ``2..A``, a 2 at its own place.  At
    most 8192 x 3 patterns, whatever the suit and the wilds at hand.
    """
    present = [bool(rank_mask >> r & 1) for r in range(HIGH_ACE + 1)] + [False]
    present[HIGH_ACE] = present[1]
    present[_TWO] = twos > 0
    patterns: list[RunPattern] = []

    def add(lo: int, hi: int, wild_place: int) -> None:
        """Add ``lo..hi`` with a wild at ``wild_place`` (0: clean)."""
        if not wild_place:
            patterns.append((lo, hi, 0, False))
            return
        spare = twos - (1 if lo <= _TWO <= hi and wild_place != _TWO else 0)
        # The suit's 2 at place 2 is natural, and below naturals from 3 up it goes home.
        two_may_be_wild = (
            spare > 0 and wild_place != _TWO and not (lo == MIN_MELD and wild_place == hi)
        )
        patterns.append((lo, hi, wild_place, two_may_be_wild))

    for lo in range(1, HIGH_ACE):
        if not present[lo]:
            continue
        hole = 0
        for hi in range(lo + 1, HIGH_ACE + 1):
            if not present[hi]:
                if hole:
                    break
                hole = hi
                continue
            if lo == 1 and hi == HIGH_ACE:
                break  # two natural aces
            ace_both_ways = lo == _TWO and hi == HIGH_ACE  # the same cards lie as A..K
            if hole:
                if not ace_both_ways:
                    add(lo, hi, hole)
                continue
            if hi - lo >= _TWO and not ace_both_ways:
                add(lo, hi, 0)
                for gap in range(lo + 1, hi):  # a wild in place of a natural left out
                    add(lo, hi, gap)
            if hi < HIGH_ACE:
                add(lo, hi + 1, hi + 1)
            elif lo > MIN_MELD:
                # The naturals end with the high ace: the wild stands below them.
                add(lo - 1, hi, lo - 1)
    return tuple(patterns)


_RUN_MELDS: dict[tuple[int, int, int, int, Card], Candidate] = {}
"""Every run met so far by its suit, places and wild (at most about 11,000)."""


def _run_meld(suit: int, lo: int, hi: int, wild_place: int, wild: Card) -> Candidate:
    key = (suit, lo, hi, wild_place, wild)
    candidate = _RUN_MELDS.get(key)
    if candidate is None:
        row = _PLACE_CARDS[suit]
        if wild_place:
            cards = (*row[lo:wild_place], wild, *row[wild_place + 1 : hi + 1])
            meld = Meld("run", cards, wild_place - lo, suit, lo)
        else:
            meld = Meld("run", row[lo : hi + 1], None, suit, lo)
        candidate = _RUN_MELDS[key] = _candidate(meld)
    return candidate


def _add_runs(
    melds: list[Candidate], suit: int, rank_mask: int, twos: int, others: list[Card]
) -> None:
    """Add the runs of one suit; ``others`` are the wild faces at hand."""
    suit_two = suit * 13 + 1
    get = _RUN_MELDS.get
    for lo, hi, wild_place, two_may_be_wild in _run_patterns(rank_mask, twos):
        if not wild_place:
            melds.append(get((suit, lo, hi, 0, 0)) or _run_meld(suit, lo, hi, 0, 0))
            continue
        for wild in others:
            if wild != suit_two:
                key = (suit, lo, hi, wild_place, wild)
                melds.append(get(key) or _run_meld(*key))
        if two_may_be_wild:
            melds.append(_run_meld(suit, lo, hi, wild_place, suit_two))


def _general_candidates(counts: list[int]) -> list[Candidate]:
    """The candidates of any multiset (more than two copies of a card included)."""
    melds: list[Candidate] = []
    others = [face for face in _WILD_FACES if counts[face]]
    for rank in _SET_RANKS:
        per_suit = tuple(counts[s * 13 + rank - 1] for s in range(4))
        if sum(per_suit) >= _TWO:
            table = _set_table(rank, per_suit)
            melds.extend(table[0])
            for position, face in enumerate(_WILD_FACES, start=1):
                if counts[face]:
                    melds.extend(table[position])
    for suit in range(4):
        base = suit * 13
        mask = sum(1 << r for r in range(1, 14) if r != _TWO and counts[base + r - 1])
        _add_runs(melds, suit, mask, min(counts[base + 1], _TWO), others)
    return melds


_SUIT_BITS: Final = (1 << 13) - 1
_NOT_TWO: Final = _SUIT_BITS & ~(1 << (_TWO - 1))  # a suit's ranks but its 2
_WILD_BITS: Final = sum(1 << face for face in _WILD_FACES)
_ALL_CARDS: Final = (1 << CARD_COUNT) - 1


_RANK_SUITS: Final = sum(1 << (13 * suit) for suit in range(4))  # a rank's bit in each suit


@lru_cache(maxsize=1 << 15)
def _sets_of(key: int) -> tuple[Candidate, ...]:
    """The sets of one rank that a hand holds, in candidate order.  ``key`` packs (one
    int, so that the cache hashes nothing else) the rank's index (``rank - 1``, 4 bits),
    the bits of its cards in the hand (``present >> index & _RANK_SUITS``, and the same
    of ``doubles``) and the wild faces at hand (``present & _WILD_BITS``)."""
    index = key & 15
    wilds = key >> 4 & _ALL_CARDS
    here = key >> 57 & _RANK_SUITS
    twice = key >> 97
    per_suit = tuple((here >> shift & 1) + (twice >> shift & 1) for shift in (0, 13, 26, 39))
    table = _set_table(index + 1, per_suit)
    found = list(table[0])
    for position, face in enumerate(_WILD_FACES, start=1):
        if wilds >> face & 1:
            found.extend(table[position])
    return tuple(found)


@lru_cache(maxsize=1 << 15)
def _runs_of(key: int) -> tuple[Candidate, ...]:
    """The runs of one suit that a hand holds, in candidate order.  ``key`` packs the
    suit (2 bits), the wild faces at hand other than the suit's 2, the copies of the
    suit's 2 (2 bits) and the bits of the suit's ranks (bit ``r - 1`` for rank ``r``)."""
    suit = key & 3
    wilds = key >> 2 & _ALL_CARDS
    twos = key >> 55 & 3
    ranks = key >> 57
    found: list[Candidate] = []
    others = [face for face in _WILD_FACES if wilds >> face & 1]
    _add_runs(found, suit, (ranks & _NOT_TWO) << 1, twos, others)
    return tuple(found)


def candidates_of(hand: Sequence[Card], *, check: bool = True) -> list[Candidate]:
    """Every legal new meld that the multiset ``hand`` can form, each multiset once, in
    the order of :func:`candidate_melds`, as :class:`Candidate` values (a new list).

    ``check=False`` skips checking that ``hand`` holds only card codes (for a hand the
    engine keeps itself).  The hand is two bit sets of its faces (``present``, and
    ``doubles`` for a second copy); the sets of each rank and the runs of each suit
    come from caches keyed by their part of those bits.
    """
    cards = _checked(hand, "a hand") if check else hand
    present = doubles = 0
    for card in cards:
        bit = 1 << card
        if present & bit:
            if doubles & bit and card != JOKER:
                # More copies of a card than two decks hold.
                counts = [0] * CARD_COUNT
                for each in cards:
                    counts[each] += 1
                return _general_candidates(counts)
            doubles |= bit
        else:
            present |= bit
    melds: list[Candidate] = []
    wilds = present & _WILD_BITS
    first = present & _SUIT_BITS
    second = present >> 13 & _SUIT_BITS
    third = present >> 26 & _SUIT_BITS
    fourth = present >> 39 & _SUIT_BITS
    pairs = (
        (first & second)
        | ((first | second) & third)
        | ((first | second | third) & fourth)
        | (doubles | doubles >> 13 | doubles >> 26 | doubles >> 39)
    ) & _NOT_TWO
    while pairs:
        low = pairs & -pairs
        pairs ^= low
        index = low.bit_length() - 1
        key = (
            (doubles >> index & _RANK_SUITS) << 97
            | (present >> index & _RANK_SUITS) << 57
            | wilds << 4
            | index
        )
        melds.extend(_sets_of(key))
    for suit, ranks in enumerate((first, second, third, fourth)):
        if ranks.bit_count() >= _TWO:
            two = 13 * suit + 1
            key = (
                ranks << 57
                | ((ranks >> 1 & 1) + (doubles >> two & 1)) << 55
                | (wilds & ~(1 << two)) << 2
                | suit
            )
            melds.extend(_runs_of(key))
    return melds


def candidate_arrangements(hand: Sequence[Card]) -> Iterator[Meld]:
    """Every legal new meld that the multiset ``hand`` can form, each multiset once,
    as arranged melds (see :func:`candidate_melds`)."""
    return iter([candidate.meld for candidate in candidates_of(hand)])


def candidate_melds(hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every legal new meld that the multiset ``hand`` can form, each multiset once.

    The cards of each are in the order of ``arrange(...).cards``.  Works on counts per
    face and on places per suit (with the melds of each pattern kept in a cache), never
    on subsets of the hand.

    >>> from rummykit.cards import parse_cards, format_cards
    >>> for meld in candidate_melds(parse_cards("5h 6h 7h Jk")):
    ...     print(format_cards(meld))
    5h 6h Jk
    5h 6h 7h
    5h Jk 7h
    5h 6h 7h Jk
    6h 7h Jk
    """
    return iter([candidate.meld.cards for candidate in candidates_of(hand)])
