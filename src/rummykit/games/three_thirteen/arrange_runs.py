"""Run tables for one suit: the most deadwood points runs can meld with ``w`` wilds.

The arrangement search (:mod:`.arrange_search`) splits a hand into sets and, per suit,
runs.  This module answers the per-suit part from a small integer *suit key*: bit
``r - 1`` set for each rank ``r`` held, and bit ``13 + r - 1`` set when that rank is
held twice (two decks).  :func:`run_values` gives the tuple ``values`` where
``values[w]`` is the most points that runs of this suit can meld using at most ``w``
wild cards for their gaps and short ends (a card left out counts nothing here).  The
tuple has ``2 * cards + 1`` entries or more: with two wilds per card every card is
melded, so ``values[-1]`` also holds for any larger ``w``.

Tables have at least 16 entries, so a hand with up to 15 wilds never needs to clamp
its index.

A run of naturals at positions ``p1 < ... < pm`` (ace 1, or 14 when high) needs
``max(3, pm - p1 + 1) - m`` wilds (its gaps, and padding to three cards).  Runs that
extra wilds would stretch past 13 cards are not this module's concern: the layout
cuts them (:func:`.arrange_layout.place_extra_wilds`).

The tables come from a recursion on the lowest card (left out, or the first of a run
that takes the next held ranks with none skipped; see :func:`_group_options`), are
memoised per key (a few thousand keys in practice, emptied past 100,000) and record
their choices, so :func:`run_groups` can name the runs.  This module never does I/O
and imports nothing outside the standard library.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "RANK_POINTS",
    "cover_after_discard",
    "cover_cache",
    "discard_cache",
    "discard_values",
    "remove_rank",
    "run_cover",
    "run_groups",
    "run_values",
    "values_cache",
]

# Deadwood points of a natural at each position (1 = low ace ... 13 = king, 14 = high ace).
_POINTS_AT: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)

# Position keys: bit p (1..14) for a position held, bit 16 + p for a position held twice.
_DOUBLE_SHIFT: Final = 16
_SINGLE_MASK: Final = (1 << _DOUBLE_SHIFT) - 1

RANK_POINTS: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Deadwood points of a natural of each rank (index 1 = ace ... 13 = king)."""

_MIN_LENGTH: Final = 16

# The memos below are pure functions of their keys.  Real hands reach a few tens of
# thousands of suit patterns at most; past this many entries they all start afresh, so
# that a long run of odd hands cannot grow them without end.
_CACHE_LIMIT: Final = 100_000

_position_cache: dict[int, tuple[int, ...]] = {}
_choice_cache: dict[int, tuple[tuple[tuple[int, ...], int, int] | None, ...]] = {}
_rank_cache: tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]] = ({}, {})
_groups_cache: dict[tuple[int, bool, int], tuple[tuple[int, ...], ...]] = {}
_discard_cache: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = ({}, {})
_cover_cache: tuple[dict[int, int], dict[int, int]] = ({}, {})
_cover_after_cache: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = ({}, {})


def _forget() -> None:
    """Empty every memo (in place: other modules hold references to some)."""
    _position_cache.clear()
    _choice_cache.clear()
    _groups_cache.clear()
    for ace_high in (False, True):
        _rank_cache[ace_high].clear()
        _discard_cache[ace_high].clear()
        _cover_cache[ace_high].clear()
        _cover_after_cache[ace_high].clear()


def _cards_in(key: int) -> int:
    return (key & _SINGLE_MASK).bit_count() + (key >> _DOUBLE_SHIFT).bit_count()


def _remove(key: int, position: int) -> int:
    """The key with one copy at ``position`` taken away."""
    double_bit = 1 << (position + _DOUBLE_SHIFT)
    if key & double_bit:
        return key ^ double_bit
    return key ^ (1 << position)


def _group_options(key: int) -> list[tuple[tuple[int, ...], int, int]]:
    """Every group worth trying for the lowest card: ``(positions, need, rest_key)``.

    A group holds one copy of the lowest position and of each of the next held
    positions, with none skipped.  Why none: a held position inside the group's span
    that the group leaves out is either deadwood, and would do better in the group
    (one wild fewer), or in another run, and moving it over costs that run at most the
    wild it saves this one (a run left with no natural is dropped).  Also skipped:
    - a gap of 5 or more between neighbours (two runs either side need fewer wilds);
    - a group needing more than two wilds per card (each card alone needs two).
    """
    single = key & _SINGLE_MASK
    lowest = (single & -single).bit_length() - 1
    rest_key = _remove(key, lowest)
    options: list[tuple[tuple[int, ...], int, int]] = [((lowest,), 2, rest_key)]
    group = [lowest]
    last = lowest
    for position in range(lowest + 1, min(lowest + 13, 15)):
        if not single >> position & 1:
            continue
        if position - last > 5:
            break
        group.append(position)
        rest_key = _remove(rest_key, position)
        last = position
        size = len(group)
        span = position - lowest + 1
        need = (3 if span < 3 else span) - size
        if need <= 2 * size:
            options.append((tuple(group), need, rest_key))
    return options


# One choice per wild count: ``None`` (the lowest card is left out) or the group.
_Choice = tuple[tuple[int, ...], int, int] | None


def _position_values(key: int) -> tuple[int, ...]:
    """``values[w]`` for a key over positions (the memoised recursion)."""
    cached = _position_cache.get(key)
    if cached is not None:
        return cached
    if not key:
        return (0,)
    length = 2 * _cards_in(key) + 1
    single = key & _SINGLE_MASK
    lowest = (single & -single).bit_length() - 1
    without = _position_values(_remove(key, lowest))
    last = len(without) - 1
    best = [without[w if w < last else last] for w in range(length)]
    choices: list[_Choice] = [None] * length
    for option in _group_options(key):
        group, need, rest_key = option
        points = sum(_POINTS_AT[p] for p in group)
        sub = _position_values(rest_key)
        top = len(sub) - 1
        for w in range(need, length):
            i = w - need
            value = sub[i if i < top else top] + points
            if value > best[w]:
                best[w] = value
                choices[w] = option
    result = tuple(best)
    _position_cache[key] = result
    _choice_cache[key] = tuple(choices)
    return result


def _position_keys(rank_key: int, ace_high: bool) -> list[int]:
    """The position keys a suit key can stand for (aces low, or high with ``ace_high``)."""
    single = rank_key & 0x1FFF
    double = rank_key >> 13
    low = (single << 1) | (double << (1 + _DOUBLE_SHIFT))
    if not ace_high or not single & 1:
        return [low]
    without_aces = low & ~(2 | 2 << _DOUBLE_SHIFT)
    high_one = without_aces | 1 << 14
    if not double & 1:
        return [low, high_one]
    return [low, high_one | 2, high_one | 1 << (14 + _DOUBLE_SHIFT)]


def run_values(rank_key: int, ace_high: bool) -> tuple[int, ...]:
    """``values[w]``: the most points runs of one suit meld with at most ``w`` wilds.

    >>> run_values(0b111, False)[:4]  # A 2 3
    (6, 6, 6, 6)
    >>> run_values(0b101, False)[:3]  # A 3: one wild fills the 2
    (0, 4, 4)
    >>> run_values(1 | 1 << 12, False)[:5], run_values(1 | 1 << 12, True)[:2]  # A K
    ((0, 0, 10, 10, 11), (0, 11))
    """
    cache = _rank_cache[ace_high]
    cached = cache.get(rank_key)
    if cached is not None:
        return cached
    if len(_position_cache) > _CACHE_LIMIT:
        _forget()
    options = [_position_values(key) for key in _position_keys(rank_key, ace_high)]
    result = options[0]
    if len(options) > 1:
        result = tuple(max(values) for values in zip(*options, strict=True))
    if len(result) < _MIN_LENGTH:
        result += (result[-1],) * (_MIN_LENGTH - len(result))
    cache[rank_key] = result
    return result


def values_cache(ace_high: bool) -> dict[int, tuple[int, ...]]:
    """The memo behind :func:`run_values`, for hot loops: ``cache.get(key) or
    run_values(key, ace_high)`` (a missing key is filled by :func:`run_values`)."""
    return _rank_cache[ace_high]


def discard_cache(ace_high: bool) -> dict[int, tuple[tuple[int, int], ...]]:
    """The memo behind :func:`discard_values`, for hot loops (a missing key is filled by
    :func:`discard_values`)."""
    return _discard_cache[ace_high]


def cover_cache(ace_high: bool) -> dict[int, int]:
    """The memo behind :func:`run_cover`, for hot loops (a missing key is filled by
    :func:`run_cover`)."""
    return _cover_cache[ace_high]


def remove_rank(rank_key: int, rank: int) -> int:
    """The suit key with one copy of ``rank`` taken away (it must be held)."""
    bit = 1 << (rank - 1)
    if rank_key & bit << 13:
        return rank_key ^ bit << 13
    return rank_key ^ bit


def _ranks_held(rank_key: int) -> list[int]:
    return [rank for rank in range(1, 14) if rank_key >> (rank - 1) & 1]


def discard_values(rank_key: int, ace_high: bool) -> tuple[tuple[int, int], ...]:
    """For a hand that will throw one card of this suit: ``(value, ranks)`` per ``w``.

    ``value`` is the most of ``points(card) + run_values(key without card)[w]`` over the
    suit's cards and ``ranks`` has bit ``r - 1`` for every rank whose card reaches it.
    Adding the thrown card's points makes "melded plus thrown" comparable with the
    other suits' melded points.

    >>> discard_values(0b1111, False)[0]  # A 2 3 4: throw the ace or the 4 (bits 0, 3)
    (10, 9)
    """
    cache = _discard_cache[ace_high]
    cached = cache.get(rank_key)
    if cached is not None:
        return cached
    options = []
    for rank in _ranks_held(rank_key):
        options.append((rank, run_values(remove_rank(rank_key, rank), ace_high)))
    length = 2 * ((rank_key & 0x1FFF).bit_count() + (rank_key >> 13).bit_count()) + 1
    table = []
    for wilds in range(length):
        best, ranks = -1, 0
        for rank, values in options:
            value = RANK_POINTS[rank] + values[wilds if wilds < len(values) else -1]
            if value > best:
                best, ranks = value, 1 << (rank - 1)
            elif value == best:
                ranks |= 1 << (rank - 1)
        table.append((best, ranks))
    table.extend([table[-1]] * (_MIN_LENGTH - len(table)))
    result = tuple(table)
    cache[rank_key] = result
    return result


def run_cover(rank_key: int, ace_high: bool) -> int:
    """The fewest wilds with which runs meld every card of the suit.

    >>> run_cover(0b1011, False), run_cover(0, False), run_cover(1 << 6, False)
    (1, 0, 2)
    """
    cache = _cover_cache[ace_high]
    cached = cache.get(rank_key)
    if cached is not None:
        return cached
    values = run_values(rank_key, ace_high)
    full = values[-1]
    wilds = 0
    while values[wilds] != full:
        wilds += 1
    cache[rank_key] = wilds
    return wilds


def cover_after_discard(rank_key: int, ace_high: bool) -> tuple[tuple[int, int], ...]:
    """``(rank, run_cover(key without one card of rank))`` for each rank held."""
    cache = _cover_after_cache[ace_high]
    cached = cache.get(rank_key)
    if cached is not None:
        return cached
    result = tuple(
        (rank, run_cover(remove_rank(rank_key, rank), ace_high)) for rank in _ranks_held(rank_key)
    )
    cache[rank_key] = result
    return result


def run_groups(rank_key: int, ace_high: bool, wilds: int) -> tuple[tuple[int, ...], ...]:
    """Groups of positions (1..14) reaching ``run_values(rank_key, ace_high)[wilds]``.

    Each group is one run's naturals, low to high; together they need at most
    ``wilds`` wilds.

    >>> run_groups(0b1011, False, 1)  # A 2 4: one wild stands for the 3
    ((1, 2, 4),)
    """
    values = run_values(rank_key, ace_high)
    wilds = min(wilds, len(values) - 1)
    cached = _groups_cache.get((rank_key, ace_high, wilds))
    if cached is not None:
        return cached
    target = values[min(wilds, len(values) - 1)]
    for key in _position_keys(rank_key, ace_high):
        position_values = _position_values(key)
        if position_values[min(wilds, len(position_values) - 1)] == target:
            groups = tuple(_trace(key, wilds, target))
            _groups_cache[(rank_key, ace_high, wilds)] = groups
            return groups
    raise AssertionError("unreachable: the best value comes from one of the keys")


def _trace(key: int, wilds: int, target: int) -> list[tuple[int, ...]]:
    """Follow the recorded choices from ``key`` with ``wilds`` wilds."""
    groups: list[tuple[int, ...]] = []
    while key and target:
        _position_values(key)
        choices = _choice_cache[key]
        choice = choices[wilds if wilds < len(choices) else -1]
        if choice is None:
            single = key & _SINGLE_MASK
            key = _remove(key, (single & -single).bit_length() - 1)
            continue
        group, need, rest_key = choice
        groups.append(group)
        key, wilds = rest_key, wilds - need
        target -= sum(_POINTS_AT[p] for p in group)
    return groups
